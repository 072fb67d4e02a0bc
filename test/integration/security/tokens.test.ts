import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { startApiWithLogCapture, type LogCapture } from '../../helpers/logCapture';
import { createTestApiKey } from '../../helpers/organizations';
import { rsaKeyPair } from '../../helpers/rsaKey';
import type { TestApi } from '../../helpers/stack';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';

/**
 * Token attacks, black-box over HTTP against an API whose logs are captured: forged, tampered and misused tokens
 * are refused with 401 in the envelope, credentials in query strings are never accepted, and no token, API key or
 * password ever reaches the logs. Passwords: no 72-byte truncation login, a 10 kB password is a 4xx, no user
 * enumeration by status, body or timing, and the per-IP login limit holds against rotating X-Forwarded-For.
 *
 * The API runs with SERVICE_AUTH_BCRYPT_COST=4 so the timing comparison (unknown e-mail vs wrong password) takes a
 * few seconds; the property compared (the same work on both paths) does not depend on the cost.
 */

let api: TestApi;
let logs: LogCapture;
let tenant: TestTenant;
let secret: string;
let issuer: string;
const secrets: string[] = [];

beforeAll(async () => {
  ({ api, logs } = await startApiWithLogCapture({
    SERVICE_AUTH_BCRYPT_COST: '4',
    SERVICE_RATE_LIMIT_LOGIN_ACCOUNT: 'off',
  }));
  tenant = await createTestTenant(api);
  secret = api.config.jwt.secret;
  issuer = api.config.jwt.issuer;
  secrets.push(tenant.owner.token, tenant.owner.refreshToken);
});

afterAll(async () => {
  await api?.close();
});

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  return {
    email: tenant.owner.email,
    sid: tenant.owner.sessionId,
    organizationID: tenant.organizationId,
    typ: 'access',
    sub: tenant.owner.userId,
    iss: issuer,
    iat: now,
    exp: now + 600,
    jti: randomUUID(),
    ...overrides,
  };
}

function without(key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = claims();
  return rest;
}

function forgeries(): Record<string, string> {
  const { privateKey, publicKey } = rsaKeyPair();
  const jwk = publicKey.export({ format: 'jwk' });
  const [h, p, s] = tenant.owner.token.split('.') as [string, string, string];
  const tamperedPayload = b64({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), organizationID: randomUUID() });
  const now = Math.floor(Date.now() / 1000);
  return {
    'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`,
    'alg None': `${b64({ alg: 'None', typ: 'JWT' })}.${b64(claims())}.`,
    HS384: jwt.sign(claims(), secret, { algorithm: 'HS384' }),
    HS512: jwt.sign(claims(), secret, { algorithm: 'HS512' }),
    'RS256 own key': jwt.sign(claims(), privateKey, { algorithm: 'RS256' }),
    'RS256 with embedded jwk': jwt.sign(claims(), privateKey, { algorithm: 'RS256', header: { alg: 'RS256', jwk } as jwt.JwtHeader }),
    'RS256 with jku': jwt.sign(claims(), privateKey, { algorithm: 'RS256', header: { alg: 'RS256', jku: 'http://127.0.0.1:1/jwks.json' } as jwt.JwtHeader }),
    'kid path traversal, empty key': `${b64({ alg: 'HS256', kid: '../../../../dev/null' })}.${b64(claims())}.${s}`,
    'kid sql injection': jwt.sign(claims(), 'x', { algorithm: 'HS256', keyid: "' UNION SELECT 'x' --" }),
    'HS256 wrong secret': jwt.sign(claims(), 'not-the-secret', { algorithm: 'HS256' }),
    'HS256 with public key as secret': jwt.sign(claims(), publicKey.export({ format: 'pem', type: 'spki' }) as string, { algorithm: 'HS256', allowInsecureKeySizes: true } as jwt.SignOptions),
    'stripped signature': `${h}.${p}.`,
    'no signature segment': `${h}.${p}`,
    'tampered payload': `${h}.${tamperedPayload}.${s}`,
    'tampered signature': `${h}.${p}.${s.slice(0, -4)}AAAA`,
    'wrong iss': jwt.sign(claims({ iss: 'https://evil.example' }), secret, { algorithm: 'HS256' }),
    'no iss': jwt.sign(without('iss'), secret, { algorithm: 'HS256' }),
    expired: jwt.sign(claims({ iat: now - 7200, exp: now - 3600 }), secret, { algorithm: 'HS256' }),
    'no exp': jwt.sign(without('exp'), secret, { algorithm: 'HS256' }),
    'typ missing': jwt.sign(without('typ'), secret, { algorithm: 'HS256' }),
    'refresh token as access token': tenant.owner.refreshToken,
    'unknown session': jwt.sign(claims({ sid: randomUUID() }), secret, { algorithm: 'HS256' }),
    'unknown user': jwt.sign(claims({ sub: randomUUID() }), secret, { algorithm: 'HS256' }),
    garbage: 'a.b.c',
    empty: '',
  };
}

