import { createLoomClient, LoomApiError, unwrap, type RefreshedTokens } from '../../../client/index';
import { bearerOf, errorAnswer, startFakeApi, tokenExpired, type FakeApi, type ReceivedRequest } from './fakeApi';

/**
 * Token refresh against a fake API whose access token `A1` has expired and whose refresh token `R1` rotates to
 * `A2`/`R2`. Refresh tokens are strictly single use here (no reuse grace): a second refresh with `R1` is refused, as
 * the real API does with SERVICE_AUTH_REFRESH_REUSE_GRACE=0s.
 */
function rotatingApi(options: { refreshDelayMs?: number; refreshRefused?: boolean; alwaysExpired?: boolean } = {}) {
  let spent = false;
  return (request: ReceivedRequest) => {
    if (request.path === '/api/auth/refresh') {
      if (options.refreshRefused) return errorAnswer(401, 'SESSION_EXPIRED', 'session expired');
      const { refreshToken } = JSON.parse(request.body) as { refreshToken?: string };
      if (refreshToken !== 'R1' || spent) return errorAnswer(401, 'INVALID_TOKEN', 'refresh token reuse detected; session revoked');
      spent = true;
      return { status: 200, body: { accessToken: 'A2', refreshToken: 'R2', expiresIn: 900 }, delayMs: options.refreshDelayMs };
    }
    if (options.alwaysExpired || bearerOf(request) !== 'A2') return tokenExpired();
    if (request.method === 'POST') return { status: 201, body: { echoed: JSON.parse(request.body) as unknown } };
    return { status: 200, body: { user: { id: 'u1' }, organizationID: null, sessionId: 's1' } };
  };
}

let api: FakeApi;
afterEach(async () => {
  await api?.close();
});

test('a 401 TOKEN_EXPIRED refreshes once, stores the new pair, tells onTokens and replays the request with its body', async () => {
  api = await startFakeApi(rotatingApi());
  const seen: RefreshedTokens[] = [];
  const loom = createLoomClient(api.baseUrl, { accessToken: 'A1', refreshToken: 'R1', onTokens: (tokens) => void seen.push(tokens) });
  const body = { name: 'Replayed workflow', dag: { nodes: [{ id: 'n', type: 'tool', config: { tool: 'json_transform', config: {} } }] } };

  // The path is typed; the body is deliberately loose here: the fake API echoes whatever arrives.
  const result = await loom.POST('/api/v1/workflows', { body: body as never });

  expect(result.response.status).toBe(201);
  expect(result.data).toEqual({ echoed: body });
  expect(api.received.map((r) => `${r.method} ${r.path} ${bearerOf(r) ?? '-'}`)).toEqual([
    'POST /api/v1/workflows A1',
    'POST /api/auth/refresh -',
    'POST /api/v1/workflows A2',
  ]);
  const [first, replay] = api.to('/api/v1/workflows');
  expect(replay!.body).toBe(first!.body);
  expect(JSON.parse(replay!.body)).toEqual(body);
  expect(replay!.headers['content-type']).toBe('application/json');
  expect(JSON.parse(api.to('/api/auth/refresh')[0]!.body)).toEqual({ refreshToken: 'R1' });
  expect(seen).toEqual([{ accessToken: 'A2', refreshToken: 'R2', expiresIn: 900 }]);
  expect(loom.tokens()).toEqual({ accessToken: 'A2', refreshToken: 'R2' });

  // The next request goes out with the new token at once.
  await loom.GET('/api/auth/me');
  expect(bearerOf(api.received.at(-1)!)).toBe('A2');
  expect(api.to('/api/auth/refresh')).toHaveLength(1);
});

test('concurrent requests that all find the token expired share one refresh (a second would be refresh-token reuse)', async () => {
  api = await startFakeApi(rotatingApi({ refreshDelayMs: 150 }));
  const seen: RefreshedTokens[] = [];
  const loom = createLoomClient(api.baseUrl, { accessToken: 'A1', refreshToken: 'R1', onTokens: (tokens) => void seen.push(tokens) });

  const results = await Promise.all(Array.from({ length: 8 }, () => loom.GET('/api/auth/me')));

  expect(results.map((r) => r.response.status)).toEqual(Array(8).fill(200));
  expect(api.to('/api/auth/refresh')).toHaveLength(1);
  expect(api.to('/api/auth/me').filter((r) => bearerOf(r) === 'A1')).toHaveLength(8);
  expect(api.to('/api/auth/me').filter((r) => bearerOf(r) === 'A2')).toHaveLength(8);
  expect(seen).toHaveLength(1);
});

