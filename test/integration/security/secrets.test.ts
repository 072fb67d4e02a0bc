import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Worker } from '@temporalio/worker';
import { createLogger } from '../../../lib/logger';
import { createWorker } from '../../../worker/createWorker';
import { createWorkflowFixture, RUN_TEST_CONFIG, startRun, toolNode, waitForRun } from '../../helpers/runs';
import { startApi, type TestApi } from '../../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant } from '../../helpers/tenants';

/**
 * Organization secrets (docs/secrets.md) against the real stack: the write-only store (roles, tenants, audit), the
 * save-time refusal of literal credentials and unknown references, the redaction of definitions stored before, and
 * a run whose http_request header uses `{{secret.NAME}}`: the local server gets the value, while the run, its node
 * states and the Temporal history only ever hold the reference. The run needs a worker allowed to call 127.0.0.1, so
 * this file runs its own worker on its own task queue (the shared worker has no allowlist).
 */

interface Received {
  url: string;
  headers: http.IncomingHttpHeaders;
}

let api: TestApi;
let worker: Worker;
let workerDone: Promise<void>;
let server: http.Server;
let base: string;
const received: Received[] = [];
let a: TestTenant;
let b: TestTenant;

const taskQueue = `secrets-${randomUUID().slice(0, 8)}`;
const freshValue = (): string => `sv-${randomBytes(16).toString('hex')}`;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    received.push({ url: req.url!, headers: req.headers });
    // Refuses with the token it got: the tool's error message quotes the answer.
    if (req.url === '/reject') return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ rejected: req.headers['x-token'] }));
    // Echoes the request headers back: the tool's output then holds the secret unless the activity takes it out.
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ seen: req.headers, url: req.url }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  api = await startApi({ ...RUN_TEST_CONFIG, TOOLS_HTTP_ALLOWED_HOSTS: '127.0.0.1', TEMPORAL_TASK_QUEUE: taskQueue });
  const logger = createLogger('silent', 'secrets-test-worker');
  worker = await createWorker({
    deps: { ...api.deps, config: api.config, logger },
    workflowBundlePath: api.config.temporal.workflowBundlePath,
  });
  workerDone = worker.run();
  a = await createTestTenant(api);
  b = await createTestTenant(api);
});

afterAll(async () => {
  worker?.shutdown();
  await workerDone;
  await api?.close();
  server?.closeAllConnections();
  server?.close();
});

const put = (tenant: TestTenant, name: string, value: string, token = tenant.owner.token) =>
  api.request('PUT', `/api/v1/secrets/${name}`, { token, body: { value } });

function workflowBody(nodes: unknown[], extra: Record<string, unknown> = {}) {
  return { name: `secrets ${randomUUID().slice(0, 6)}`, dag: { nodes, edges: [] }, ...extra };
}

/** Text of a history with its payloads (bytes, or base64 in the history's JSON form) decoded as UTF-8. */
function decodedText(value: unknown): string {
  return JSON.stringify(value, (key, v: unknown) => {
    if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
    if (key === 'data' && typeof v === 'string') return Buffer.from(v, 'base64').toString('utf8');
    if (v && typeof v === 'object' && (v as { type?: unknown }).type === 'Buffer' && Array.isArray((v as { data?: unknown }).data)) {
      return Buffer.from((v as { data: number[] }).data).toString('utf8');
    }
    return v;
  });
}

async function historyText(runId: string): Promise<string> {
  const history = await api.deps.temporal.workflow.getHandle(runId).fetchHistory();
  return decodedText(history);
}

