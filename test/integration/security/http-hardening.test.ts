import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signatureHeaders } from '../../../lib/triggers/standardWebhooks';
import { requestOver, startApi, type TestApi, type TestResponse } from '../../helpers/stack';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';

/**
 * HTTP-level hardening (issue 18, "smaller items"), black-box against the real stack: headers on every kind of
 * response, 405 with Allow, RFC 6750 challenges, inbound hooks that do not tell a missing path from a wrong secret,
 * /metrics behind a token or on its own listener, and errors that do not repeat upstream or driver text.
 */

let api: TestApi;
let tenant: TestTenant;

beforeAll(async () => {
  api = await startApi();
  tenant = await createTestTenant(api);
});

afterAll(async () => {
  await api?.close();
});

const PASSWORD = 'Hardening-Pass-1!';

describe('X-Content-Type-Options: nosniff on every response', () => {
  test('success, errors of every kind, static docs, the OpenAPI document and metrics', async () => {
    const cases: [string, () => Promise<TestResponse>][] = [
      ['healthz', () => api.request('GET', '/healthz')],
      ['openapi.json', () => api.request('GET', '/openapi.json')],
      ['docs page', () => api.request('GET', '/docs')],
      ['metrics', () => api.request('GET', '/metrics')],
      ['no route 404', () => api.request('GET', `/no/such/${randomUUID()}`)],
      ['405', () => api.request('DELETE', '/healthz')],
      ['401', () => api.request('GET', '/api/auth/me')],
      ['400 validation', () => api.request('POST', '/api/auth/login', { body: { email: 'not-an-email' } })],
      ['400 malformed JSON', () => api.request('POST', '/api/auth/login', { rawBody: '{"a":', headers: { 'content-type': 'application/json' } })],
      ['404 of a tenant resource', () => api.request('GET', `/api/v1/workflows/${randomUUID()}`, { token: tenant.owner.token })],
      ['hook 404', () => api.request('POST', `/api/hooks/${randomUUID()}/nothing`, { body: {} })],
    ];
    const missing: string[] = [];
    for (const [name, call] of cases) {
      const res = await call();
      if (res.headers.get('x-content-type-options') !== 'nosniff') missing.push(`${name} (${res.status})`);
    }
    expect(missing).toEqual([]);
  });
});