test('a refused refresh surfaces the TOKEN_EXPIRED answer once: no loop, onTokens not called, the dead refresh token dropped', async () => {
  api = await startFakeApi(rotatingApi({ refreshRefused: true }));
  const onTokens = jest.fn();
  const loom = createLoomClient(api.baseUrl, { accessToken: 'A1', refreshToken: 'R1', onTokens });

  const result = await loom.GET('/api/auth/me');
  expect(result.response.status).toBe(401);
  expect(result.error).toEqual({ error: { code: 'TOKEN_EXPIRED', message: 'invalid token' } });
  expect(() => unwrap(result)).toThrow(expect.objectContaining({ name: 'LoomApiError', status: 401, code: 'TOKEN_EXPIRED' }));
  expect(api.received.map((r) => r.path)).toEqual(['/api/auth/me', '/api/auth/refresh']);
  expect(onTokens).not.toHaveBeenCalled();
  expect(loom.tokens()).toEqual({ accessToken: 'A1', refreshToken: null });

  // Nothing left to refresh with: the next expired answer is returned as it is.
  await loom.GET('/api/auth/me');
  expect(api.to('/api/auth/refresh')).toHaveLength(1);
  await expect(loom.refreshTokens()).rejects.toBeInstanceOf(LoomApiError);
});

test('a replay that is refused again is answered as it is: one refresh, one replay, never more', async () => {
  api = await startFakeApi(rotatingApi({ alwaysExpired: true }));
  const loom = createLoomClient(api.baseUrl, { accessToken: 'A1', refreshToken: 'R1' });

  const result = await loom.GET('/api/auth/me');

  expect(result.response.status).toBe(401);
  expect(api.received.map((r) => `${r.path} ${bearerOf(r) ?? '-'}`)).toEqual(['/api/auth/me A1', '/api/auth/refresh -', '/api/auth/me A2']);
});

test('other 401s are not refreshed, nor requests without a refresh token, nor requests with their own Authorization', async () => {
  api = await startFakeApi((request) =>
    request.path === '/api/v1/organizations' ? errorAnswer(401, 'SESSION_EXPIRED', 'session expired') : tokenExpired(),
  );
  const loom = createLoomClient(api.baseUrl, { accessToken: 'A1', refreshToken: 'R1' });
  expect((await loom.GET('/api/v1/organizations')).response.status).toBe(401);
  expect((await loom.GET('/api/auth/me', { headers: { Authorization: 'Bearer mine' } })).response.status).toBe(401);
  expect(bearerOf(api.received.at(-1)!)).toBe('mine');

  const withoutRefresh = createLoomClient(api.baseUrl, { accessToken: 'A1' });
  expect((await withoutRefresh.GET('/api/auth/me')).response.status).toBe(401);
  expect(api.to('/api/auth/refresh')).toHaveLength(0);
});

test('useTokens stores a pair from login or switch-organization; setToken and the old (baseUrl, token) form still work', async () => {
  api = await startFakeApi(rotatingApi());
  const loom = createLoomClient(api.baseUrl, 'A1');
  expect(loom.tokens()).toEqual({ accessToken: 'A1', refreshToken: null });

  loom.useTokens({ accessToken: 'A2', refreshToken: 'R9' });
  expect(unwrap(await loom.GET('/api/auth/me'))).toEqual({ user: { id: 'u1' }, organizationID: null, sessionId: 's1' });
  expect(bearerOf(api.received.at(-1)!)).toBe('A2');
  expect(loom.tokens()).toEqual({ accessToken: 'A2', refreshToken: 'R9' });

  loom.setToken('A3');
  expect(loom.tokens()).toEqual({ accessToken: 'A3', refreshToken: 'R9' });
  loom.setToken(null);
  await loom.GET('/api/auth/me');
  expect(api.received.at(-1)!.headers.authorization).toBeUndefined();
});

test('unwrap: data on success; LoomApiError with status, code, message, request id and details on failure', async () => {
  api = await startFakeApi((request) =>
    request.path === '/api/v1/organizations'
      ? {
          status: 400,
          body: { error: { code: 'VALIDATION_ERROR', message: 'bad', details: [{ path: 'body.name', problem: 'required' }], request_id: 'req-1' } },
        }
      : { status: 502, body: undefined, headers: { 'x-request-id': 'req-2' } },
  );
  const loom = createLoomClient(api.baseUrl);

  const invalid = await loom.POST('/api/v1/organizations', { body: { name: '' } });
  const thrown = captureError(() => unwrap(invalid));
  expect(thrown).toBeInstanceOf(LoomApiError);
  expect(thrown).toMatchObject({
    status: 400,
    code: 'VALIDATION_ERROR',
    message: 'bad',
    requestId: 'req-1',
    details: [{ path: 'body.name', problem: 'required' }],
  });

  const empty = await loom.GET('/api/auth/me');
  expect(captureError(() => unwrap(empty))).toMatchObject({ status: 502, code: 'HTTP_502', requestId: 'req-2' });
});

function captureError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}
