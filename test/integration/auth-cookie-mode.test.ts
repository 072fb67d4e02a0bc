import { randomUUID } from 'node:crypto';
import { startApi, type TestApi } from '../helpers/stack';

/**
 * Browser mode (docs/auth.md#browser-clients-refresh-cookie): with `X-Refresh-Token-Transport: cookie` the refresh
 * token travels only in an HttpOnly, Secure, SameSite=Strict cookie, and a refresh from that cookie needs the CSRF
 * header.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

const PASSWORD = 'Str0ng!Passw0rd-cookie';

/** `name=value` of each Set-Cookie, with its attributes. */
function setCookies(headers: Headers): Map<string, { value: string; attributes: string[] }> {
  const out = new Map<string, { value: string; attributes: string[] }>();
  for (const line of headers.getSetCookie()) {
    const [pair, ...attributes] = line.split(';').map((p) => p.trim());
    const i = pair!.indexOf('=');
    out.set(pair!.slice(0, i), { value: pair!.slice(i + 1), attributes });
  }
  return out;
}

async function browserLogin(): Promise<{ cookie: string; csrf: string; accessToken: string; csrfCookie: string }> {
  const email = `cookie-${randomUUID()}@example.com`;
  expect((await api.request('POST', '/api/auth/register', { body: { email, password: PASSWORD } })).status).toBe(201);
  const res = await api.request('POST', '/api/auth/login', {
    body: { email, password: PASSWORD },
    headers: { 'x-refresh-token-transport': 'cookie' },
  });
  expect(res.status).toBe(200);
  const cookies = setCookies(res.headers);
  return {
    cookie: cookies.get('loom_refresh')!.value,
    csrfCookie: cookies.get('loom_csrf')!.value,
    csrf: res.body.tokens.csrfToken,
    accessToken: res.body.tokens.accessToken,
  };
}

const refreshWithCookie = (cookie: string, csrf?: string) =>
  api.request('POST', '/api/auth/refresh', {
    body: {},
    headers: { cookie: `loom_refresh=${cookie}`, ...(csrf !== undefined ? { 'x-csrf-token': csrf } : {}) },
  });

test('login in browser mode: the refresh token is only in an HttpOnly, Secure, SameSite=Strict cookie', async () => {
  const email = `cookie-${randomUUID()}@example.com`;
  await api.request('POST', '/api/auth/register', { body: { email, password: PASSWORD } });
  const res = await api.request('POST', '/api/auth/login', {
    body: { email, password: PASSWORD },
    headers: { 'x-refresh-token-transport': 'cookie' },
  });
  expect(res.status).toBe(200);
  expect(Object.keys(res.body.tokens).sort()).toEqual(['accessToken', 'csrfToken', 'expiresIn', 'refreshTokenTransport']);
  expect(res.text).not.toContain(setCookies(res.headers).get('loom_refresh')!.value);
  const cookies = setCookies(res.headers);
  const refresh = cookies.get('loom_refresh')!;
  expect(refresh.value.split('.')).toHaveLength(3);
  expect(refresh.attributes).toEqual(expect.arrayContaining(['Path=/api/auth', 'HttpOnly', 'Secure', 'SameSite=Strict']));
  const csrf = cookies.get('loom_csrf')!;
  expect(csrf.value).toBe(res.body.tokens.csrfToken);
  expect(csrf.attributes).toEqual(expect.arrayContaining(['Path=/', 'Secure', 'SameSite=Strict']));
  expect(csrf.attributes).not.toContain('HttpOnly');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect((await api.request('GET', '/api/auth/me', { token: res.body.tokens.accessToken })).status).toBe(200);
});

test('a refresh from the cookie needs the CSRF header; with it the cookie rotates and the CSRF token stays', async () => {
  const session = await browserLogin();
  const missing = await refreshWithCookie(session.cookie);
  expect(missing.status).toBe(403);
  expect(missing.body.error.code).toBe('FORBIDDEN');
  expect(missing.body.error.message).toMatch(/x-csrf-token/);
  expect((await refreshWithCookie(session.cookie, 'not-the-token')).status).toBe(403);

  const ok = await refreshWithCookie(session.cookie, session.csrfCookie);
  expect(ok.status).toBe(200);
  expect(ok.body.refreshToken).toBeUndefined();
  expect(ok.body.csrfToken).toBe(session.csrf);
  const rotated = setCookies(ok.headers).get('loom_refresh')!.value;
  expect(rotated).not.toBe(session.cookie);
  expect((await api.request('GET', '/api/auth/me', { token: ok.body.accessToken })).status).toBe(200);
  // The rotated cookie refreshes in turn.
  expect((await refreshWithCookie(rotated, session.csrf)).status).toBe(200);
});

test('no refresh token anywhere: 401; body-token clients are unchanged', async () => {
  const none = await api.request('POST', '/api/auth/refresh', { body: {} });
  expect(none.status).toBe(401);
  expect(none.body.error).toEqual({ code: 'INVALID_TOKEN', message: 'no refresh token: send refreshToken in the body, or the refresh cookie', request_id: expect.any(String) });

  const email = `cookie-${randomUUID()}@example.com`;
  const reg = await api.request('POST', '/api/auth/register', { body: { email, password: PASSWORD } });
  const res = await api.request('POST', '/api/auth/refresh', { body: { refreshToken: reg.body.tokens.refreshToken } });
  expect(res.status).toBe(200);
  expect(res.body.refreshToken).toEqual(expect.any(String));
  expect(res.headers.getSetCookie()).toEqual([]);
});

test('logout clears both cookies', async () => {
  const session = await browserLogin();
  const res = await api.request('POST', '/api/auth/logout', { token: session.accessToken });
  expect(res.status).toBe(204);
  const cookies = setCookies(res.headers);
  expect(cookies.get('loom_refresh')).toMatchObject({ value: '' });
  expect(cookies.get('loom_refresh')!.attributes).toContain('Max-Age=0');
  expect(cookies.get('loom_csrf')!.attributes).toContain('Max-Age=0');
  // And the session is over: the old cookie no longer refreshes.
  expect((await refreshWithCookie(session.cookie, session.csrf)).status).toBe(401);
});
