import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { runAdmin } from '../../scripts/admin-cli';
import { waitForMail } from '../helpers/mail';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant } from '../helpers/tenants';

/**
 * The auth contract end to end (real PostgreSQL, real SMTP catcher). bcrypt costs ~65 ms per hash here, so users
 * are shared between tests where a test does not change them.
 */

const PASSWORD = 'Corr3ct-Horse-Battery';
let api: TestApi;

const newEmail = (tag = 'u'): string => `${tag}-${randomUUID().slice(0, 8)}@example.com`;

interface Registered {
  email: string;
  password: string;
  userId: string;
  accessToken: string;
  refreshToken: string;
}

async function register(email = newEmail(), password = PASSWORD): Promise<Registered> {
  const res = await api.request('POST', '/api/auth/register', { body: { email, password, name: 'Ada' } });
  expect(res.status).toBe(201);
  return {
    email: res.body.user.email,
    password,
    userId: res.body.user.id,
    accessToken: res.body.tokens.accessToken,
    refreshToken: res.body.tokens.refreshToken,
  };
}

async function login(email: string, password = PASSWORD, headers: Record<string, string> = {}) {
  return api.request('POST', '/api/auth/login', { body: { email, password }, headers });
}

const me = (token: string) => api.request('GET', '/api/auth/me', { token });
const refresh = (refreshToken: string, on: TestApi = api) =>
  on.request('POST', '/api/auth/refresh', { body: { refreshToken } });
const errorOf = (code: string, message: string, details?: unknown[]) => ({
  error: { code, message, ...(details ? { details } : {}), request_id: expect.any(String) },
});
/** The spec's message for an expired token, with the detail that tells the client what to do. */
const expiredToken = () =>
  errorOf('TOKEN_EXPIRED', 'invalid token', [{ path: 'authorization', problem: expect.stringContaining('POST /api/auth/refresh') }]);

let shared: Registered;

beforeAll(async () => {
  // The shared user logs in more often than the default per-account limit allows; limits have their own tests.
  api = await startApi({ SERVICE_RATE_LIMIT_LOGIN_ACCOUNT: '1000/1m' });
  shared = await register(newEmail('shared'));
});

afterAll(async () => {
  await api.close();
});

