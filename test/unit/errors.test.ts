import { toAppError } from '../../api/middleware/errors';
import { AppError, ERROR_CATALOG, envelope } from '../../lib/errors';
import { ServiceUnavailableError } from '../../lib/unavailable';
import { decodeCursor, encodeCursor, toPage } from '../../lib/pagination';
import { can, PERMISSIONS, ROLES } from '../../lib/permissions';

describe('error mapping', () => {
  test('every catalogued code has a 4xx or 5xx status', () => {
    for (const { status } of Object.values(ERROR_CATALOG)) {
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
    }
  });

  test('AppError keeps its code and status', () => {
    const e = toAppError(new AppError('USER_EXISTS', 'taken'));
    expect(e.status).toBe(409);
    expect(envelope(e)).toEqual({ error: { code: 'USER_EXISTS', message: 'taken' } });
  });

  test('connection failures become 503', () => {
    expect(toAppError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })).code).toBe('SERVICE_UNAVAILABLE');
    expect(toAppError(Object.assign(new Error('x'), { code: '57P01' })).code).toBe('SERVICE_UNAVAILABLE');
    expect(toAppError(new ServiceUnavailableError('minio', 'down')).code).toBe('SERVICE_UNAVAILABLE');
    expect(toAppError(new Error('wrapped', { cause: Object.assign(new Error(), { code: 'ETIMEDOUT' }) })).status).toBe(503);
  });

  test('unknown errors are masked as 500', () => {
    const e = toAppError(new TypeError('secret internals'));
    expect(e.status).toBe(500);
    expect(e.message).not.toMatch(/secret/);
  });

  test("PostgreSQL's refusals of a value for its column are a 400, whatever check is missing above them", () => {
    for (const code of ['22001', '22003', '22007', '22008', '22009', '22P02']) {
      const e = toAppError(Object.assign(new Error('value too long for type character varying(255)'), { code }));
      expect({ code, status: e.status, errorCode: e.code, message: e.message }).toEqual({
        code,
        status: 400,
        errorCode: 'VALIDATION_ERROR',
        message: 'a value in the request does not fit its field (too long, out of range or malformed)',
      });
    }
    expect(toAppError(Object.assign(new Error('x'), { code: '23505' })).status).toBe(500); // not a value's fault alone
  });

  test('http errors from koa map by status', () => {
    expect(toAppError(Object.assign(new Error('too big'), { status: 413 })).code).toBe('PAYLOAD_TOO_LARGE');
    expect(toAppError(Object.assign(new Error('x'), { status: 400, expose: true })).message).toBe('x');
  });
});

describe('pagination', () => {
  test('cursor round trip and garbage', () => {
    const c = encodeCursor({ sort: '2026-01-01T00:00:00.000Z', id: 'abc' });
    expect(decodeCursor(c)).toEqual({ sort: '2026-01-01T00:00:00.000Z', id: 'abc' });
    expect(decodeCursor('not-a-cursor')).toBeNull();
    expect(decodeCursor(Buffer.from('{"a":1}').toString('base64url'))).toBeNull();
  });

  test('toPage cuts the extra row and points at the last one', () => {
    const rows = [1, 2, 3].map((n) => ({ id: String(n), t: `t${n}` }));
    const page = toPage(rows, 2, (r) => ({ sort: r.t, id: r.id }));
    expect(page.data).toHaveLength(2);
    expect(decodeCursor(page.nextCursor!)).toEqual({ sort: 't2', id: '2' });
    expect(toPage(rows, 3, (r) => ({ sort: r.t, id: r.id })).nextCursor).toBeNull();
  });
});

describe('permissions', () => {
  test('viewer never writes, owner can do everything', () => {
    for (const permission of Object.keys(PERMISSIONS) as (keyof typeof PERMISSIONS)[]) {
      expect(can('owner', permission)).toBe(true);
      if (/:(write|update|delete|manage|execute|publish|billing|transfer)$/.test(permission)) {
        expect(can('viewer', permission)).toBe(false);
      }
    }
    expect(ROLES).toEqual(['owner', 'admin', 'member', 'viewer']);
    expect(can('admin', 'organization:delete')).toBe(false);
  });
});