describe('the secrets store', () => {
  test('create, list, replace and delete; the value is never returned nor stored in plain text', async () => {
    const value = freshValue();
    const created = await put(a, 'CRUD_TOKEN', value);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'CRUD_TOKEN', last4: value.slice(-4) });
    expect(created.text).not.toContain(value);

    const replacement = freshValue();
    const replaced = await put(a, 'CRUD_TOKEN', replacement);
    expect(replaced.status).toBe(200);
    expect(replaced.body.last4).toBe(replacement.slice(-4));

    const list = await api.request('GET', '/api/v1/secrets', { token: a.owner.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((s: { name: string }) => s.name)).toContain('CRUD_TOKEN');
    expect(list.text).not.toContain(value);
    expect(list.text).not.toContain(replacement);

    const row = await api.deps.db('organization_secrets').where({ organization_id: a.organizationId, name: 'CRUD_TOKEN' }).first();
    expect(JSON.stringify(row)).not.toContain(replacement);

    expect((await api.request('DELETE', '/api/v1/secrets/CRUD_TOKEN', { token: a.owner.token })).status).toBe(204);
    const again = await api.request('DELETE', '/api/v1/secrets/CRUD_TOKEN', { token: a.owner.token });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('NOT_FOUND');
  });

  test('names and bodies are validated', async () => {
    for (const name of ['lower', '1ABC', 'A-B', 'A'.repeat(65)]) {
      const res = await put(a, name, 'x');
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
    expect((await put(a, 'EMPTY', '')).status).toBe(400);
    const extra = await api.request('PUT', '/api/v1/secrets/EXTRA', { token: a.owner.token, body: { value: 'x', name: 'y' } });
    expect(extra.status).toBe(400);
  });

  test('viewers cannot list or write, members list names only, admins write', async () => {
    const viewer = await addTestMember(api, a, 'viewer');
    const member = await addTestMember(api, a, 'member');
    const admin = await addTestMember(api, a, 'admin');
    expect((await api.request('GET', '/api/v1/secrets', { token: viewer.token })).status).toBe(403);
    for (const user of [viewer, member]) {
      const write = await put(a, 'ROLE_TEST', 'x', user.token);
      expect(write.status).toBe(403);
      expect(write.body.error.code).toBe('FORBIDDEN');
      expect((await api.request('DELETE', '/api/v1/secrets/ROLE_TEST', { token: user.token })).status).toBe(403);
    }
    expect((await api.request('GET', '/api/v1/secrets', { token: member.token })).status).toBe(200);
    expect((await put(a, 'ROLE_TEST', 'x', admin.token)).status).toBe(201);
    expect((await api.request('DELETE', '/api/v1/secrets/ROLE_TEST', { token: admin.token })).status).toBe(204);
  });

  test('the audit log lists every write, without the value', async () => {
    const value = freshValue();
    await put(a, 'AUDITED', value);
    await put(a, 'AUDITED', `${value}-2`);
    await api.request('DELETE', '/api/v1/secrets/AUDITED', { token: a.owner.token });
    const res = await api.request('GET', `/api/v1/organizations/${a.organizationId}/audit-logs?action=secret.*&limit=100`, { token: a.owner.token });
    expect(res.status).toBe(200);
    const mine = res.body.data.filter((e: { target?: { id?: string }; targetId?: string }) => JSON.stringify(e).includes('AUDITED'));
    expect(mine.map((e: { action: string }) => e.action).sort()).toEqual(['secret.created', 'secret.deleted', 'secret.updated']);
    expect(res.text).not.toContain(value);
    const rows = await api.deps.db('audit_logs').where({ organization_id: a.organizationId }).where('action', 'like', 'secret.%');
    expect(JSON.stringify(rows)).not.toContain(value);
  });

  test("another organization neither sees nor deletes nor references a secret", async () => {
    await put(a, 'A_ONLY', freshValue());
    const list = await api.request('GET', '/api/v1/secrets', { token: b.owner.token });
    expect(list.body.data.map((s: { name: string }) => s.name)).not.toContain('A_ONLY');
    expect((await api.request('DELETE', '/api/v1/secrets/A_ONLY', { token: b.owner.token })).status).toBe(404);
    const save = await api.request('POST', '/api/v1/workflows', {
      token: b.owner.token,
      body: workflowBody([toolNode('call', 'http_request', { url: `${base}/b`, headers: { authorization: 'Bearer {{secret.A_ONLY}}' } })]),
    });
    expect(save.status).toBe(422);
    expect(save.body.error.code).toBe('UNKNOWN_SECRET');
    expect(save.body.error.details).toEqual([
      { path: 'dag.nodes.call.config.config.headers.authorization', problem: expect.stringContaining('"A_ONLY"') },
    ]);
  });
});