describe('Cache-Control: no-store on answers that carry a token, a key or a secret', () => {
  test('register, login, refresh, switch-organization, API key creation and a webhook secret', async () => {
    const email = `hardening-${randomUUID()}@example.com`;
    const register = await api.request('POST', '/api/auth/register', { body: { email, password: PASSWORD, name: 'Hardening' } });
    expect(register.status).toBe(201);
    const login = await api.request('POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect(login.status).toBe(200);
    const refresh = await api.request('POST', '/api/auth/refresh', { body: { refreshToken: login.body.tokens.refreshToken } });
    expect(refresh.status).toBe(200);
    const switched = await api.request('POST', '/api/auth/switch-organization', {
      token: tenant.owner.token,
      body: { organizationID: tenant.organizationId },
    });
    expect(switched.status).toBe(200);
    const key = await api.request('POST', `/api/v1/organizations/${tenant.organizationId}/api-keys`, {
      token: tenant.owner.token,
      body: { name: 'shown once', role: 'member' },
    });
    expect(key.status).toBe(201);
    const workflowId = await hookWorkflow({ id: 'cache', type: 'webhook', config: { path: `cache-${randomUUID().slice(0, 8)}`, authentication: 'hmac' } });
    const secret = await api.request('POST', `/api/v1/workflows/${workflowId}/triggers/cache/secret`, { token: tenant.owner.token });
    expect(secret.status).toBe(201);

    const cacheable = Object.entries({ register, login, refresh, switched, key, secret })
      .filter(([, res]) => !/\bno-store\b/.test(res.headers.get('cache-control') ?? ''))
      .map(([name, res]) => `${name}: ${res.headers.get('cache-control')}`);
    expect(cacheable).toEqual([]);
  });

  test('a route that chooses its own caching keeps it', async () => {
    const docs = await api.request('GET', '/docs');
    expect(docs.headers.get('cache-control')).toBe('no-cache');
  });
});

describe('405 with Allow for a known path and a wrong method', () => {
  test.each([
    ['DELETE', '/healthz', ['GET', 'HEAD']],
    ['GET', '/api/auth/login', ['POST']],
    ['PUT', '/api/auth/refresh', ['POST']],
    ['PATCH', '/openapi.json', ['GET', 'HEAD']],
    // literal paths that a parameterised route (/api/v1/workflows/{id}, /api/v1/content/{id}) also matches
    ['GET', '/api/v1/workflows/validate', ['POST']],
    ['PUT', '/api/v1/workflows/validate', ['POST']],
    ['DELETE', '/api/v1/workflows/validate', ['POST']],
    ['DELETE', '/api/v1/content/search', ['POST']],
  ])('%s %s', async (method, path, allowed) => {
    const res = await api.request(method, path, { token: tenant.owner.token });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: { code: 'METHOD_NOT_ALLOWED', message: expect.stringContaining(method), request_id: expect.any(String) } });
    const allow = (res.headers.get('allow') ?? '').split(/,\s*/);
    expect(allow).toEqual(expect.arrayContaining(allowed));
    expect(allow).not.toContain(method);
  });

  test('GET /api/v1/workflows/validate names only the path\'s own method, not those of /api/v1/workflows/{id}', async () => {
    const res = await api.request('GET', '/api/v1/workflows/validate', { token: tenant.owner.token });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.body.error.message).toBe('GET is not allowed on /api/v1/workflows/validate; allowed: POST');
    // the method it has still validates
    const posted = await api.request('POST', '/api/v1/workflows/validate', { token: tenant.owner.token, body: { name: 'x', nodes: [] } });
    expect(posted.status).not.toBe(405);
  });

  test('a method the router does not know at all is a 405 with Allow too, not a 501', async () => {
    const res = await api.request('PROPFIND', '/healthz');
    expect(res.status).toBe(405);
    expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
    expect(res.headers.get('allow')).toMatch(/GET/);
  });

  test('an unknown path is still a 404, without Allow', async () => {
    const res = await api.request('DELETE', `/no/such/${randomUUID()}`);
    expect(res.status).toBe(404);
    expect(res.headers.get('allow')).toBeNull();
  });
});