describe('forged and misused tokens', () => {
  test('every forgery is refused with 401 on a user route and an organization route', async () => {
    const forged = forgeries();
    const accepted: string[] = [];
    let cases = 0;
    for (const [name, token] of Object.entries(forged)) {
      secrets.push(token.split('.')[2] || token);
      for (const path of ['/api/auth/me', '/api/v1/workflows']) {
        const res = await api.request('GET', path, { headers: { authorization: `Bearer ${token}` } });
        cases += 1;
        if (res.status !== 401 || typeof res.body?.error?.code !== 'string') accepted.push(`${name} ${path} -> ${res.status} ${res.text.slice(0, 100)}`);
      }
    }
    expect(accepted).toEqual([]);
    // The genuine token still works, so the refusals above are about the forgeries.
    expect((await api.request('GET', '/api/auth/me', { token: tenant.owner.token })).status).toBe(200);
    console.info(`token attacks: ${cases} forged-token requests refused`);
  });

  test('an access token is not a refresh token', async () => {
    const res = await api.request('POST', '/api/auth/refresh', { body: { refreshToken: tenant.owner.token } });
    expect(res.status).toBe(401);
  });

  test('10 parallel refreshes of one refresh token yield exactly one successor, which all of them receive', async () => {
    const email = `par-${randomUUID().slice(0, 12)}@example.com`;
    const password = `Pa7!${randomUUID()}`;
    const reg = await api.request('POST', '/api/auth/register', { body: { email, password, name: 'Par' } });
    expect(reg.status).toBe(201);
    secrets.push(password, reg.body.tokens.accessToken, reg.body.tokens.refreshToken);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api.request('POST', '/api/auth/refresh', { body: { refreshToken: reg.body.tokens.refreshToken } })),
    );
    // Within the default reuse grace every racing request is answered with the one successor the rotation issued
    // (a grace of 0s is strict: one 200, the rest revoke; auth.test.ts proves both).
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const successors = new Set(answers.map((a) => a.body.refreshToken as string));
    expect(successors.size).toBe(1);
    secrets.push(...successors, ...answers.map((a) => a.body.accessToken as string));
  });

  test('tokens and API keys in query strings are never accepted as credentials', async () => {
    const key = await createTestApiKey(api, tenant.organizationId, tenant.owner.token, 'admin');
    secrets.push(key.key);
    const refused: number[] = [];
    for (const name of ['access_token', 'token', 'jwt', 'authorization', 'api_key', 'apiKey', 'key']) {
      for (const value of [tenant.owner.token, key.key]) {
        const res = await api.request('GET', `/api/v1/workflows?${name}=${encodeURIComponent(value)}`);
        refused.push(res.status);
        const me = await api.request('GET', `/api/auth/me?${name}=${encodeURIComponent(value)}`);
        refused.push(me.status);
      }
    }
    expect(new Set(refused)).toEqual(new Set([401]));
    // The key works where it belongs.
    expect((await api.request('GET', '/api/v1/workflows', { headers: { authorization: `Bearer ${key.key}` } })).status).toBe(200);
  });
});

