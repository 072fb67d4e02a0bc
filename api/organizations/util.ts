import { validationError, type AppError } from '../../lib/errors';

export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23505' && (!constraint || e.constraint === constraint);
}

export const invalidCursor = (): AppError => validationError('invalid cursor', [{ path: 'query.cursor', problem: 'not a cursor from this list' }]);