describe('WWW-Authenticate on 401 (RFC 6750)', () => {
  test('no credentials: a bare Bearer challenge', async () => {
    const res = await api.request('GET', '/api/auth/me');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="loom"');
  });

  test.each([
    ['a forged token', 'invalid_token', { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.forged' }],
    ['an unknown API key', 'invalid_token', { 'x-api-key': `loom_${randomUUID()}` }],
    ['a malformed Authorization header', 'invalid_request', { authorization: 'Token abc' }],
  ])('%s: error="%s"', async (_name, error, headers) => {
    const res = await api.request('GET', '/api/v1/workflows', { headers });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer realm="loom", error="${error}"`);
  });

  test('a wrong password at login is a 401 with the challenge too', async () => {
    const res = await api.request('POST', '/api/auth/login', { body: { email: `nobody-${randomUUID()}@example.com`, password: PASSWORD } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="loom"/);
  });
});

async function hookWorkflow(trigger: Record<string, unknown>): Promise<string> {
  const echo = { id: 'echo', type: 'tool', config: { tool: 'json_transform', config: { expression: '$' } } };
  const created = await api.request('POST', '/api/v1/workflows', {
    token: tenant.owner.token,
    body: { name: `hardening ${randomUUID().slice(0, 6)}`, dag: { nodes: [echo] }, triggers: [trigger] },
  });
  if (created.status !== 201) throw new Error(`workflow: ${created.status} ${created.text}`);
  const activated = await api.request('POST', `/api/v1/workflows/${created.body.id}/activate`, { token: tenant.owner.token });
  if (activated.status !== 200) throw new Error(`activate: ${activated.status} ${activated.text}`);
  return created.body.id as string;
}

/** Everything a client sees of an answer, minus what differs per request by nature. */
function observable(res: TestResponse): { status: number; body: string; headers: Record<string, string> } {
  const headers = Object.fromEntries([...res.headers.entries()].filter(([name]) => !['date', 'x-request-id'].includes(name)));
  // The error body quotes the request id (X-Request-Id), which differs per request like the header.
  return { status: res.status, body: res.text.replace(/"request_id":"[^"]*"/, '"request_id":"<id>"'), headers };
}

describe('inbound hooks: a path that does not exist and a bad signature answer alike', () => {
  test('unknown path, unknown organization, wrong method, no secret yet, bad signature and bad bearer', async () => {
    const suffix = randomUUID().slice(0, 8);
    const signed = await hookWorkflow({ id: 'signed', type: 'webhook', config: { path: `signed-${suffix}`, authentication: 'hmac' } });
    const secret = (await api.request('POST', `/api/v1/workflows/${signed}/triggers/signed/secret`, { token: tenant.owner.token })).body.secret as string;
    await hookWorkflow({ id: 'bearer', type: 'webhook', config: { path: `bearer-${suffix}`, authentication: 'bearer' } });
    await hookWorkflow({ id: 'fresh', type: 'webhook', config: { path: `fresh-${suffix}`, authentication: 'hmac' } });
    const hook = (path: string, org = tenant.organizationId) => `/api/hooks/${org}/${path}`;
    const body = '{"n":1}';
    const post = (path: string, headers: Record<string, string>, method = 'POST') =>
      api.request(method, path, { rawBody: body, headers: { 'content-type': 'application/json', ...headers } });
    const forged = signatureHeaders(`whsec_${Buffer.from('not the secret at all!').toString('base64')}`, `msg_${randomUUID()}`, body);

    const unknown = observable(await post(hook(`nothing-${suffix}`), forged));
    expect(unknown.status).toBe(404);
    const cases: [string, () => Promise<TestResponse>][] = [
      ['unknown organization', () => post(hook(`signed-${suffix}`, randomUUID()), forged)],
      ['bad signature', () => post(hook(`signed-${suffix}`), forged)],
      ['no signature headers', () => post(hook(`signed-${suffix}`), {})],
      ['signed with the right secret over another body', () => post(hook(`signed-${suffix}`), signatureHeaders(secret, `msg_${randomUUID()}`, '{"n":2}'))],
      ['wrong method on an authenticated hook', () => post(hook(`signed-${suffix}`), forged, 'PUT')],
      ['no secret generated yet', () => post(hook(`fresh-${suffix}`), forged)],
      ['bearer: wrong token', () => post(hook(`bearer-${suffix}`), { authorization: 'Bearer not-the-secret' })],
      ['bearer: no token', () => post(hook(`bearer-${suffix}`), {})],
    ];
    const different: string[] = [];
    for (const [name, call] of cases) {
      const seen = observable(await call());
      if (JSON.stringify(seen) !== JSON.stringify(unknown)) different.push(`${name}: ${JSON.stringify(seen)}`);
    }
    expect(different).toEqual([]);
    // The control: the right signature is accepted.
    expect((await post(hook(`signed-${suffix}`), signatureHeaders(secret, `msg_${randomUUID()}`, body))).status).toBe(202);
  });
});

describe('/metrics can be protected or moved off the public port', () => {
  test('SERVICE_METRICS_TOKEN: the page needs the bearer token', async () => {
    const token = `metrics-${randomUUID()}`;
    const guarded = await startApi({ SERVICE_METRICS_TOKEN: token });
    try {
      const none = await guarded.request('GET', '/metrics');
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe('UNAUTHORIZED');
      expect(none.headers.get('www-authenticate')).toBe('Bearer realm="loom"');
      expect(none.text).not.toContain('loom_http_request_duration_seconds');
      for (const authorization of [`Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, `bearer ${token}`, token, `Basic ${token}`]) {
        const wrong = await guarded.request('GET', '/metrics', { headers: { authorization } });
        expect([authorization, wrong.status]).toEqual([authorization, 401]);
      }
      const right = await guarded.request('GET', '/metrics', { token });
      expect(right.status).toBe(200);
      expect(right.text).toContain('loom_http_request_duration_seconds');
    } finally {
      await guarded.close();
    }
  });

  test('SERVICE_METRICS_PORT: the public port has no /metrics; its own listener serves it, with a token if set', async () => {
    const token = `metrics-${randomUUID()}`;
    const split = await startApi({ SERVICE_METRICS_PORT: '9999', SERVICE_METRICS_TOKEN: token });
    let server: Server | undefined;
    try {
      const publicMetrics = await split.request('GET', '/metrics', { token });
      expect(publicMetrics.status).toBe(404);
      expect(publicMetrics.text).not.toContain('loom_');
      expect((await split.request('GET', '/openapi.json')).body.paths['/metrics']).toBeUndefined();

      expect(split.app.metricsListener).not.toBeNull();
      server = await new Promise<Server>((resolve) => {
        const s = split.app.metricsListener!.listen(0, '127.0.0.1', () => resolve(s));
      });
      const metrics = requestOver(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      expect((await metrics('GET', '/metrics')).status).toBe(401);
      const page = await metrics('GET', '/metrics', { token });
      expect(page.status).toBe(200);
      expect(page.text).toContain('loom_http_request_duration_seconds');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      const elsewhere = await metrics('GET', '/api/auth/me', { token });
      expect(elsewhere.status).toBe(404);
      expect(elsewhere.body.error.code).toBe('NOT_FOUND');
      const posted = await metrics('POST', '/metrics', { token });
      expect(posted.status).toBe(405);
      expect(posted.headers.get('allow')).toBe('GET, HEAD');
    } finally {
      if (server) {
        server.closeAllConnections();
        await new Promise((r) => server!.close(r));
      }
      await split.close();
    }
  });

  test('by default (development) /metrics stays on the public port, open', async () => {
    expect(api.app.metricsListener).toBeNull();
    expect((await api.request('GET', '/metrics')).status).toBe(200);
  });
});