describe('passwords', () => {
  async function registerUser(password: string): Promise<string> {
    const email = `pw-${randomUUID().slice(0, 12)}@example.com`;
    const res = await api.request('POST', '/api/auth/register', { body: { email, password, name: 'Pw' } });
    if (res.status !== 201) throw new Error(`register: ${res.status} ${res.text}`);
    secrets.push(password, res.body.tokens.accessToken, res.body.tokens.refreshToken);
    return email;
  }

  test("bcrypt's 72-byte truncation cannot be used to log in with another password", async () => {
    const password = `Zq7!${randomUUID().replace(/-/g, '')}${randomUUID().replace(/-/g, '')}`.slice(0, 72);
    const email = await registerUser(password);
    expect((await api.request('POST', '/api/auth/login', { body: { email, password } })).status).toBe(200);
    const longer = await api.request('POST', '/api/auth/login', { body: { email, password: `${password}different-tail` } });
    expect(longer.status).toBe(401);
  });

  test('a 10 kB password is a 4xx in the envelope', async () => {
    const email = await registerUser(`Kx9#${randomUUID()}`);
    const res = await api.request('POST', '/api/auth/login', { body: { email, password: 'p'.repeat(10_240) } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(typeof res.body.error.code).toBe('string');
    const reg = await api.request('POST', '/api/auth/register', { body: { email: `big-${randomUUID()}@example.com`, password: 'p'.repeat(10_240), name: 'x' } });
    expect(reg.status).toBe(400);
  });

  test('no user enumeration by status, body or timing (median difference under 10 ms)', async () => {
    const password = `Tm4$${randomUUID()}`;
    const email = await registerUser(password);
    const headers = { 'x-request-id': 'enumeration-check' }; // the one part of the answers that would differ
    const unknown = await api.request('POST', '/api/auth/login', { body: { email: `nobody-${randomUUID()}@example.com`, password: 'Wrong-password-1!' }, headers });
    const wrong = await api.request('POST', '/api/auth/login', { body: { email, password: 'Wrong-password-1!' }, headers });
    expect(unknown.status).toBe(wrong.status);
    expect(unknown.body).toEqual(wrong.body);

    const tries = 100;
    const unknownMs: number[] = [];
    const wrongMs: number[] = [];
    for (let i = 0; i < tries; i += 1) {
      // Interleaved, so load changes on the machine hit both series alike.
      for (const [target, series] of [
        [`nobody-${i}-${randomUUID().slice(0, 6)}@example.com`, unknownMs],
        [email, wrongMs],
      ] as const) {
        const t0 = process.hrtime.bigint();
        await api.request('POST', '/api/auth/login', { body: { email: target, password: `Wrong-password-${i}!` } });
        series.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const difference = Math.abs(median(unknownMs) - median(wrongMs));
    console.info(`login timing: unknown e-mail median ${median(unknownMs).toFixed(2)} ms, wrong password ${median(wrongMs).toFixed(2)} ms`);
    expect(difference).toBeLessThan(10);
  });
});

test('the per-IP login limit holds against rotating X-Forwarded-For when proxies are not trusted', async () => {
  const { api: limited, logs: limitedLogs } = await startApiWithLogCapture({ SERVICE_RATE_LIMIT_LOGIN_IP: '5/15m', SERVICE_TRUST_PROXY: 'false' });
  try {
    // The limiter's counters live in the shared database, keyed by IP: start from a clean count for loopback.
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      const res = await limited.request('POST', '/api/auth/login', {
        body: { email: `spray-${i}-${randomUUID().slice(0, 6)}@example.com`, password: 'Wrong-password-1!' },
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toContain(429);
    expect(statuses.slice(-3)).toEqual([429, 429, 429]);
    expect(limitedLogs.text).not.toContain('Wrong-password-1!');
  } finally {
    await limited.close();
  }
});

// Proxies are not trusted here, so every attempt comes from one source: the per-(account, IP) limit holds for the
// right password too. The owner signing in from elsewhere is not refused (security/login-lockout.test.ts).
test('the per-account login limit holds against rotating X-Forwarded-For, even for the right password', async () => {
  const { api: limited } = await startApiWithLogCapture({
    SERVICE_AUTH_BCRYPT_COST: '4',
    SERVICE_RATE_LIMIT_LOGIN_ACCOUNT: '3/15m',
    SERVICE_RATE_LIMIT_LOGIN_ACCOUNT_IP: '3/15m',
  });
  try {
    const email = `acct-${randomUUID().slice(0, 12)}@example.com`;
    const password = `Ac9!${randomUUID()}`;
    expect((await limited.request('POST', '/api/auth/register', { body: { email, password, name: 'Acct' } })).status).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const res = await limited.request('POST', '/api/auth/login', {
        body: { email, password: `Wrong-password-${i}!` },
        headers: { 'x-forwarded-for': `198.51.100.${i + 1}` },
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(-3)).toEqual([429, 429, 429]);
    const right = await limited.request('POST', '/api/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': '198.51.100.99' } });
    expect(right.status).toBe(429);
  } finally {
    await limited.close();
  }
});

test('no token, API key or password reached the logs', () => {
  const text = logs.text;
  expect(text.length).toBeGreaterThan(1000); // the capture did see the traffic
  const leaked = secrets.filter((s) => s.length >= 12 && text.includes(s)).map((s) => s.slice(0, 16));
  expect(leaked).toEqual([]);
});