describe('register', () => {
  test('201 with the spec layout; e-mail trimmed and lower-cased', async () => {
    const res = await api.request('POST', '/api/auth/register', {
      body: { email: `  Mixed-${randomUUID().slice(0, 6)}@Example.COM `, password: PASSWORD, name: 'Grace' },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['tokens', 'user']);
    expect(Object.keys(res.body.user).sort()).toEqual(['email', 'id', 'name']);
    expect(res.body.user.email).toMatch(/^mixed-[0-9a-f]{6}@example\.com$/);
    expect(res.body.user.name).toBe('Grace');
    expect(res.body.user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(res.body.tokens).sort()).toEqual(['accessToken', 'expiresIn', 'refreshToken']);
    expect(res.body.tokens.expiresIn).toBe(900);
  });

  test('a duplicate e-mail (any case) is USER_EXISTS 409', async () => {
    const res = await api.request('POST', '/api/auth/register', {
      body: { email: shared.email.toUpperCase(), password: PASSWORD },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual(errorOf('USER_EXISTS', 'e-mail already registered'));
  });

  test('a weak password names every rule it breaks', async () => {
    const res = await api.request('POST', '/api/auth/register', { body: { email: newEmail(), password: 'abc' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('WEAK_PASSWORD');
    const rules = res.body.error.details.map((d: { problem: string }) => d.problem.split(':')[0]);
    expect(rules).toEqual(['minLength', 'uppercase', 'number', 'symbol']);
    expect(res.body.error.details[0].path).toBe('body.password');
  });

  test('a common password is refused even when it has every character class', async () => {
    for (const password of ['Password123!', 'P@ssw0rd!', 'Sunshine2024!']) {
      const res = await api.request('POST', '/api/auth/register', { body: { email: newEmail(), password } });
      expect(res.status).toBe(400);
      expect(res.body.error.details.map((d: { problem: string }) => d.problem.split(':')[0])).toEqual(['common']);
    }
  });

  test('more than 72 bytes is refused with a clear 400, a 10 kB password too (before bcrypt)', async () => {
    const long = await api.request('POST', '/api/auth/register', {
      body: { email: newEmail(), password: `Aa1!${'x'.repeat(69)}` },
    });
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('WEAK_PASSWORD');
    expect(long.body.error.details[0].problem).toMatch(/^maxBytes: at most 72 bytes/);
    // Multi-byte characters count as bytes: 19 x 4-byte emoji = 76 bytes, 19 characters.
    const emoji = await api.request('POST', '/api/auth/register', {
      body: { email: newEmail(), password: `A1!${'😀'.repeat(18)}` },
    });
    expect(emoji.body.error.details[0].problem).toMatch(/^maxBytes/);
    const huge = await api.request('POST', '/api/auth/register', {
      body: { email: newEmail(), password: 'A1!'.repeat(3500) },
    });
    expect(huge.status).toBe(400);
    expect(['VALIDATION_ERROR', 'WEAK_PASSWORD']).toContain(huge.body.error.code);
  });

  test('e-mail and name are at most 255 characters; unknown fields are refused', async () => {
    const longEmail = `${'a'.repeat(250)}@example.com`;
    const bad = [
      { email: longEmail, password: PASSWORD },
      { email: newEmail(), password: PASSWORD, name: 'n'.repeat(256) },
      { email: 'not-an-email', password: PASSWORD },
      { email: newEmail(), password: PASSWORD, role: 'admin' },
      { password: PASSWORD },
    ];
    for (const body of bad) {
      const res = await api.request('POST', '/api/auth/register', { body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.length).toBeGreaterThan(0);
    }
  });

  test('registration sends a verification e-mail whose code verifies the address once', async () => {
    const user = await register(newEmail('verify'));
    const mail = await waitForMail(user.email, /Confirm your e-mail/);
    const token = /Verification code: (\S+)/.exec(mail.text ?? '')![1]!;
    expect((await me(user.accessToken)).body.user.email_verified).toBe(false);
    const ok = await api.request('POST', '/api/auth/email-verification/confirm', { body: { token } });
    expect(ok.status).toBe(200);
    expect(ok.body.user.email_verified).toBe(true);
    const again = await api.request('POST', '/api/auth/email-verification/confirm', { body: { token } });
    expect(again.status).toBe(401);
    expect(again.body).toEqual(errorOf('INVALID_TOKEN', 'invalid or expired verification token'));
    const resend = await api.request('POST', '/api/auth/email-verification/send', { token: user.accessToken });
    expect(resend.status).toBe(409);
    expect(resend.body.error.code).toBe('INVALID_STATE');
  });
});

describe('login', () => {
  test('200 with the same layout as register; the access token carries the spec claims', async () => {
    const res = await login(shared.email);
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({ id: shared.userId, email: shared.email, name: 'Ada' });
    expect(res.body.tokens.expiresIn).toBe(900);
    const decoded = jwt.decode(res.body.tokens.accessToken, { complete: true })!;
    expect(decoded.header.alg).toBe('HS256');
    const claims = decoded.payload as jwt.JwtPayload;
    expect(claims).toMatchObject({ sub: shared.userId, email: shared.email, iss: 'loom', organizationID: null, typ: 'access' });
    expect(claims.exp! - claims.iat!).toBe(900);
    expect(typeof claims.sid).toBe('string');
    const refreshClaims = jwt.decode(res.body.tokens.refreshToken) as jwt.JwtPayload;
    expect(refreshClaims).toMatchObject({ sub: shared.userId, sid: claims.sid, typ: 'refresh' });
    expect(refreshClaims.exp! - refreshClaims.iat!).toBeGreaterThanOrEqual(7 * 86400 - 2);
  });

  test('wrong password and unknown e-mail give the identical answer', async () => {
    // The same request id on both, so the answers can be compared byte for byte.
    const sameId = { 'x-request-id': 'login-enumeration-check' };
    const wrong = await login(shared.email, 'Wrong-Passw0rd!', sameId);
    const unknown = await login(newEmail('nobody'), 'Wrong-Passw0rd!', sameId);
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.text).toBe(unknown.text);
    expect(wrong.body).toEqual(errorOf('INVALID_CREDENTIALS', 'invalid e-mail or password'));
  });

  test('the e-mail is matched case-insensitively', async () => {
    expect((await login(`  ${shared.email.toUpperCase()}`)).status).toBe(200);
  });

  test("bcrypt's 72-byte truncation cannot be used to log in with a different password", async () => {
    const exactly72 = `Zq9!${'k'.repeat(68)}`;
    expect(Buffer.byteLength(exactly72)).toBe(72);
    const user = await register(newEmail('long'), exactly72);
    expect((await login(user.email, exactly72)).status).toBe(200);
    const extended = await login(user.email, `${exactly72}anything-after-byte-72`);
    expect(extended.status).toBe(401);
    expect(extended.body.error.code).toBe('INVALID_CREDENTIALS');
  });

  test('the plain password is stored nowhere, only a bcrypt hash of cost 10', async () => {
    const row = await api.deps.db('users').where({ id: shared.userId }).first();
    expect(row.password_hash).toMatch(/^\$2[aby]\$10\$/);
    expect(JSON.stringify(row)).not.toContain(PASSWORD);
    const sessions = await api.deps.db('sessions').where({ user_id: shared.userId });
    for (const s of sessions) expect(s.token).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('protected endpoints: the spec checks, in order, with its exact messages', () => {
  const secret = () => api.config.jwt.secret;
  const claimsOf = (token: string) => jwt.decode(token) as jwt.JwtPayload;

  test('missing header, wrong format, bad token', async () => {
    const missing = await api.request('GET', '/api/auth/me');
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual(errorOf('UNAUTHORIZED', 'missing authorization'));
    for (const header of ['Token abc', 'Bearer', 'Bearer a b', 'bearer abc', `Basic ${shared.accessToken}`, 'Bearer  x']) {
      const res = await api.request('GET', '/api/auth/me', { headers: { authorization: header } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(errorOf('UNAUTHORIZED', 'invalid authorization format'));
    }
    const garbage = await me('not.a.jwt');
    expect(garbage.status).toBe(401);
    expect(garbage.body).toEqual(errorOf('INVALID_TOKEN', 'invalid token'));
  });

  test('alg none, a wrong secret, HS512 and a wrong issuer are refused', async () => {
    const { iat: _iat, exp: _exp, ...claims } = claimsOf(shared.accessToken);
    const forged = [
      jwt.sign(claims, null, { algorithm: 'none', expiresIn: 900 }),
      jwt.sign(claims, 'another-secret-that-is-long-enough-0123456789', { algorithm: 'HS256', expiresIn: 900 }),
      jwt.sign(claims, secret(), { algorithm: 'HS512', expiresIn: 900 }),
      jwt.sign({ ...claims, iss: 'someone-else' }, secret(), { algorithm: 'HS256', expiresIn: 900 }),
    ];
    for (const token of forged) {
      const res = await me(token);
      expect(res.status).toBe(401);
      expect(res.body).toEqual(errorOf('INVALID_TOKEN', 'invalid token'));
    }
    // The same claims signed correctly work: the refusals above are about the signature, not the claims.
    expect((await me(jwt.sign(claims, secret(), { algorithm: 'HS256', expiresIn: 900 }))).status).toBe(200);
  });

  test('an expired access token is TOKEN_EXPIRED with the message "invalid token"', async () => {
    const { iat: _iat, exp: _exp, ...claims } = claimsOf(shared.accessToken);
    const expired = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 5 }, secret(), { algorithm: 'HS256' });
    const res = await me(expired);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(expiredToken());
    expect(res.headers.get('www-authenticate')).toContain('error_description="the access token expired"');
  });

  test('a token that worked stops working at its exp (verified tokens are remembered, their expiry is not)', async () => {
    const { iat: _iat, exp: _exp, ...claims } = claimsOf(shared.accessToken);
    // exp is whole seconds: at least one full second of validity, whatever the current millisecond.
    const exp = Math.floor(Date.now() / 1000) + 2;
    const shortLived = jwt.sign({ ...claims, exp }, secret(), { algorithm: 'HS256' });
    expect((await me(shortLived)).status).toBe(200);
    expect((await me(shortLived)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, exp * 1000 - Date.now() + 50));
    const res = await me(shortLived);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(expiredToken());
    expect(res.headers.get('www-authenticate')).toContain('error_description="the access token expired"');
  });

  test('a refresh token is not an access token, and an access token is not a refresh token', async () => {
    const asAccess = await me(shared.refreshToken);
    expect(asAccess.status).toBe(401);
    expect(asAccess.body).toEqual(errorOf('INVALID_TOKEN', 'invalid token'));
    const asRefresh = await refresh(shared.accessToken);
    expect(asRefresh.status).toBe(401);
    expect(asRefresh.body).toEqual(errorOf('INVALID_TOKEN', 'invalid token'));
  });

  test('/api/v1 routes use the same checks', async () => {
    const routes = api.app.routes.filter((r) => r.auth !== 'public' && r.path.startsWith('/api/v1'));
    if (routes.length === 0) return; // no /api/v1 route mounted yet in this tree
    const route = routes.find((r) => r.method === 'get' && !r.path.includes('{')) ?? routes[0]!;
    const path = route.path.replace(/\{\w+\}/g, randomUUID());
    const res = await api.request(route.method.toUpperCase(), path);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(errorOf('UNAUTHORIZED', 'missing authorization'));
  });
});

describe('refresh', () => {
  test('rotates: a new pair; the spent token gets the same successor within the grace, and revokes the session after it', async () => {
    const session = (await login(shared.email)).body.tokens;
    const first = await refresh(session.refreshToken);
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['accessToken', 'expiresIn', 'refreshToken']);
    expect(first.body.refreshToken).not.toBe(session.refreshToken);
    expect((await me(first.body.accessToken)).status).toBe(200);

    // Within SERVICE_AUTH_REFRESH_REUSE_GRACE (default 10s) the spent token is answered with the same successor.
    const racing = await refresh(session.refreshToken);
    expect(racing.status).toBe(200);
    expect(racing.body.refreshToken).toBe(first.body.refreshToken);
    expect((await me(racing.body.accessToken)).status).toBe(200);

    // After the grace (the rotation moved an hour back rather than waiting) the same presentation is reuse.
    const { sid } = jwt.decode(first.body.refreshToken) as jwt.JwtPayload;
    await api.deps.db('sessions').where({ id: sid }).update({ rotated_at: api.deps.db.raw("rotated_at - interval '1 hour'") });
    const reuse = await refresh(session.refreshToken);
    expect(reuse.status).toBe(401);
    expect(reuse.body).toEqual(errorOf('INVALID_TOKEN', 'refresh token reuse detected; session revoked'));
    // The whole session is gone: the legitimate successor tokens stop working too, and say why.
    const reused = errorOf('SESSION_EXPIRED', 'signed out: a refresh token of this session was used twice, so the session was ended; sign in again');
    expect((await me(first.body.accessToken)).body).toEqual(reused);
    expect((await refresh(first.body.refreshToken)).body).toEqual(reused);
  });

  test('a token two rotations old also revokes the session', async () => {
    const t0 = (await login(shared.email)).body.tokens;
    const t1 = (await refresh(t0.refreshToken)).body;
    const t2 = (await refresh(t1.refreshToken)).body;
    expect((await me(t2.accessToken)).status).toBe(200);
    expect((await refresh(t0.refreshToken)).status).toBe(401);
    expect((await me(t2.accessToken)).body.error.code).toBe('SESSION_EXPIRED');
  });

  test('default grace: 10 parallel refreshes of one token all get the same one successor, and the session survives', async () => {
    const t0 = (await login(shared.email)).body.tokens;
    const results = await Promise.all(Array.from({ length: 10 }, () => refresh(t0.refreshToken)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const successors = new Set(results.map((r) => r.body.refreshToken as string));
    expect(successors.size).toBe(1);
    const [successor] = [...successors];
    expect(successor).not.toBe(t0.refreshToken);
    for (const r of results) expect((await me(r.body.accessToken)).status).toBe(200);
    // Reuse detection is kept: the successor rotates, and then t0 (two rotations old) revokes the session.
    const next = await refresh(successor!);
    expect(next.status).toBe(200);
    expect(next.body.refreshToken).not.toBe(successor);
    expect((await refresh(t0.refreshToken)).body).toEqual(errorOf('INVALID_TOKEN', 'refresh token reuse detected; session revoked'));
    expect((await me(next.body.accessToken)).body.error.code).toBe('SESSION_EXPIRED');
  });

  test('a grace of 0s is strict: of 10 parallel refreshes one wins and the race revokes the session', async () => {
    const strict = await startApi({ SERVICE_AUTH_REFRESH_REUSE_GRACE: '0s' });
    try {
      const t0 = (await login(shared.email)).body.tokens;
      const results = await Promise.all(Array.from({ length: 10 }, () => refresh(t0.refreshToken, strict)));
      const ok = results.filter((r) => r.status === 200);
      expect(ok).toHaveLength(1);
      // The first loser is a reuse of a spent token and revokes the session; later losers find it gone.
      for (const r of results.filter((x) => x.status !== 200)) {
        expect(r.status).toBe(401);
        expect(['INVALID_TOKEN', 'SESSION_EXPIRED']).toContain(r.body.error.code);
      }
      expect((await me(ok[0]!.body.accessToken)).body.error.code).toBe('SESSION_EXPIRED');
    } finally {
      await strict.close();
    }
  });

  test('within the grace, the token an organization switch replaced is refused without revoking the session', async () => {
    const user = await register(newEmail('switch'));
    const tenant = await createTestTenant(api);
    await api.deps.db('memberships').insert({ organization_id: tenant.organizationId, user_id: user.userId, role: 'viewer' });
    const switched = await api.request('POST', '/api/auth/switch-organization', { token: user.accessToken, body: { organizationID: tenant.organizationId } });
    expect(switched.status).toBe(200);
    const stale = await refresh(user.refreshToken);
    expect(stale.body).toEqual(errorOf('INVALID_TOKEN', 'refresh token already used'));
    expect((await refresh(switched.body.refreshToken)).status).toBe(200);
  });

  test('garbage and forged refresh tokens are INVALID_TOKEN', async () => {
    expect((await refresh('nope')).body).toEqual(errorOf('INVALID_TOKEN', 'invalid token'));
    const { iat: _iat, exp: _exp, ...claims } = jwt.decode(shared.refreshToken) as jwt.JwtPayload;
    const forged = jwt.sign(claims, 'another-secret-that-is-long-enough-0123456789', { expiresIn: 60 });
    expect((await refresh(forged)).body).toEqual(errorOf('INVALID_TOKEN', 'invalid token'));
  });
});

describe('sessions', () => {
  test('logout kills both tokens at once; they say the session was signed out, not that it expired', async () => {
    const t = (await login(shared.email)).body.tokens;
    const out = await api.request('POST', '/api/auth/logout', { token: t.accessToken });
    expect(out.status).toBe(204);
    const signedOut = errorOf('SESSION_EXPIRED', 'signed out: this session was ended by logout; sign in again');
    const res = await me(t.accessToken);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(signedOut);
    expect((await refresh(t.refreshToken)).body).toEqual(signedOut);
    // The reason is kept while the session's tokens could be presented, and no longer.
    const { sid } = jwt.decode(t.accessToken) as jwt.JwtPayload;
    expect(await api.deps.db('ended_sessions').where({ id: sid }).first()).toMatchObject({ reason: 'logout' });
  });

  test('a session that ran out still says "session expired"', async () => {
    const t = (await login(shared.email)).body.tokens;
    const { sid } = jwt.decode(t.accessToken) as jwt.JwtPayload;
    await api.deps.db('sessions').where({ id: sid }).update({ expires_at: new Date(Date.now() - 1000) });
    expect((await me(t.accessToken)).body).toEqual(errorOf('SESSION_EXPIRED', 'session expired'));
    // pruned as dead, it is not "signed out" either
    expect(await runAdmin(['prune-auth'], { out: () => undefined, err: () => undefined, db: api.deps.db })).toBe(0);
    expect((await me(t.accessToken)).body).toEqual(errorOf('SESSION_EXPIRED', 'session expired'));
  });

  test('the 6th login evicts the oldest session; GET /sessions lists the 5 live ones', async () => {
    const user = await register(newEmail('max'));
    const tokens = [user.accessToken];
    for (let i = 0; i < 5; i++) {
      tokens.push((await login(user.email, PASSWORD, { 'user-agent': `device-${i}` })).body.tokens.accessToken);
    }
    expect((await me(tokens[0]!)).body).toEqual(
      errorOf('SESSION_EXPIRED', 'signed out: the account signed in on more devices than it may keep sessions for, and this was the oldest; sign in again'),
    );
    for (const token of tokens.slice(1)) expect((await me(token)).status).toBe(200);

    const list = await api.request('GET', '/api/auth/sessions', { token: tokens[5] });
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(5);
    expect(list.body.data[0]).toMatchObject({ current: true, user_agent: 'device-4', ip_address: expect.any(String) });
    expect(list.body.data.filter((s: { current: boolean }) => s.current)).toHaveLength(1);
    for (const s of list.body.data) {
      expect(Object.keys(s).sort()).toEqual(
        ['active_organization_id', 'created_at', 'current', 'expires_at', 'id', 'ip_address', 'last_used_at', 'user_agent'],
      );
    }

    // DELETE /sessions/{id}: ends that session only; someone else's id is a 404.
    const victim = list.body.data[1];
    expect((await api.request('DELETE', `/api/auth/sessions/${victim.id}`, { token: tokens[5] })).status).toBe(204);
    expect((await me(tokens[4]!)).body).toEqual(errorOf('SESSION_EXPIRED', "signed out: this session was revoked from the account's session list; sign in again"));
    expect((await me(tokens[5]!)).status).toBe(200);
    const foreign = await api.request('DELETE', `/api/auth/sessions/${list.body.data[2].id}`, { token: shared.accessToken });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
  });

  test('12 logins of one user at once leave exactly the 5 newest sessions, with the first organization active', async () => {
    const user = await register(newEmail('parallel'));
    const org = await api.request('POST', '/api/v1/organizations', { token: user.accessToken, body: { name: `Par ${Date.now()}` } });
    expect(org.status).toBe(201);
    const logins = await Promise.all(Array.from({ length: 12 }, () => login(user.email)));
    for (const res of logins) expect(res.status).toBe(200);
    const live = await api.deps.db('sessions').where({ user_id: user.userId }).orderBy('created_at', 'desc');
    expect(live).toHaveLength(5);
    for (const row of live) expect(row.active_organization_id).toBe(org.body.id);
    const working = await Promise.all(logins.map(async (res) => (await me(res.body.tokens.accessToken)).status === 200));
    expect(working.filter(Boolean)).toHaveLength(5);
  });

  test('an operator revokes every session of a user with the admin CLI', async () => {
    const t = (await login(shared.email)).body.tokens;
    const out: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l), db: api.deps.db };
    expect(await runAdmin(['revoke-sessions', shared.email.toUpperCase()], io)).toBe(0);
    expect(out.at(-1)).toMatch(/^admin: revoked \d+ session\(s\) of /);
    expect((await me(t.accessToken)).body).toEqual(errorOf('SESSION_EXPIRED', "signed out: an operator ended the account's sessions; sign in again"));
    expect((await me(shared.accessToken)).body.error.code).toBe('SESSION_EXPIRED');
    expect(await runAdmin(['revoke-sessions'], io)).toBe(2);
    expect(out.at(-1)).toBe('admin: usage: npm run admin -- revoke-sessions <email>');
    expect(await runAdmin(['revoke-sessions', 'nobody@example.com'], io)).toBe(1);
    expect(await runAdmin(['bogus'], io)).toBe(2);
    expect(out.at(-1)).toMatch(/^admin: unknown command "bogus"/);

    // Retention: dead sessions and spent codes go, live sessions stay.
    const doomed = (jwt.decode((await login(shared.email)).body.tokens.accessToken) as jwt.JwtPayload).sid as string;
    const live = (await login(shared.email)).body.tokens;
    const dead = { id: doomed };
    await api.deps.db('sessions').where({ id: dead.id }).update({ expires_at: new Date(Date.now() - 1000) });
    expect(await runAdmin(['prune-auth'], io)).toBe(0);
    expect(out.at(-1)).toMatch(/^admin: deleted \d+ dead session\(s\) and \d+ spent or expired code\(s\)$/);
    expect(await api.deps.db('sessions').where({ id: dead.id })).toHaveLength(0);
    expect((await me(live.accessToken)).status).toBe(200);
    shared = { ...shared, ...(await login(shared.email)).body.tokens };
  });
});

describe('profile and organizations', () => {
  test('GET /me and PUT /profile (name, http(s) image)', async () => {
    const before = await me(shared.accessToken);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      user: { id: shared.userId, email: shared.email, name: 'Ada', image: null, email_verified: false },
      organizationID: null,
    });
    const put = await api.request('PUT', '/api/auth/profile', {
      token: shared.accessToken,
      body: { name: 'Ada L.', image: 'https://example.com/ada.png' },
    });
    expect(put.status).toBe(200);
    expect(put.body.user).toMatchObject({ name: 'Ada L.', image: 'https://example.com/ada.png' });
    for (const image of ['javascript:alert(1)', 'ftp://example.com/a.png', 'not a url']) {
      const bad = await api.request('PUT', '/api/auth/profile', { token: shared.accessToken, body: { image } });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    }
    const cleared = await api.request('PUT', '/api/auth/profile', { token: shared.accessToken, body: { image: null, name: 'Ada' } });
    expect(cleared.body.user).toMatchObject({ name: 'Ada', image: null });
  });

  test('switch-organization: FORBIDDEN for a non-member, a new pair carrying the organization for a member', async () => {
    const tenant = await createTestTenant(api);
    const notMember = await api.request('POST', '/api/auth/switch-organization', {
      token: shared.accessToken,
      body: { organizationID: tenant.organizationId },
    });
    expect(notMember.status).toBe(403);
    expect(notMember.body).toEqual(errorOf('FORBIDDEN', 'not a member of this organization'));

    await api.deps.db('memberships').insert({ organization_id: tenant.organizationId, user_id: shared.userId, role: 'viewer' });
    const t = (await login(shared.email)).body.tokens;
    const switched = await api.request('POST', '/api/auth/switch-organization', {
      token: t.accessToken,
      body: { organizationID: tenant.organizationId },
    });
    expect(switched.status).toBe(200);
    expect(switched.body.organizationID).toBe(tenant.organizationId);
    expect((jwt.decode(switched.body.accessToken) as jwt.JwtPayload).organizationID).toBe(tenant.organizationId);
    expect((await me(switched.body.accessToken)).body.organizationID).toBe(tenant.organizationId);
    // The old access token of the same session now also acts in the new organization (the session decides).
    expect((await me(t.accessToken)).body.organizationID).toBe(tenant.organizationId);
    const refreshed = await refresh(switched.body.refreshToken);
    expect((jwt.decode(refreshed.body.accessToken) as jwt.JwtPayload).organizationID).toBe(tenant.organizationId);
    // A login of a member starts in the user's first organization.
    const fresh = (await login(shared.email)).body.tokens;
    expect((jwt.decode(fresh.accessToken) as jwt.JwtPayload).organizationID).toBe(tenant.organizationId);
  });
});

describe('passwords', () => {
  test('change: needs the current password, ends every session, returns a fresh pair', async () => {
    const user = await register(newEmail('change'));
    const other = (await login(user.email)).body.tokens;
    const wrong = await api.request('POST', '/api/auth/password', {
      token: user.accessToken,
      body: { currentPassword: 'Not-The-Passw0rd', newPassword: 'Another-Str0ng-One' },
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual(errorOf('INVALID_CREDENTIALS', 'current password is wrong'));
    const weak = await api.request('POST', '/api/auth/password', {
      token: user.accessToken,
      body: { currentPassword: PASSWORD, newPassword: 'weakling' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.error.code).toBe('WEAK_PASSWORD');
    expect(weak.body.error.details[0].path).toBe('body.newPassword');

    const changed = await api.request('POST', '/api/auth/password', {
      token: user.accessToken,
      body: { currentPassword: PASSWORD, newPassword: 'Another-Str0ng-One' },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.expiresIn).toBe(900);
    for (const token of [user.accessToken, other.accessToken]) {
      expect((await me(token)).body).toEqual(
        errorOf('SESSION_EXPIRED', "signed out: the account's password was changed, which ends every session; sign in again"),
      );
    }
    expect((await refresh(other.refreshToken)).status).toBe(401);
    expect((await me(changed.body.accessToken)).status).toBe(200);
    expect((await login(user.email, PASSWORD)).status).toBe(401);
    expect((await login(user.email, 'Another-Str0ng-One')).status).toBe(200);
  });

  test('reset: same answer for unknown e-mail; the code works once, ends all sessions, newer codes replace older', async () => {
    const user = await register(newEmail('reset'));
    const unknown = await api.request('POST', '/api/auth/password-reset/request', { body: { email: newEmail('ghost') } });
    const known = await api.request('POST', '/api/auth/password-reset/request', { body: { email: user.email } });
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(known.text).toBe(unknown.text);

    const firstMail = await waitForMail(user.email, /Reset your Loom password/);
    const firstCode = /Reset code: (\S+)/.exec(firstMail.text ?? '')![1]!;
    expect(await api.deps.db('auth_tokens').where({ token_hash: firstCode })).toHaveLength(0); // stored hashed only

    await fetch(`http://127.0.0.1:8025/api/messages?to=${encodeURIComponent(user.email)}`, { method: 'DELETE' });
    await api.request('POST', '/api/auth/password-reset/request', { body: { email: user.email } });
    const secondMail = await waitForMail(user.email, /Reset your Loom password/);
    const code = /Reset code: (\S+)/.exec(secondMail.text ?? '')![1]!;
    expect(code).not.toBe(firstCode);
    const stale = await api.request('POST', '/api/auth/password-reset/confirm', {
      body: { token: firstCode, password: 'Brand-New-Passw0rd' },
    });
    expect(stale.body).toEqual(errorOf('INVALID_TOKEN', 'invalid or expired reset token'));

    const weak = await api.request('POST', '/api/auth/password-reset/confirm', { body: { token: code, password: 'short' } });
    expect(weak.body.error.code).toBe('WEAK_PASSWORD');
    const ok = await api.request('POST', '/api/auth/password-reset/confirm', {
      body: { token: code, password: 'Brand-New-Passw0rd' },
    });
    expect(ok.status).toBe(204);
    expect((await me(user.accessToken)).body).toEqual(
      errorOf('SESSION_EXPIRED', "signed out: the account's password was reset, which ends every session; sign in again"),
    );
    const again = await api.request('POST', '/api/auth/password-reset/confirm', {
      body: { token: code, password: 'Another-New-Passw0rd' },
    });
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('INVALID_TOKEN');
    const after = await login(user.email, 'Brand-New-Passw0rd');
    expect(after.status).toBe(200);
    expect((await me(after.body.tokens.accessToken)).body.user.email_verified).toBe(true);
  });
});

describe('OpenAPI', () => {
  test('documents every /api/auth endpoint with its request body and responses', async () => {
    const doc = (await api.request('GET', '/openapi.json')).body;
    const expected: [string, string][] = [
      ['post', '/api/auth/register'],
      ['post', '/api/auth/login'],
      ['post', '/api/auth/refresh'],
      ['get', '/api/auth/me'],
      ['post', '/api/auth/logout'],
      ['put', '/api/auth/profile'],
      ['post', '/api/auth/switch-organization'],
      ['post', '/api/auth/password'],
      ['post', '/api/auth/password-reset/request'],
      ['post', '/api/auth/password-reset/confirm'],
      ['post', '/api/auth/email-verification/send'],
      ['post', '/api/auth/email-verification/confirm'],
      ['get', '/api/auth/sessions'],
      ['delete', '/api/auth/sessions/{id}'],
    ];
    for (const [method, path] of expected) {
      const op = doc.paths[path]?.[method];
      expect(op).toBeDefined();
      expect(Object.keys(op.responses).some((s) => s.startsWith('2'))).toBe(true);
    }
    const register = doc.paths['/api/auth/register'].post;
    expect(register.requestBody.content['application/json'].schema.additionalProperties).toBe(false);
    expect(register.responses['201'].content['application/json'].schema.properties.tokens).toBeDefined();
    expect(register.responses['409'].description).toContain('USER_EXISTS');
    expect(doc.paths['/api/auth/me'].get.security).toEqual([{ bearerAuth: [] }]);
  });
});