describe('literal credentials in node configs', () => {
  const refused: [string, Record<string, unknown>, string, string][] = [
    ['a password in a connection string', { connection_string: 'postgres://app:hunter2@db.example.com:5432/app', sql: 'select 1' }, 'db_query', 'connection_string'],
    ['a password in a libpq keyword string', { connection_string: 'postgres://db.example.com/app?password=hunter2', sql: 'select 1' }, 'db_query', 'connection_string'],
    ['an authorization header', { url: 'https://api.example.com/', headers: { Authorization: 'Bearer hunter2' } }, 'http_request', 'headers.Authorization'],
    ['an x-api-key header', { url: 'https://api.example.com/', headers: { 'x-api-key': 'hunter2' } }, 'http_request', 'headers.x-api-key'],
    ['an api_key query parameter', { url: 'https://api.example.com/?api_key=hunter2' }, 'http_request', 'url'],
    ['a URL password', { url: 'https://user:hunter2@api.example.com/' }, 'http_request', 'url'],
    ['a webhook signing secret', { url: 'https://h.example.com/', payload: {}, secret: 'hunter2-hunter2-hunter2' }, 'webhook_send', 'secret'],
  ];

  test.each(refused)('%s is refused with 422 naming the node and key', async (_label, config, tool, key) => {
    const res = await api.request('POST', '/api/v1/workflows', { token: a.owner.token, body: workflowBody([toolNode('n1', tool, config)]) });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('INLINE_CREDENTIAL');
    expect(res.body.error.details).toEqual([{ path: `dag.nodes.n1.config.config.${key}`, problem: expect.stringContaining('{{secret.NAME}}') }]);
  });

  test('an update that adds one is refused too; references and templates are accepted', async () => {
    await put(a, 'DB_PASSWORD', freshValue());
    const ok = await api.request('POST', '/api/v1/workflows', {
      token: a.owner.token,
      body: workflowBody(
        [
          toolNode('q', 'db_query', { connection_string: 'postgres://app:{{secret.DB_PASSWORD}}@db.example.com/app', sql: 'select 1' }),
          toolNode('h', 'http_request', { url: 'https://api.example.com/', headers: { authorization: 'Bearer ${params.token}' } }),
        ],
        { parameters: [{ name: 'token', type: 'string' }] },
      ),
    });
    expect(ok.status).toBe(201);
    const update = await api.request('PUT', `/api/v1/workflows/${ok.body.id}`, {
      token: a.owner.token,
      body: { dag: { nodes: [toolNode('q', 'db_query', { connection_string: 'postgres://app:hunter2@db.example.com/app', sql: 'select 1' })], edges: [] } },
    });
    expect(update.status).toBe(422);
    expect(update.body.error.code).toBe('INLINE_CREDENTIAL');
  });

  test('malformed references and references outside tool configs are refused', async () => {
    const malformed = await api.request('POST', '/api/v1/workflows', {
      token: a.owner.token,
      body: workflowBody([toolNode('h', 'http_request', { url: 'https://api.example.com/', headers: { authorization: 'Bearer {{secret.lower}}' } })]),
    });
    expect(malformed.status).toBe(422);
    expect(malformed.body.error).toMatchObject({ code: 'WORKFLOW_INVALID', details: [{ path: 'dag.nodes.h.config.config.headers.authorization' }] });
  });

  test('definitions stored before the rule are shown redacted to every role, current and version reads', async () => {
    const workflowId = await createWorkflowFixture(api, a, {
      nodes: [
        toolNode('q', 'db_query', { connection_string: 'postgres://app:legacy-pw-123@db.example.com/app', sql: 'select 1' }),
        toolNode('h', 'http_request', { url: 'https://api.example.com/', headers: { 'X-Api-Key': 'legacy-key-456' } }),
      ],
    });
    const viewer = await addTestMember(api, a, 'viewer');
    for (const token of [viewer.token, a.owner.token]) {
      for (const path of [`/api/v1/workflows/${workflowId}`, `/api/v1/workflows/${workflowId}/versions/1`, `/api/v1/workflows/${workflowId}/versions`]) {
        const res = await api.request('GET', path, { token });
        expect(res.status).toBe(200);
        expect(res.text).not.toMatch(/legacy-pw-123|legacy-key-456/);
      }
    }
    const got = await api.request('GET', `/api/v1/workflows/${workflowId}`, { token: viewer.token });
    const nodes = got.body.dag.nodes as { id: string; config: { config: Record<string, unknown> } }[];
    expect(nodes.find((n) => n.id === 'q')!.config.config.connection_string).toBe('postgres://app:****@db.example.com/app');
    expect(nodes.find((n) => n.id === 'h')!.config.config.headers).toEqual({ 'X-Api-Key': '****' });
  });
});

