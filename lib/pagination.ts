import { z } from 'zod';
import { validationError, type AppError } from './errors';
import { isUuid } from './ids';
import { isCursorTimestamp } from './timestamps';

/**
 * One list convention for every endpoint: `limit` (default 20, max 100) and an opaque `cursor`; responses are
 * `{ data: [...], nextCursor }`. The cursor encodes the sort key of the last row (keyset pagination), so pages stay
 * stable while rows are inserted.
 */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional().default(DEFAULT_PAGE_SIZE),
  cursor: z.string().max(512).optional(),
});

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({ data: z.array(item), nextCursor: z.string().nullable() });

/** A keyset position: the sort value (e.g. an ISO time) and the row id that breaks ties. */
export interface CursorPosition {
  sort: string;
  id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.sort, position.id]), 'utf8').toString('base64url');
}

/** Returns null for a cursor that was not made by encodeCursor; callers answer 400 for it. */
export function decodeCursor(cursor: string): CursorPosition | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { sort: value[0], id: value[1] };
    }
  } catch {
    // fall through: not a cursor of ours
  }
  return null;
}

/**
 * The 400 every list answers for a cursor it did not make (garbage, another list's, one that does not fit the
 * order asked for): one status, code, message and detail. `path` names where the cursor came from.
 */
export function invalidCursor(path = 'query.cursor'): AppError {
  return validationError('invalid cursor', [{ path, problem: 'not a cursor from this list' }]);
}

/**
 * What a list sorts by, which its cursor's sort value must be: a timestamp, a version number (a positive int4), or
 * `any` for a list that checks the value itself (content queries sort by a field the client picks).
 */
export type CursorSort = 'time' | 'version' | 'any';

const MAX_INT4 = 2_147_483_647;

function sortValueFits(sort: CursorSort, value: string): boolean {
  if (sort === 'time') return isCursorTimestamp(value);
  if (sort === 'version') return /^\d{1,10}$/.test(value) && Number(value) <= MAX_INT4;
  return true;
}

/**
 * The position a list's cursor encodes; null without a cursor; `invalidCursor(path)` thrown for a foreign one. A
 * cursor is client input like any other: its id must be a UUID and its sort value of the list's kind, or
 * PostgreSQL's cast of a crafted one (`["x","y"]`) fails the query (22P02, 22007, 22003: a 500 before this).
 */
export function decodeCursorOrThrow(cursor: string | null | undefined, sort: CursorSort = 'time', path = 'query.cursor'): CursorPosition | null {
  if (!cursor) return null;
  const position = decodeCursor(cursor);
  if (!position || !isUuid(position.id) || !sortValueFits(sort, position.sort)) throw invalidCursor(path);
  return position;
}

/** Given rows fetched with limit + 1, cut to the page and compute the next cursor. */
export function toPage<T>(rows: T[], limit: number, position: (row: T) => CursorPosition): Page<T> {
  const data = rows.slice(0, limit);
  const last = data[data.length - 1];
  return { data, nextCursor: rows.length > limit && last ? encodeCursor(position(last)) : null };
}
