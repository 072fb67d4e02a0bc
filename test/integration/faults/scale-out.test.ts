import { randomUUID } from 'node:crypto';
import { startApi, type TestApi } from '../../helpers/stack';

/**
 * Scale-out: two API instances (separate ports, connection pools and in-memory state) against the same
 * PostgreSQL, Temporal and MinIO. A token issued by one works on the other and is revoked on both; the login rate
 * limit is one budget across both instances.
 */

let a: TestApi;
let b: TestApi;

beforeAll(async () => {
  const overrides = { SERVICE_AUTH_BCRYPT_COST: '4', SERVICE_RATE_LIMIT_LOGIN_IP: '4/15m' };
  [a, b] = await Promise.all([startApi(overrides), startApi(overrides)]);
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

test('a token issued by one instance works on the other; reuse detection and logout on one revoke on both', async () => {
  const email = `scale-${randomUUID().slice(0, 12)}@example.com`;
  const password = `Sc4le!${randomUUID()}`;
  const reg = await a.request('POST', '/api/auth/register', { body: { email, password, name: 'Scale' } });
  expect(reg.status).toBe(201);
  const token = reg.body.tokens.accessToken as string;
  expect((await b.request('GET', '/api/auth/me', { token })).status).toBe(200);
  const refreshed = await b.request('POST', '/api/auth/refresh', { body: { refreshToken: reg.body.tokens.refreshToken } });
  expect(refreshed.status).toBe(200);
  const newToken = refreshed.body.accessToken as string;
  expect((await a.request('GET', '/api/auth/me', { token: newToken })).status).toBe(200);
  // Within the reuse grace, A answers the token spent on B with the same successor B issued.
  const again = await a.request('POST', '/api/auth/refresh', { body: { refreshToken: reg.body.tokens.refreshToken } });
  expect(again.body.refreshToken).toBe(refreshed.body.refreshToken);
  // Once that successor is spent on B too, the first token is two rotations old: presenting it on A is reuse, which
  // revokes the session on both instances.
  expect((await b.request('POST', '/api/auth/refresh', { body: { refreshToken: refreshed.body.refreshToken } })).status).toBe(200);
  expect((await a.request('POST', '/api/auth/refresh', { body: { refreshToken: reg.body.tokens.refreshToken } })).status).toBe(401);
  expect((await a.request('GET', '/api/auth/me', { token: newToken })).status).toBe(401);
  expect((await b.request('GET', '/api/auth/me', { token: newToken })).status).toBe(401);

  // Logout through A of a session opened through B.
  const other = await b.request('POST', '/api/auth/register', { body: { email: `scale-${randomUUID().slice(0, 12)}@example.com`, password, name: 'Scale 2' } });
  expect(other.status).toBe(201);
  const otherToken = other.body.tokens.accessToken as string;
  expect((await a.request('POST', '/api/auth/logout', { token: otherToken })).status).toBe(204);
  expect((await a.request('GET', '/api/auth/me', { token: otherToken })).status).toBe(401);
  expect((await b.request('GET', '/api/auth/me', { token: otherToken })).status).toBe(401);
});

test('the per-IP login limit is one budget across instances', async () => {
  const statuses: { instance: string; status: number }[] = [];
  for (let i = 0; i < 10; i += 1) {
    const api = i % 2 === 0 ? a : b;
    const res = await api.request('POST', '/api/auth/login', { body: { email: `nobody-${randomUUID()}@example.com`, password: 'Wrong-password-1!' } });
    statuses.push({ instance: i % 2 === 0 ? 'a' : 'b', status: res.status });
  }
  const admitted = statuses.filter((s) => s.status !== 429);
  expect(admitted.length).toBeLessThanOrEqual(4);
  expect(statuses.filter((s) => s.instance === 'a' && s.status === 429).length).toBeGreaterThan(0);
  expect(statuses.filter((s) => s.instance === 'b' && s.status === 429).length).toBeGreaterThan(0);
});
