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
    expect(decodeCursorOrThrow(encodeCursor({ sort: '2026-01-01T00:00:00.000Z', id: 'a' }))).toEqual({ sort: '2026-01-01T00:00:00.000Z', id: 'a' });
    expect(() => decodeCursorOrThrow('garbage', 'body.cursor')).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR', message: 'invalid cursor', details: [{ path: 'body.cursor', problem: 'not a cursor from this list' }] }),
    );
  });
});