describe('errors do not repeat upstream answers, internal addresses or driver messages', () => {
  let upstream: Server;
  const MARKER = `upstream-body-${randomUUID()}`;

  beforeAll(async () => {
    upstream = createServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`${MARKER} internal stack at /srv/provider`);
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  });
  afterAll(async () => {
    await new Promise((r) => upstream.close(r));
  });

  test('a failing embedding provider: 502 UPSTREAM_ERROR with a generic message', async () => {
    const org = await createTestTenant(api);
    const { port } = upstream.address() as AddressInfo;
    const settings = {
      integration: {
        thirdParty: {
          embeddings: {
            enabled: true,
            config: { provider: 'openai', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'probe', dimensions: '64' },
            secrets: { apiKey: 'sk-test-key-0123456789' },
          },
        },
      },
    };
    await api.deps.db('organizations').where({ id: org.organizationId }).update({ settings: JSON.stringify(settings) });
    const res = await api.request('POST', '/api/v1/content/search', { token: org.owner.token, body: { query: 'anything', mode: 'semantic' } });
    expect(res.status).toBe(502);
    expect(res.body.error.code).toBe('UPSTREAM_ERROR');
    for (const leak of [MARKER, '127.0.0.1', String(port), '/srv/provider', 'HTTP 500']) expect(res.text).not.toContain(leak);
  });

  test('/readyz says "unreachable", not the driver message with its address', async () => {
    const broken = await startApi({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere' });
    try {
      const res = await broken.request('GET', '/readyz');
      expect(res.status).toBe(503);
      expect(res.body.services.postgres).toMatchObject({ ok: false, error: 'unreachable' });
      expect(res.text).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|:1\b/);
    } finally {
      await broken.close();
    }
  });
});
