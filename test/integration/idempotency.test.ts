import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa from 'koa';
import { z } from 'zod';
import { mountRoutes, type Authenticator } from '../../api/http/mount';
import { buildOpenApiDocument } from '../../api/http/openapi';
import { defineRoute, type RouteDef } from '../../api/http/route';
import { errorMiddleware } from '../../api/middleware/errors';
import { createIdempotencyStore, type IdempotencyOptions } from '../../api/middleware/idempotency';
import { requestContext } from '../../api/middleware/requestContext';
import { createDb, type Db } from '../../db/knex';
import { createLogger } from '../../lib/logger';

/**
 * The Idempotency-Key logic through the real mount, against the real database, on a tiny Koa app of this file's
 * own: a route that counts its executions and can be held open, so duplicates and races are observable.
 */

let db: Db;
const orgA = randomUUID();
const orgB = randomUUID();

beforeAll(async () => {
  db = createDb(process.env.DATABASE_URL!, 4);
  for (const id of [orgA, orgB]) {
    await db('organizations').insert({ id, name: `Idem ${id.slice(0, 8)}`, slug: `idem-${id.slice(0, 8)}`, plan: 'pro' });
  }
});

afterAll(async () => {
  await db.destroy();
});

interface Harness {
  baseUrl: string;
  executions: number;
  gate: { wait: Promise<void> | null; open(): void };
  failNext: boolean;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  close(): Promise<void>;
}

