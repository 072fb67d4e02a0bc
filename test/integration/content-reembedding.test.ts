import { runAdmin } from '../../scripts/admin-cli';
import { createReembeddingActivities } from '../../activities/content/reembedding';
import type { ActivityDeps } from '../../activities/deps';
import { createVectorStore } from '../../lib/vectors';
import { uploadContent, waitForProcessing } from '../helpers/content';
import { startApi, type TestApi } from '../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant } from '../helpers/tenants';

/**
 * Moving an organization's content from one embedding model to another (issue 43): search across both models
 * while it moves, the re-embedding operation (API and admin CLI), its progress, cancel, audit, and resumption
 * from its cursor. The organization starts on the lexical model and switches to the semantic default.
 */
let api: TestApi;
const SEMANTIC = 'wink-sg-100d-sif-v1';
const LEXICAL = 'lexical-hash-384-v2';

const TEXTS: Record<string, string> = {
  puncture: 'Take the wheel off, find the hole in the inner tube, glue on a patch and inflate the tube again.',
  insomnia: 'People with insomnia lie awake for hours at night; a dark and quiet bedroom helps.',
  sourdough: 'A sourdough starter is a culture of flour and water; bake the bread once the dough has risen.',
};

beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

async function useProvider(tenant: TestTenant, provider: 'lexical' | 'semantic') {
  const body = { integration: { thirdParty: { embeddings: { enabled: true, config: { provider } } } } };
  expect((await api.request('PUT', `/api/v1/organizations/${tenant.organizationId}/settings`, { token: tenant.owner.token, body })).status).toBe(200);
}

async function upload(tenant: TestTenant, name: string, text: string): Promise<string> {
  const res = await uploadContent(api, tenant.owner.token, { bytes: Buffer.from(text), filename: `${name}.txt`, type: 'text/plain', title: name });
  expect(res.status).toBe(201);
  expect((await waitForProcessing(api, tenant.owner.token, res.body.id)).body.job.status).toBe('succeeded');
  return res.body.id as string;
}

const search = (tenant: TestTenant, query: string, mode: string) =>
  api.request('POST', '/api/v1/content/search', { token: tenant.owner.token, body: { query, mode, limit: 10 } });

async function modelOf(tenant: TestTenant, id: string): Promise<string> {
  return (await api.request('GET', `/api/v1/content/${id}`, { token: tenant.owner.token })).body.embedding?.model;
}

