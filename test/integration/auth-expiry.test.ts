import { randomUUID } from 'node:crypto';
import { waitForMail } from '../helpers/mail';
import { startApi, type TestApi } from '../helpers/stack';

/** Idle and absolute session expiry and e-mailed token expiry, with short configured durations. */

const PASSWORD = 'Corr3ct-Horse-Battery';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const newEmail = (tag: string): string => `${tag}-${randomUUID().slice(0, 8)}@example.com`;

async function register(api: TestApi, email = newEmail('exp')) {
  const res = await api.request('POST', '/api/auth/register', { body: { email, password: PASSWORD } });
  expect(res.status).toBe(201);
  return { email, ...(res.body.tokens as { accessToken: string; refreshToken: string }) };
}

const me = (api: TestApi, token: string) => api.request('GET', '/api/auth/me', { token });
const refresh = (api: TestApi, refreshToken: string) =>
  api.request('POST', '/api/auth/refresh', { body: { refreshToken } });

describe('idle expiry', () => {
  const IDLE_MS = 3000;
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ SERVICE_AUTH_SESSION_IDLE_TIMEOUT: `${IDLE_MS}ms` });
  });
  afterAll(() => api.close());

  test('activity keeps a session alive; silence past the idle timeout ends it', async () => {
    // Two sessions of one user: the registration's stays silent, a later login's stays busy.
    const idle = await register(api);
    const idleSince = Date.now();
    const login = await api.request('POST', '/api/auth/login', { body: { email: idle.email, password: PASSWORD } });
    const active = login.body.tokens as { accessToken: string };
    expect((await me(api, active.accessToken)).status).toBe(200);
    // Requests every ~600 ms, well inside the idle timeout even on a busy machine.
    while (Date.now() - idleSince < IDLE_MS + 300) {
      await sleep(600);
      expect((await me(api, active.accessToken)).status).toBe(200);
    }
    // `idle` has made no request for longer than the idle timeout: both of its tokens are refused.
    const res = await me(api, idle.accessToken);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('SESSION_EXPIRED');
    expect((await refresh(api, idle.refreshToken)).body).toEqual({
      error: { code: 'SESSION_EXPIRED', message: 'session expired', request_id: expect.any(String) },
    });
    // The user's idle session is not listed any more; the busy one is.
    const list = await api.request('GET', '/api/auth/sessions', { token: active.accessToken });
    expect(list.body.data).toHaveLength(1);
  });
});

describe('absolute expiry', () => {
  const SESSION_MS = 3000;
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ SERVICE_JWT_REFRESH_TOKEN_DURATION: `${SESSION_MS}ms` });
  });
  afterAll(() => api.close());

  test('refreshing does not extend the session; at expires_at both tokens stop working', async () => {
    const session = await register(api);
    const createdBefore = Date.now();
    await sleep(300);
    const rotated = await refresh(api, session.refreshToken);
    expect(rotated.status).toBe(200);
    await sleep(Math.max(0, createdBefore + SESSION_MS + 300 - Date.now()));
    const res = await me(api, rotated.body.accessToken); // the access token itself is valid for 15 minutes
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: 'SESSION_EXPIRED', message: 'session expired', request_id: expect.any(String) } });
    const again = await refresh(api, rotated.body.refreshToken);
    expect(again.status).toBe(401);
    expect(again.body.error.code).toBe('TOKEN_EXPIRED');
  });
});

describe('e-mailed tokens expire', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ SERVICE_AUTH_PASSWORD_RESET_TOKEN_DURATION: '1s' });
  });
  afterAll(() => api.close());

  test('a reset code past its lifetime is refused', async () => {
    const user = await register(api, newEmail('reset-exp'));
    await api.request('POST', '/api/auth/password-reset/request', { body: { email: user.email } });
    const mail = await waitForMail(user.email, /Reset your Loom password/);
    const code = /Reset code: (\S+)/.exec(mail.text ?? '')![1]!;
    await sleep(1100);
    const res = await api.request('POST', '/api/auth/password-reset/confirm', {
      body: { token: code, password: 'Brand-New-Passw0rd' },
    });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: 'INVALID_TOKEN', message: 'invalid or expired reset token', request_id: expect.any(String) } });
  });
});
