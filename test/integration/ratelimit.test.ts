import { randomUUID } from 'node:crypto';
import { createRateLimiter } from '../../domain/ratelimit/limiter';
import { createDb } from '../../db/knex';
import { AppError } from '../../lib/errors';
import { startApi, type TestApi, type TestResponse } from '../helpers/stack';

/**
 * The shared limiter against the real database, and the auth endpoints' limits over HTTP. Windows are short and
 * aligned to the epoch, so a burst may straddle a boundary: tests send up to 2 x limit + 1 requests, which puts
 * more than `limit` of them into one window for sure.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const randomIp = (): string => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 254) + 1).join('.')}`;

async function untilLimited(send: () => Promise<TestResponse>, limit: number) {
  const statuses: number[] = [];
  for (let i = 0; i < 2 * limit + 1; i++) {
    const res = await send();
    statuses.push(res.status);
    if (res.status === 429) return { res, statuses };
  }
  throw new Error(`never limited: ${statuses.join(',')}`);
}

describe('limiter', () => {
  test('counts per bucket and key, shared by separate instances (separate pools), and says when to retry', async () => {
    const dbA = createDb(process.env.DATABASE_URL!, 2);
    const dbB = createDb(process.env.DATABASE_URL!, 2);
    try {
      const a = createRateLimiter(dbA);
      const b = createRateLimiter(dbB);
      const rule = { limit: 3, windowMs: 60_000 };
      const key = randomUUID();
      const hit = (limiter: typeof a, k = key) => limiter.hit([{ bucket: 'test.shared', key: k, rule }]);
      // Windows are a minute long here, so all of these land in one (or, rarely, two) windows.
      const decisions = [];
      for (const limiter of [a, b, a, b, a, b, a]) decisions.push(await hit(limiter));
      const denied = decisions.filter((d) => !d.allowed);
      expect(denied.length).toBeGreaterThanOrEqual(1);
      expect(denied[0]!.exceeded).toEqual(['test.shared']);
      expect(denied[0]!.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(denied[0]!.retryAfterSeconds).toBeLessThanOrEqual(60);
      expect((await hit(a, randomUUID())).allowed).toBe(true);

      await expect(a.consume([{ bucket: 'test.shared', key, rule }])).rejects.toMatchObject({
        code: 'RATE_LIMITED',
        status: 429,
      });
      const err = await a.consume([{ bucket: 'test.shared', key, rule }]).catch((e: AppError) => e);
      expect((err as AppError).headers?.['Retry-After']).toMatch(/^\d+$/);

      await a.reset('test.shared', key);
      expect((await hit(b)).allowed).toBe(true);
      // A rule switched off never limits and never touches the table.
      expect((await a.hit([{ bucket: 'test.off', key, rule: null }])).allowed).toBe(true);
      expect(await dbA('rate_limit_counters').where({ bucket: 'test.off' })).toHaveLength(0);
    } finally {
      await Promise.all([dbA.destroy(), dbB.destroy()]);
    }
  });

  test('keeps its counters out of the write-ahead log (migration 1100): a limited request waits for no WAL flush', async () => {
    const db = createDb(process.env.DATABASE_URL!, 1);
    try {
      const { rows } = await db.raw<{ rows: { relpersistence: string }[] }>(
        "SELECT relpersistence FROM pg_class WHERE oid = 'rate_limit_counters'::regclass",
      );
      expect(rows[0]!.relpersistence).toBe('u');
    } finally {
      await db.destroy();
    }
  });
});

describe('auth endpoints', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({
      SERVICE_TRUST_PROXY: 'true',
      SERVICE_RATE_LIMIT_LOGIN_ACCOUNT: '3/2s',
      SERVICE_RATE_LIMIT_LOGIN_IP: '1000/1m',
      SERVICE_RATE_LIMIT_REFRESH_IP: '3/2s',
      SERVICE_RATE_LIMIT_REGISTER_IP: '2/3s',
      SERVICE_RATE_LIMIT_RESET_ACCOUNT: '2/3s',
    });
  });
  afterAll(() => api.close());

  const post = (path: string, body: unknown, ip: string) =>
    api.request('POST', path, { body, headers: { 'x-forwarded-for': ip } });

  test('refresh per IP: 429 RATE_LIMITED with Retry-After, then recovers', async () => {
    const ip = randomIp();
    const { res } = await untilLimited(() => post('/api/auth/refresh', { refreshToken: 'x' }, ip), 3);
    expect(res.body).toEqual({ error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^too many requests/), request_id: expect.any(String) } });
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);
    // Another IP is not affected (X-Forwarded-For is trusted because SERVICE_TRUST_PROXY is true).
    expect((await post('/api/auth/refresh', { refreshToken: 'x' }, randomIp())).status).toBe(401);
    await sleep(retryAfter * 1000 + 50);
    expect((await post('/api/auth/refresh', { refreshToken: 'x' }, ip)).status).toBe(401);
  });

  test('login per account, whichever IP the attempts come from', async () => {
    const email = `rl-${randomUUID().slice(0, 8)}@example.com`;
    const { res, statuses } = await untilLimited(
      () => post('/api/auth/login', { email, password: 'Wrong-Passw0rd!' }, randomIp()),
      3,
    );
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(res.body.error.code).toBe('RATE_LIMITED');
    expect(res.headers.get('retry-after')).toMatch(/^[12]$/);
  });

  test('register per IP', async () => {
    const ip = randomIp();
    const { res } = await untilLimited(
      () => post('/api/auth/register', { email: `rr-${randomUUID().slice(0, 8)}@example.com`, password: 'Corr3ct-Horse-Battery' }, ip),
      2,
    );
    expect(res.body.error.code).toBe('RATE_LIMITED');
  });

  test('password reset per account', async () => {
    const email = `rs-${randomUUID().slice(0, 8)}@example.com`;
    const { res, statuses } = await untilLimited(() => post('/api/auth/password-reset/request', { email }, randomIp()), 2);
    expect(statuses[0]).toBe(202);
    expect(res.body.error.code).toBe('RATE_LIMITED');
  });

  test('without SERVICE_TRUST_PROXY, X-Forwarded-For is ignored: every request counts for the socket address', async () => {
    // Only this instance counts refreshes for 127.0.0.1 (test instances switch per-IP limits off by default).
    const direct = await startApi({ SERVICE_RATE_LIMIT_REFRESH_IP: '3/2s' });
    try {
      const { res } = await untilLimited(
        () => direct.request('POST', '/api/auth/refresh', { body: { refreshToken: 'x' }, headers: { 'x-forwarded-for': randomIp() } }),
        3,
      );
      expect(res.body.error.code).toBe('RATE_LIMITED');
    } finally {
      await direct.close();
    }
  });
});
