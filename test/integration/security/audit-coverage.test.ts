import { randomUUID } from 'node:crypto';
import { waitForProcessing } from '../../helpers/content';
import { createWorkflowFixture, RUN_TEST_CONFIG, toolNode, waitForRun } from '../../helpers/runs';
import { startApi, type TestApi } from '../../helpers/stack';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';

/**
 * Content, workflow, run and event actions are audited with actor, IP, user agent and, for changes of a record,
 * before/after (api/http/routeAudit.ts lists how each changing route is audited; the unit test
 * test/unit/architecture/routeAudit.test.ts lists any that is not).
 */

let api: TestApi;
let tenant: TestTenant;
const IP = '10.9.8.7';
const AGENT = 'audit-coverage/1';
const headers = { 'x-forwarded-for': IP, 'user-agent': AGENT };

beforeAll(async () => {
  api = await startApi({ ...RUN_TEST_CONFIG, SERVICE_TRUST_PROXY: 'true' });
  tenant = await createTestTenant(api);
});
afterAll(() => api.close());

interface Entry {
  action: string;
  actor: { type: string; id: string | null };
  target: { type: string; id: string | null } | null;
  ip: string | null;
  userAgent: string | null;
  changes: { before: unknown; after: unknown } | null;
}

async function entries(action: string): Promise<Entry[]> {
  const res = await api.request('GET', `/api/v1/organizations/${tenant.organizationId}/audit-logs?action=${action}&limit=100`, { token: tenant.owner.token });
  expect(res.status).toBe(200);
  return res.body.data as Entry[];
}

/** The one entry of `action` on `targetId`, by the owner, from the test's address and user agent. */
async function one(action: string, targetId: string): Promise<Entry> {
  const found = (await entries(action)).filter((e) => e.target?.id === targetId);
  expect([action, found.length]).toEqual([action, 1]);
  expect(found[0]).toMatchObject({ actor: { type: 'user', id: tenant.owner.userId }, ip: IP, userAgent: AGENT });
  return found[0]!;
}

async function upload(path: string, bytes: string, filename: string) {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(bytes)], { type: 'text/plain' }), filename);
  const res = await fetch(api.baseUrl + path, { method: 'POST', headers: { authorization: `Bearer ${tenant.owner.token}`, ...headers }, body: form });
  expect(res.status).toBe(201);
  return (await res.json()) as Record<string, unknown>;
}

test('content: upload, metadata (before/after), new version, processing, embedding, delete', async () => {
  const created = await upload('/api/v1/content', 'first words', 'notes.txt');
  const id = created.id as string;
  expect((await one('content.uploaded', id)).changes?.after).toMatchObject({ filename: 'notes.txt', mimeType: 'text/plain', size: 11, version: 1, sha256: created.sha256 });

  const updated = await api.request('PUT', `/api/v1/content/${id}`, { token: tenant.owner.token, headers, body: { title: 'Notes', tags: ['a'] } });
  expect(updated.status).toBe(200);
  expect((await one('content.updated', id)).changes).toEqual({ before: { title: null, tags: [] }, after: { title: 'Notes', tags: ['a'] } });

  await upload(`/api/v1/content/${id}/versions`, 'second words!', 'notes-v2.txt');
  expect((await one('content.version_uploaded', id)).changes?.after).toMatchObject({ version: 2, filename: 'notes-v2.txt', size: 13 });

  // Uploads start processing on their own: each request waits for the job before it (409 while one runs).
  await waitForProcessing(api, tenant.owner.token, id);
  expect((await api.request('POST', `/api/v1/content/${id}/process`, { token: tenant.owner.token, headers, body: { steps: ['extract_text'] } })).status).toBe(202);
  expect((await one('content.processing_requested', id)).changes?.after).toEqual({ steps: ['extract_text'] });
  await waitForProcessing(api, tenant.owner.token, id);
  expect((await api.request('POST', `/api/v1/content/${id}/embed`, { token: tenant.owner.token, headers, body: {} })).status).toBe(202);
  await one('content.embedding_requested', id);

  // A read sent by POST writes nothing.
  const before = (await api.deps.db('audit_logs').where({ organization_id: tenant.organizationId }).count({ n: '*' }))[0]!.n;
  expect((await api.request('POST', '/api/v1/content/search', { token: tenant.owner.token, headers, body: { query: 'words' } })).status).toBe(200);
  expect((await api.deps.db('audit_logs').where({ organization_id: tenant.organizationId }).count({ n: '*' }))[0]!.n).toBe(before);

  expect((await api.request('DELETE', `/api/v1/content/${id}`, { token: tenant.owner.token, headers })).status).toBe(202);
  await one('content.deleted', id);
});