async function waitForEnd(tenant: TestTenant, id: string) {
  const until = Date.now() + 60_000;
  for (;;) {
    const res = await api.request('GET', `/api/v1/content/reembeddings/${id}`, { token: tenant.owner.token });
    expect(res.status).toBe(200);
    if (res.body.status !== 'running') return res.body;
    if (Date.now() > until) throw new Error(`re-embedding ${id} still running: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('a provider switch: search covers both models, then the re-embedding moves everything to the new one', async () => {
  const tenant = await createTestTenant(api);
  await useProvider(tenant, 'lexical');
  const ids: Record<string, string> = {};
  for (const [name, text] of Object.entries(TEXTS)) ids[name] = await upload(tenant, name, text);
  expect(await modelOf(tenant, ids.puncture!)).toBe(LEXICAL);

  await useProvider(tenant, 'semantic');
  // Before any re-embedding: keyword search still finds the lexical model's texts, and semantic search embeds the
  // query for them with the lexical model as well.
  const keyword = await search(tenant, 'sourdough starter', 'keyword');
  expect(keyword.status).toBe(200);
  expect(keyword.body.models).toEqual([SEMANTIC, LEXICAL]);
  expect(keyword.body.data.map((d: { content: { id: string } }) => d.content.id)).toEqual([ids.sourdough]);
  const semantic = await search(tenant, 'inner tube patch', 'semantic');
  expect(semantic.body.data[0].content.id).toBe(ids.puncture);
  // New content gets the new model; both are found side by side.
  ids.otters = await upload(tenant, 'otters', 'Sea otters float on their backs and crack shells with stones.');
  expect(await modelOf(tenant, ids.otters)).toBe(SEMANTIC);
  const mixed = await search(tenant, 'otters crack shells; sourdough starter', 'hybrid');
  expect(mixed.body.data.map((d: { content: { id: string } }) => d.content.id)).toEqual(expect.arrayContaining([ids.otters, ids.sourdough]));
  // What the lexical model cannot find yet: the meaning of "trouble sleeping" (no shared stem).
  const before = await search(tenant, 'trouble sleeping', 'semantic');
  expect(before.body.data.map((d: { content: { id: string } }) => d.content.id)).not.toContain(ids.insomnia);

  // Members may not start it; admins may.
  const member = await addTestMember(api, tenant, 'member');
  const refused = await api.request('POST', '/api/v1/content/reembeddings', { token: member.token, body: {} });
  expect(refused.status).toBe(403);
  const admin = await addTestMember(api, tenant, 'admin');
  const started = await api.request('POST', '/api/v1/content/reembeddings', { token: admin.token, body: {} });
  expect(started.status).toBe(202);
  expect(started.body).toMatchObject({ status: 'running', targetModel: SEMANTIC, targetDimensions: 100, fromModel: null, total: 3 });
  const done = await waitForEnd(tenant, started.body.id);
  expect(done).toMatchObject({ status: 'succeeded', total: 3, done: 3, skipped: 0, failed: 0, remaining: 0, lastError: null });
  expect(done.finishedAt).not.toBeNull();
  for (const id of Object.values(ids)) expect(await modelOf(tenant, id)).toBe(SEMANTIC);

  const after = await search(tenant, 'trouble sleeping', 'semantic');
  expect(after.body.models).toEqual([SEMANTIC]);
  expect(after.body.data[0].content.id).toBe(ids.insomnia);

  // Audited, listed, invisible to other organizations.
  const audit = await api.request('GET', `/api/v1/organizations/${tenant.organizationId}/audit-logs?limit=100`, { token: tenant.owner.token });
  const actions = (audit.body.data as { action: string }[]).map((a) => a.action);
  expect(actions).toEqual(expect.arrayContaining(['content.reembedding_started', 'content.reembedding_finished']));
  const list = await api.request('GET', '/api/v1/content/reembeddings', { token: member.token });
  expect(list.body).toMatchObject({ data: [{ id: started.body.id, status: 'succeeded' }], nextCursor: null });
  const other = await createTestTenant(api);
  expect((await api.request('GET', `/api/v1/content/reembeddings/${started.body.id}`, { token: other.owner.token })).status).toBe(404);
  expect((await api.request('GET', '/api/v1/content/reembeddings', { token: other.owner.token })).body.data).toEqual([]);

  // Nothing left to do: a new operation selects nothing and ends at once; the current model cannot be named.
  const empty = await api.request('POST', '/api/v1/content/reembeddings', { token: tenant.owner.token, body: {} });
  expect(empty.body.total).toBe(0);
  expect(await waitForEnd(tenant, empty.body.id)).toMatchObject({ status: 'succeeded', done: 0 });
  const same = await api.request('POST', '/api/v1/content/reembeddings', { token: tenant.owner.token, body: { model: SEMANTIC } });
  expect(same.status).toBe(422);
});

test('one at a time per organization; a cancel stops it and is audited; bad input is a 4xx', async () => {
  const tenant = await createTestTenant(api);
  // A running operation, as if its workflow were busy (its row is what a start checks).
  const [running] = await api.deps
    .db('content_reembeddings')
    .insert({ organization_id: tenant.organizationId, target_model: SEMANTIC, target_dimensions: 100, status: 'running', total: 5, workflow_id: 'content-reembed-test' })
    .returning('id');
  const conflict = await api.request('POST', '/api/v1/content/reembeddings', { token: tenant.owner.token, body: {} });
  expect(conflict.status).toBe(409);
  expect(conflict.body.error.message).toContain(running.id);
  const cancelled = await api.request('POST', `/api/v1/content/reembeddings/${running.id}/cancel`, { token: tenant.owner.token });
  expect(cancelled.status).toBe(200);
  expect(cancelled.body).toMatchObject({ status: 'cancelled', remaining: 5 });
  const again = await api.request('POST', `/api/v1/content/reembeddings/${running.id}/cancel`, { token: tenant.owner.token });
  expect(again.status).toBe(409);
  expect(again.body.error.code).toBe('INVALID_STATE');
  const audit = await api.request('GET', `/api/v1/organizations/${tenant.organizationId}/audit-logs?action=content.reembedding_cancelled`, { token: tenant.owner.token });
  expect(audit.body.data).toHaveLength(1);
  for (const [path, body, status] of [
    ['/api/v1/content/reembeddings', { model: '' }, 400],
    ['/api/v1/content/reembeddings', { everything: true }, 400],
    ['/api/v1/content/reembeddings/not-a-uuid/cancel', {}, 400],
  ] as const) {
    const res = await api.request('POST', path, { token: tenant.owner.token, body });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  }
  expect((await api.request('GET', '/api/v1/content/reembeddings?cursor=nonsense', { token: tenant.owner.token })).status).toBe(400);
});

test('resumable: a batch starts after the cursor the last one recorded, and counts once', async () => {
  const tenant = await createTestTenant(api);
  await useProvider(tenant, 'lexical');
  const ids = [];
  for (const [name, text] of Object.entries(TEXTS)) ids.push(await upload(tenant, name, text));
  ids.sort();
  await useProvider(tenant, 'semantic');
  // As if a first batch had done the first content, recorded its cursor, and the worker then died.
  const [operation] = await api.deps
    .db('content_reembeddings')
    .insert({
      organization_id: tenant.organizationId,
      target_model: SEMANTIC,
      target_dimensions: 100,
      status: 'running',
      total: 3,
      done: 1,
      cursor: ids[0],
      workflow_id: 'content-reembed-resume-test',
    })
    .returning('id');
  const vectors = createVectorStore(api.config.content, api.config.minio);
  try {
    const deps: ActivityDeps = api.deps;
    const activities = createReembeddingActivities(deps, () => vectors);
    const input = { reembeddingId: operation.id as string, organizationId: tenant.organizationId };
    expect(await activities.reembedContentBatch(input)).toEqual({ finished: false });
    expect(await activities.reembedContentBatch(input)).toEqual({ finished: true });
  } finally {
    await vectors.close();
  }
  expect(await modelOf(tenant, ids[0]!)).toBe(LEXICAL);
  expect(await modelOf(tenant, ids[1]!)).toBe(SEMANTIC);
  expect(await modelOf(tenant, ids[2]!)).toBe(SEMANTIC);
  const row = await api.deps.db('content_reembeddings').where({ id: operation.id }).first();
  expect(row).toMatchObject({ status: 'succeeded', done: 3, cursor: ids[2] });
});

test('the admin CLI starts one and shows its progress', async () => {
  const tenant = await createTestTenant(api);
  await useProvider(tenant, 'lexical');
  const id = await upload(tenant, 'sourdough', TEXTS.sourdough!);
  await useProvider(tenant, 'semantic');
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l), db: api.deps.db };
  expect(await runAdmin(['reembed', '--org', tenant.organizationId, '--model', LEXICAL], io)).toBe(0);
  expect(out[0]).toMatch(/^admin: re-embedding [0-9a-f-]{36} started: 1 content\(s\) to wink-sg-100d-sif-v1$/);
  const operationId = /re-embedding ([0-9a-f-]{36})/.exec(out[0]!)![1]!;
  expect((await waitForEnd(tenant, operationId)).status).toBe('succeeded');
  expect(await modelOf(tenant, id)).toBe(SEMANTIC);
  out.length = 0;
  expect(await runAdmin(['reembed-status', '--org', tenant.organizationId], io)).toBe(0);
  expect(out[0]).toMatch(/^ID\s+STATUS\s+MODELS\s+DONE/);
  expect(out[1]).toContain(operationId);
  expect(out[1]).toMatch(/succeeded\s+lexical-hash-384-v2 → wink-sg-100d-sif-v1\s+1\/1/);
  expect(await runAdmin(['reembed', '--org', '00000000-0000-4000-8000-000000000000'], io)).toBe(1);
  expect(err.pop()).toMatch(/no organization/);
  const audit = await api.deps.db('audit_logs').where({ organization_id: tenant.organizationId, action: 'content.reembedding_started' }).first();
  expect(audit).toMatchObject({ actor_type: 'system', actor_id: 'admin-cli' });
});