async function startHarness(options: IdempotencyOptions = {}): Promise<Harness> {
  const h = {
    executions: 0,
    failNext: false,
    gate: { wait: null as Promise<void> | null, open: () => undefined as void },
  } as Harness;
  const route: RouteDef = defineRoute({
    method: 'post',
    path: '/things',
    operationId: 'createThing',
    summary: 'create a thing',
    tags: [],
    auth: 'org',
    idempotent: true,
    body: z.strictObject({ name: z.string(), tags: z.array(z.string()).optional() }),
    responses: { 201: { description: 'created' } },
    handler: async ({ body }) => {
      h.executions += 1;
      if (h.gate.wait) await h.gate.wait;
      if (h.failNext) {
        h.failNext = false;
        throw new Error('transient failure');
      }
      const id = randomUUID();
      return { status: 201, body: { id, name: body.name, execution: h.executions }, headers: { Location: `/things/${id}` } };
    },
  });
  const authenticator: Authenticator = {
    authenticateUser: async () => {
      throw new Error('not used');
    },
    // The caller names its organization in a test header; the mount's seam to the auth domain, nothing else.
    authenticateAny: async (ctx) => ({ kind: 'apiKey', apiKeyId: 'k', organizationId: ctx.get('x-test-org'), role: 'member' }),
    resolveOrganization: async (_p, organizationId) => ({ organizationId, role: 'member' }),
  };
  const router = new Router();
  mountRoutes(router, [route], authenticator, 64 * 1024, { idempotency: createIdempotencyStore(db, { pollMs: 20, ...options }) });
  const koa = new Koa();
  koa.use(requestContext(createLogger('silent', 'test')));
  koa.use(errorMiddleware());
  koa.use(router.routes());
  const server: Server = await new Promise((resolve) => {
    const s = koa.listen(0, '127.0.0.1', () => resolve(s));
  });
  h.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  h.post = async (path, body, headers = {}) => {
    const res = await fetch(h.baseUrl + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-test-org': orgA, ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  };
  h.close = async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  return h;
}

function hold(h: Harness): void {
  let open!: () => void;
  h.gate.wait = new Promise<void>((r) => (open = r));
  h.gate.open = () => {
    h.gate.wait = null;
    open();
  };
}

describe('Idempotency-Key', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => {
    h.executions = 0;
  });

  it('answers a repeated request with the first response, without running the handler again', async () => {
    const key = randomUUID();
    const first = await h.post('/things', { name: 'a', tags: ['x'] }, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // Same request with keys in another order and different whitespace: the same request.
    const again = await h.post('/things', '{ "tags": ["x"],  "name": "a" }', { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(h.executions).toBe(1);
  });

  it('refuses the same key with a different request (409 IDEMPOTENCY_CONFLICT)', async () => {
    const key = randomUUID();
    expect((await h.post('/things', { name: 'a' }, { 'idempotency-key': key })).status).toBe(201);
    const other = await h.post('/things', { name: 'b' }, { 'idempotency-key': key });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    const otherPath = await h.post('/things?x=1', { name: 'a' }, { 'idempotency-key': key });
    expect(otherPath.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(h.executions).toBe(1);
  });

  it('keeps keys per organization, and runs every request that carries no key', async () => {
    const key = randomUUID();
    const a = await h.post('/things', { name: 'a' }, { 'idempotency-key': key });
    const b = await h.post('/things', { name: 'a' }, { 'idempotency-key': key, 'x-test-org': orgB });
    expect(b.status).toBe(201);
    expect(b.body.id).not.toBe(a.body.id);
    await h.post('/things', { name: 'a' });
    await h.post('/things', { name: 'a' });
    expect(h.executions).toBe(4);
  });

  it('rejects a malformed key with 400', async () => {
    const res = await h.post('/things', { name: 'a' }, { 'idempotency-key': 'x'.repeat(256) });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('headers.Idempotency-Key');
    expect(h.executions).toBe(0);
  });

  it('validates the body before the key is taken', async () => {
    const key = randomUUID();
    expect((await h.post('/things', { nom: 'a' }, { 'idempotency-key': key })).status).toBe(400);
    expect((await h.post('/things', { name: 'a' }, { 'idempotency-key': key })).status).toBe(201);
  });

  it('releases the key when the handler fails, so a retry with the same key runs', async () => {
    const key = randomUUID();
    h.failNext = true;
    expect((await h.post('/things', { name: 'a' }, { 'idempotency-key': key })).status).toBe(500);
    const retry = await h.post('/things', { name: 'a' }, { 'idempotency-key': key });
    expect(retry.status).toBe(201);
    expect(h.executions).toBe(2);
  });

  it('runs concurrent duplicates once: the duplicate waits for the first and gets its response', async () => {
    const key = randomUUID();
    hold(h);
    const first = h.post('/things', { name: 'race' }, { 'idempotency-key': key });
    const second = h.post('/things', { name: 'race' }, { 'idempotency-key': key });
    h.gate.open();
    const [r1, r2] = await Promise.all([first, second]);
    expect(r1.status).toBe(201);
    expect(r2.status).toBe(201);
    expect(r2.body).toEqual(r1.body);
    expect(h.executions).toBe(1);
  });
});

describe('Idempotency-Key with a short wait and a short lifetime', () => {
  it('answers 409 to a duplicate while the first request is still running', async () => {
    const h = await startHarness({ waitMs: 0 });
    try {
      const key = randomUUID();
      hold(h);
      const first = h.post('/things', { name: 'slow' }, { 'idempotency-key': key });
      // Wait until the first request holds the key before sending the duplicate.
      while (!(await db('idempotency_keys').where({ organization_id: orgA, key }).first())) {
        await new Promise((r) => setTimeout(r, 10));
      }
      const duplicate = await h.post('/things', { name: 'slow' }, { 'idempotency-key': key });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
      expect(duplicate.body.error.message).toMatch(/in progress/);
      h.gate.open();
      expect((await first).status).toBe(201);
      const replay = await h.post('/things', { name: 'slow' }, { 'idempotency-key': key });
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(h.executions).toBe(1);
    } finally {
      await h.close();
    }
  });

  it('forgets a key after its lifetime: the key can then be used for any request', async () => {
    const h = await startHarness({ ttlMs: 1 });
    try {
      const key = randomUUID();
      expect((await h.post('/things', { name: 'a' }, { 'idempotency-key': key })).status).toBe(201);
      await db('idempotency_keys').where({ organization_id: orgA, key }).update({ expires_at: new Date(Date.now() - 1000) });
      const reused = await h.post('/things', { name: 'b' }, { 'idempotency-key': key });
      expect(reused.status).toBe(201);
      expect(reused.body.name).toBe('b');
    } finally {
      await h.close();
    }
  });
});

describe('OpenAPI', () => {
  it('documents the Idempotency-Key header and the conflict error on idempotent routes', () => {
    const route = defineRoute({
      method: 'post',
      path: '/things',
      operationId: 'createThing',
      summary: 's',
      tags: [],
      auth: 'org',
      idempotent: true,
      responses: { 201: { description: 'created' } },
      handler: async () => ({}),
    });
    const doc = buildOpenApiDocument([route], { version: '0', serverUrl: 'http://x' }) as {
      paths: Record<string, Record<string, { parameters: { name: string; in: string }[]; responses: Record<string, { description: string }> }>>;
    };
    const op = doc.paths['/things']!.post!;
    expect(op.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Idempotency-Key', in: 'header' })]));
    expect(op.responses['409']!.description).toContain('IDEMPOTENCY_CONFLICT');
  });
});