describe('a run using {{secret.NAME}}', () => {
  test('the server gets the value; the run, its node states and the Temporal history hold only the reference', async () => {
    const value = freshValue();
    await put(a, 'API_TOKEN', value);
    const created = await api.request('POST', '/api/v1/workflows', {
      token: a.owner.token,
      body: workflowBody(
        [
          toolNode('call', 'http_request', {
            url: `${base}/echo`,
            headers: { authorization: 'Bearer {{secret.API_TOKEN}}', 'x-param': '${params.p}' },
          }),
        ],
        { parameters: [{ name: 'p', type: 'string' }] },
      ),
    });
    expect(created.status).toBe(201);
    expect(created.text).toContain('{{secret.API_TOKEN}}');

    // The parameter spells a reference: it must reach the server as that text, never resolved.
    const run = await startRun(api, a.owner.token, created.body.id, { p: '{{secret.API_TOKEN}}' });
    const done = await waitForRun(api, a.owner.token, created.body.id, run.id);
    expect(done.status).toBe('completed');

    const call = received.find((r) => r.url === '/echo' && r.headers.authorization === `Bearer ${value}`);
    expect(call).toBeDefined();
    expect(call!.headers['x-param']).toBe('{{secret.API_TOKEN}}');

    const answer = JSON.stringify(done);
    expect(answer).not.toContain(value);
    expect(answer).toContain('Bearer {{secret.API_TOKEN}}'); // the echoed header, redacted back to its reference
    const rows = await api.deps.db('workflow_runs').where({ id: run.id });
    expect(JSON.stringify(rows)).not.toContain(value);

    const history = await historyText(run.id);
    expect(history).toContain('{{secret.API_TOKEN}}'); // the payloads were decoded: the reference is there
    expect(history).not.toContain(value);
    expect(history).not.toContain(Buffer.from(value).toString('base64'));
  });

  test('a value in a tool error message is taken out of the run error and the history', async () => {
    // A whole URL is no longer a secret field (docs/secrets.md): a server quoting the header it refused is the case.
    const value = freshValue();
    await put(a, 'REJECTED_TOKEN', value);
    const created = await api.request('POST', '/api/v1/workflows', {
      token: a.owner.token,
      body: workflowBody([toolNode('call', 'http_request', { url: `${base}/reject`, headers: { 'x-token': '{{secret.REJECTED_TOKEN}}' } })]),
    });
    expect(created.status).toBe(201);
    const run = await startRun(api, a.owner.token, created.body.id);
    const done = await waitForRun(api, a.owner.token, created.body.id, run.id);
    expect(done.status).toBe('failed');
    const answer = JSON.stringify(done);
    expect(answer).toContain('HTTP_400');
    expect(answer).toContain('{{secret.REJECTED_TOKEN}}');
    expect(answer).not.toContain(value);
    expect(await historyText(run.id)).not.toContain(value);
  });

  test("a secret deleted after save fails the run with UNKNOWN_SECRET, and another organization's value is never used", async () => {
    const aValue = freshValue();
    await put(a, 'SHARED_NAME', aValue);
    await put(b, 'SHARED_NAME', freshValue());
    const created = await api.request('POST', '/api/v1/workflows', {
      token: b.owner.token,
      body: workflowBody([toolNode('call', 'http_request', { url: `${base}/b-run`, headers: { authorization: 'Bearer {{secret.SHARED_NAME}}' } })]),
    });
    expect(created.status).toBe(201);
    expect((await api.request('DELETE', '/api/v1/secrets/SHARED_NAME', { token: b.owner.token })).status).toBe(204);

    const run = await startRun(api, b.owner.token, created.body.id);
    const done = await waitForRun(api, b.owner.token, created.body.id, run.id);
    expect(done.status).toBe('failed');
    expect(JSON.stringify(done.errors)).toContain('UNKNOWN_SECRET');
    expect(JSON.stringify(done.errors)).toContain('SHARED_NAME');
    expect(received.some((r) => r.url === '/b-run')).toBe(false);
    expect(JSON.stringify(received)).not.toContain(aValue);
  });
});
