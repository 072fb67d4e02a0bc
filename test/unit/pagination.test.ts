import { AppError, envelope, ERROR_CATALOG } from '../../lib/errors';
import { decodeCursorOrThrow, encodeCursor, invalidCursor } from '../../lib/pagination';

describe('invalid cursor', () => {
  test('one 400 VALIDATION_ERROR, message and detail for every list; the path says where the cursor came from', () => {
    const error = invalidCursor();
    expect(error).toBeInstanceOf(AppError);
    expect(ERROR_CATALOG[error.code].status).toBe(400);
    expect(envelope(error)).toEqual({
      error: { code: 'VALIDATION_ERROR', message: 'invalid cursor', details: [{ path: 'query.cursor', problem: 'not a cursor from this list' }] },
    });
    expect(invalidCursor('body.cursor').details).toEqual([{ path: 'body.cursor', problem: 'not a cursor from this list' }]);
  });

  test('decodeCursorOrThrow: null without a cursor, the position of ours, the 400 for anything else', () => {
    expect(decodeCursorOrThrow(undefined)).toBeNull();
    expect(decodeCursorOrThrow('')).toBeNull();
    const id = '0b9e4d4c-5a55-4e0b-9a3e-2f6f3b1c8d11';
    expect(decodeCursorOrThrow(encodeCursor({ sort: '2026-01-01T00:00:00.000Z', id }))).toEqual({ sort: '2026-01-01T00:00:00.000Z', id });
    expect(() => decodeCursorOrThrow('garbage', 'any', 'body.cursor')).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR', message: 'invalid cursor', details: [{ path: 'body.cursor', problem: 'not a cursor from this list' }] }),
    );
  });

  /** Crafted cursors (valid base64 and JSON) whose values PostgreSQL's casts refuse: 22P02, 22007, 22008, 22003. */
  test('a cursor is refused unless its id is a UUID and its sort value of the list kind', () => {
    const id = '0b9e4d4c-5a55-4e0b-9a3e-2f6f3b1c8d11';
    const refused = (sort: string, cursorId: string, kind: 'time' | 'version' | 'any') => {
      try {
        decodeCursorOrThrow(encodeCursor({ sort, id: cursorId }), kind);
        return false;
      } catch (err) {
        return (err as AppError).code === 'VALIDATION_ERROR';
      }
    };
    for (const ok of ['2026-11-27T22:45:55.123Z', '2026-11-27T22:45:55.123456Z', '2026-11-27 22:45:55.123456+00', '2024-02-29 00:00:00-05:30', '0001-01-01T00:00:00Z']) {
      expect(refused(ok, id, 'time')).toBe(false);
    }
    for (const bad of ['x', '1', '2026-11-27', '0000-01-01T00:00:00Z', '2026-02-29T00:00:00Z', '2026-13-01T00:00:00Z', '2026-04-31 00:00:00+00', '2026-01-01T24:00:00Z', '2026-01-01T00:00:00', '2026-01-01T00:00:00+16:00', '2026-01-01T00:00:00.1234567Z']) {
      expect(refused(bad, id, 'time')).toBe(true);
    }
    expect(refused('2026-01-01T00:00:00Z', 'y', 'time')).toBe(true);
    expect(refused('2026-01-01T00:00:00Z', 'y', 'any')).toBe(true);
    expect(refused('anything', id, 'any')).toBe(false);
    expect(refused('2147483647', id, 'version')).toBe(false);
    for (const bad of ['2147483648', '99999999999', '-1', '1.5', '1e3', '']) expect(refused(bad, id, 'version')).toBe(true);
  });
});
