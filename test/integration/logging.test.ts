import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Router from '@koa/router';
import Koa from 'koa';
import { mountRoutes, type Authenticator } from '../../api/http/mount';
import { defineRoute } from '../../api/http/route';
import { errorMiddleware } from '../../api/middleware/errors';
import { requestContext } from '../../api/middleware/requestContext';
import { createLogger } from '../../lib/logger';
import { startApi, type TestApi } from '../helpers/stack';

/** Everything a logger writes, one parsed JSON object per line. */
class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text(): string {
    return this.lines.join('\n');
  }
  records(): Record<string, unknown>[] {
    return this.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  }
}

async function listen(koa: Koa): Promise<{ server: Server; baseUrl: string }> {
  const server: Server = await new Promise((resolve) => {
    const s = koa.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function call(baseUrl: string, method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
  const res = await fetch(baseUrl + path, {
    method,
    headers: { ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
  });
  const text = await res.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as any };
}

describe('API logs (real API, most verbose level)', () => {
  const capture = new LogCapture();
  const secrets: string[] = [];
  let api: TestApi;
  let baseUrl: string;

  beforeAll(async () => {
    api = await startApi({}, capture);
    baseUrl = api.baseUrl;
  });

  afterAll(() => api.close());

  it('never contains a password, access token, refresh token or API key', async () => {
    const email = `log-${randomUUID()}@example.com`;
    const password = `Pw!${randomUUID()}A1`;
    const wrongPassword = `Wrong!${randomUUID()}B2`;
    const newPassword = `New!${randomUUID()}C3`;
    secrets.push(password, wrongPassword, newPassword);

    const registered = await call(baseUrl, 'POST', '/api/auth/register', { body: { email, password, name: 'Log Test' } });
    expect(registered.status).toBe(201);
    secrets.push(registered.body.tokens.accessToken, registered.body.tokens.refreshToken);
    const auth = (token: string) => ({ authorization: `Bearer ${token}` });

    expect((await call(baseUrl, 'POST', '/api/auth/login', { body: { email, password: wrongPassword } })).status).toBe(401);
    const login = await call(baseUrl, 'POST', '/api/auth/login', { body: { email, password } });
    expect(login.status).toBe(200);
    const loginTokens = login.body.tokens ?? login.body;
    secrets.push(loginTokens.accessToken, loginTokens.refreshToken);

    const refreshed = await call(baseUrl, 'POST', '/api/auth/refresh', { body: { refreshToken: loginTokens.refreshToken } });
    expect(refreshed.status).toBe(200);
    const refreshedTokens = refreshed.body.tokens ?? refreshed.body;
    secrets.push(refreshedTokens.accessToken, ...(refreshedTokens.refreshToken ? [refreshedTokens.refreshToken] : []));
    // Reusing a spent refresh token (two rotations old, beyond the reuse grace) is logged as a warning: the token
    // itself must still not appear.
    const second = await call(baseUrl, 'POST', '/api/auth/refresh', { body: { refreshToken: refreshedTokens.refreshToken } });
    secrets.push(second.body.accessToken, second.body.refreshToken);
    await call(baseUrl, 'POST', '/api/auth/refresh', { body: { refreshToken: loginTokens.refreshToken } });

    const token = registered.body.tokens.accessToken as string;
    expect((await call(baseUrl, 'GET', '/api/auth/me', { headers: auth(token) })).status).toBe(200);
    const org = await call(baseUrl, 'POST', '/api/v1/organizations', {
      headers: auth(token),
      body: { name: `Log Org ${randomUUID().slice(0, 8)}` },
    });
    expect(org.status).toBe(201);
    const switched = await call(baseUrl, 'POST', '/api/auth/switch-organization', {
      headers: auth(token),
      body: { organizationID: org.body.id },
    });
    expect(switched.status).toBe(200);
    secrets.push(switched.body.accessToken, switched.body.refreshToken);

    const key = await call(baseUrl, 'POST', `/api/v1/organizations/${org.body.id}/api-keys`, {
      headers: auth(switched.body.accessToken),
      body: { name: 'logging test' },
    });
    expect(key.status).toBe(201);
    secrets.push(key.body.key);
    expect((await call(baseUrl, 'GET', '/api/v1/organization', { headers: { 'x-api-key': key.body.key } })).status).toBe(200);
    expect((await call(baseUrl, 'GET', '/api/v1/organization', { headers: auth(key.body.key) })).status).toBe(200);

    // A secret in a query string and a garbage bearer token.
    await call(baseUrl, 'GET', `/healthz?password=${encodeURIComponent(password)}`);
    await call(baseUrl, 'GET', '/api/auth/me', { headers: auth(`${token}x`) });

    const changed = await call(baseUrl, 'POST', '/api/auth/password', {
      headers: auth(switched.body.accessToken),
      body: { currentPassword: password, newPassword },
    });
    expect(changed.status).toBe(200);
    secrets.push(changed.body.accessToken, changed.body.refreshToken);

    expect(capture.lines.length).toBeGreaterThan(10);
    for (const secret of secrets.filter(Boolean)) {
      expect(capture.text).not.toContain(secret);
      // JWTs are three base64url parts: the signature part alone must not leak either.
      const signature = secret.split('.')[2];
      if (signature) expect(capture.text).not.toContain(signature);
    }
  });

  it('writes one request line per request, each with requestId, and the organization and user once known', async () => {
    const records = capture.records();
    const requestLines = records.filter((r) => r.msg === 'request');
    expect(requestLines.length).toBeGreaterThan(10);
    for (const line of requestLines) expect(line.requestId).toEqual(expect.any(String));
    const me = requestLines.find((r) => r.route === '/api/auth/me' && r.status === 200);
    expect(me?.userId).toEqual(expect.any(String));
    // A service handed the request's logger (the session service's refresh-reuse warning) carries its fields.
    const reuse = records.find((r) => typeof r.msg === 'string' && /reuse/i.test(r.msg));
    expect(reuse).toMatchObject({ requestId: expect.any(String), userId: expect.any(String) });
    const orgRead = requestLines.filter((r) => r.route === '/api/v1/organization' && r.status === 200);
    expect(orgRead.length).toBe(2);
    for (const line of orgRead) {
      expect(line.organizationId).toEqual(expect.any(String));
      expect(line.apiKeyId).toEqual(expect.any(String));
    }
  });
});

describe('handler logs', () => {
  it('carry requestId, organizationId and userId once the request is authenticated', async () => {
    const capture = new LogCapture();
    const logger = createLogger('info', 'api', capture);
    const userId = randomUUID();
    const organizationId = randomUUID();
    // The authenticator is the mount's seam to the auth domain: here a fixed user, so the test checks the mount only.
    const authenticator: Authenticator = {
      authenticateUser: async () => ({ kind: 'user', userId, email: 'a@example.com', sessionId: 's', sessionLastUsedMs: 0, activeOrganizationId: organizationId }),
      authenticateAny: async () => ({ kind: 'user', userId, email: 'a@example.com', sessionId: 's', sessionLastUsedMs: 0, activeOrganizationId: organizationId }),
      resolveOrganization: async (_principal, id) => ({ organizationId: id, role: 'member' }),
    };
    const router = new Router();
    mountRoutes(
      router,
      [
        defineRoute({
          method: 'get',
          path: '/probe',
          operationId: 'probe',
          summary: 'probe',
          tags: [],
          auth: 'org',
          responses: { 204: { description: 'none' } },
          handler: async ({ ctx }) => {
            ctx.state.log.info({ step: 'inside' }, 'handler line');
            return {};
          },
        }),
        defineRoute({
          method: 'get',
          path: '/open',
          operationId: 'open',
          summary: 'open',
          tags: [],
          auth: 'public',
          responses: { 204: { description: 'none' } },
          handler: async ({ ctx }) => {
            ctx.state.log.info('public handler line');
            return {};
          },
        }),
      ],
      authenticator,
      1024,
    );
    const koa = new Koa();
    koa.use(requestContext(logger));
    koa.use(errorMiddleware());
    koa.use(router.routes());
    const { server, baseUrl } = await listen(koa);
    try {
      expect((await call(baseUrl, 'GET', '/probe', { headers: { 'x-request-id': 'req-123' } })).status).toBe(204);
      expect((await call(baseUrl, 'GET', '/open')).status).toBe(204);
    } finally {
      await new Promise((r) => server.close(r));
    }
    const records = capture.records();
    const inside = records.find((r) => r.msg === 'handler line');
    expect(inside).toMatchObject({ requestId: 'req-123', organizationId, userId, step: 'inside' });
    const open = records.find((r) => r.msg === 'public handler line');
    expect(open?.requestId).toEqual(expect.any(String));
    expect(open).not.toHaveProperty('userId');
    // The request line carries the same fields exactly once (no duplicated JSON keys).
    const requestLine = capture.lines.find((l) => l.includes('"msg":"request"') && l.includes('req-123'))!;
    expect(requestLine.match(/"userId"/g)).toHaveLength(1);
    expect(requestLine.match(/"organizationId"/g)).toHaveLength(1);
  });
});
