/** PostgreSQL's SQLSTATE for a duplicate key (unique_violation). */
export const UNIQUE_VIOLATION = '23505';

/**
 * Whether a query failed because a row with the same unique key exists; with `constraint`, only when it was that
 * constraint (an index name). Inserts that may race or repeat (a registration, a slug, a run prepared twice) use
 * it to tell "already there" from a real failure. Anything that is not a pg error answers false.
 */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, constraint: violated } = err as { code?: unknown; constraint?: unknown };
  return code === UNIQUE_VIOLATION && (constraint === undefined || violated === constraint);
}