test('workflows: created, updated (before/after), activated, paused, triggers synced, deleted', async () => {
  const created = await api.request('POST', '/api/v1/workflows', {
    token: tenant.owner.token,
    headers,
    body: { name: `audited ${randomUUID().slice(0, 6)}`, dag: { nodes: [toolNode('a', 'json_transform', { expression: '1' })], edges: [] } },
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  await one('workflow.created', id);
  expect((await api.request('PUT', `/api/v1/workflows/${id}`, { token: tenant.owner.token, headers, body: { name: `renamed ${id}` } })).status).toBe(200);
  expect((await one('workflow.updated', id)).changes).toEqual({ before: { name: created.body.name }, after: { name: `renamed ${id}` } });
  expect((await api.request('POST', `/api/v1/workflows/${id}/activate`, { token: tenant.owner.token, headers })).status).toBe(200);
  expect((await api.request('POST', `/api/v1/workflows/${id}/pause`, { token: tenant.owner.token, headers })).status).toBe(200);
  const status = (await entries('workflow.status_changed')).filter((e) => e.target?.id === id);
  expect(status.map((e) => e.changes?.after).reverse()).toEqual([{ status: 'active' }, { status: 'paused' }]);
  expect((await api.request('POST', `/api/v1/workflows/${id}/triggers/sync`, { token: tenant.owner.token, headers })).status).toBe(200);
  await one('workflow.triggers_synced', id);
  expect((await api.request('DELETE', `/api/v1/workflows/${id}`, { token: tenant.owner.token, headers })).status).toBe(204);
  await one('workflow.deleted', id);
});

test('runs: started, cancelled, retried', async () => {
  const workflowId = await createWorkflowFixture(api, tenant, { nodes: [toolNode('wait', 'delay', { ms: 120_000 })] });
  const started = await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, { token: tenant.owner.token, headers, body: { parameters: {} } });
  expect(started.status).toBe(201);
  const runId = started.body.id as string;
  await one('run.started', runId);
  await waitForRun(api, tenant.owner.token, workflowId, runId, (r) => r.node_states?.wait?.status === 'running');
  expect((await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${runId}/cancel`, { token: tenant.owner.token, headers })).status).toBe(200);
  await one('run.cancelled', runId);
  await waitForRun(api, tenant.owner.token, workflowId, runId);
  const retried = await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${runId}/retry`, { token: tenant.owner.token, headers });
  expect(retried.status).toBe(201);
  expect((await one('run.started', retried.body.id)).changes?.after).toMatchObject({ trigger: 'retry', retryOf: runId });
  await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${retried.body.id}/cancel`, { token: tenant.owner.token });
});

test('events: a published event is audited once, also when its Idempotency-Key is replayed', async () => {
  const send = () =>
    api.request('POST', '/api/v1/events', { token: tenant.owner.token, headers: { ...headers, 'idempotency-key': `audit-${tenant.organizationId}` }, body: { type: 'custom.audited', data: { n: 1 } } });
  const first = await send();
  expect(first.status).toBe(202);
  const again = await send();
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect((await one('event.published', first.body.id)).changes?.after).toEqual({ type: 'custom.audited' });
});
