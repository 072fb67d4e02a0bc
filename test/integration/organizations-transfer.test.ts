import { randomUUID } from 'node:crypto';
import { uploadContent, waitForProcessing } from '../helpers/content';
import { startApi, type TestApi } from '../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant } from '../helpers/tenants';

/**
 * Export on demand and import into a new organization (issue 43): a round trip compares the organization before
 * the export with the one the import made, through the API only.
 */
let api: TestApi;

beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const echo = { id: 'echo', type: 'tool', config: { tool: 'json_transform', config: { expression: '$' } } };

async function snapshot(t: TestTenant) {
  const get = (path: string) => api.request('GET', path, { token: t.owner.token });
  const content = (await api.request('POST', '/api/v1/content/query', { token: t.owner.token, body: { sort: { field: 'title', direction: 'asc' }, limit: 100 } })).body.data as {
    id: string;
    title: string;
    tags: string[];
    metadata: Record<string, unknown>;
  }[];
  const items = [];
  for (const c of content) {
    const versions = (await get(`/api/v1/content/${c.id}/versions`)).body.data as { version: number; sha256: string; size: number; filename: string }[];
    const bytes = [];
    for (const v of [...versions].sort((a, b) => a.version - b.version)) {
      bytes.push((await get(`/api/v1/content/${c.id}/download?version=${v.version}`)).text);
    }
    items.push({
      title: c.title,
      tags: [...c.tags].sort(),
      metadata: c.metadata,
      versions: versions.map((v) => ({ version: v.version, sha256: v.sha256, size: v.size, filename: v.filename })).sort((a, b) => a.version - b.version),
      bytes,
    });
  }
  const workflows = [];
  for (const w of (await get('/api/v1/workflows?limit=100')).body.data as { id: string; name: string; status: string; description: string }[]) {
    const versions = (await get(`/api/v1/workflows/${w.id}/versions?limit=100`)).body.data as { version: number }[];
    const detail = (await get(`/api/v1/workflows/${w.id}`)).body;
    workflows.push({ name: w.name, description: w.description, versions: versions.length, dag: detail.dag, triggers: detail.triggers, parameters: detail.parameters, status: w.status });
  }
  workflows.sort((a, b) => a.name.localeCompare(b.name));
  const models = (await get('/api/v1/embedding-models')).body.data.map((m: { name: string; dimensions: number; provider: string }) => ({ name: m.name, dimensions: m.dimensions, provider: m.provider }));
  return { items, workflows, models };
}

test('an organization exported on demand and imported into a new one comes back: content, versions, workflows, triggers, models, vectors, members', async () => {
  const source = await createTestTenant(api);
  const token = source.owner.token;
  // Content: one with two versions, tags and metadata; one with a caller-supplied vector of a custom model.
  const first = await uploadContent(api, token, { bytes: Buffer.from('contract, first draft'), filename: 'contract.txt', title: 'Contract', tags: ['legal', '2026'], metadata: { author: 'Ann', pages: 3 } });
  expect(first.status).toBe(201);
  const second = await uploadContent(api, token, { bytes: Buffer.from('contract, signed'), filename: 'contract-signed.txt' }, `/api/v1/content/${first.body.id}/versions`);
  expect(second.status).toBe(201);
  const notes = await uploadContent(api, token, { bytes: Buffer.from('Notes about penguins and krill.'), filename: 'notes.md', title: 'Notes' });
  for (const id of [first.body.id, notes.body.id]) await waitForProcessing(api, token, id);
  expect((await api.request('POST', '/api/v1/embedding-models', { token, body: { name: 'in-house-3d', dimensions: 3, provider: 'in-house' } })).status).toBe(201);
  const vector = [0.6, 0.0, 0.8];
  expect((await api.request('PUT', `/api/v1/content/${notes.body.id}/embedding`, { token, body: { vector, model: 'in-house-3d' } })).status).toBe(200);
  // Workflows: a subworkflow, and one calling it with a schedule trigger and two versions; a secret; a member.
  const child = await api.request('POST', '/api/v1/workflows', { token, body: { name: 'child', dag: { nodes: [echo] } } });
  expect(child.status).toBe(201);
  const parent = await api.request('POST', '/api/v1/workflows', {
    token,
    body: {
      name: 'parent',
      description: 'nightly',
      dag: { nodes: [{ id: 'call', type: 'subworkflow', config: { workflow_id: child.body.id } }] },
      triggers: [{ id: 'nightly', type: 'schedule', config: { cron: '0 3 * * *', timezone: 'UTC' } }],
    },
  });
  expect(parent.status).toBe(201);
  expect((await api.request('PUT', `/api/v1/workflows/${parent.body.id}`, { token, body: { description: 'nightly, v2', dag: { nodes: [{ id: 'call', type: 'subworkflow', config: { workflow_id: child.body.id } }, { ...echo, id: 'after' }], edges: [{ from: 'call', to: 'after' }] } } })).status).toBe(200);
  expect((await api.request('PUT', '/api/v1/secrets/CRM_TOKEN', { token, body: { value: 'crm-secret-value-123' } })).status).toBe(201);
  const member = await addTestMember(api, source, 'admin');

  // Export on demand: owners only.
  expect((await api.request('POST', `/api/v1/organizations/${source.organizationId}/exports`, { token: member.token })).status).toBe(403);
  const started = await api.request('POST', `/api/v1/organizations/${source.organizationId}/exports`, { token });
  expect(started.status).toBe(202);
  const done = await until(
    'export',
    async () => (await api.request('GET', `/api/v1/organizations/${source.organizationId}/exports/${started.body.id}`, { token })).body,
    (b) => b.status !== 'running',
  );
  expect(done).toMatchObject({ status: 'succeeded', downloadUrl: expect.stringMatching(/^http/), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
  const archive = Buffer.from(await (await fetch(done.downloadUrl)).arrayBuffer());
  expect(archive.length).toBe(done.bytes);
  expect(JSON.stringify(archive)).not.toContain('crm-secret-value-123');

  // Import into a new organization.
  const target = await createTestTenant(api);
  const form = () => {
    const body = new FormData();
    body.append('file', new Blob([archive], { type: 'application/gzip' }), 'export.tar.gz');
    return body;
  };
  const post = (t: TestTenant, body: FormData, as = t.owner.token) =>
    fetch(`${api.baseUrl}/api/v1/organizations/${t.organizationId}/imports`, { method: 'POST', headers: { authorization: `Bearer ${as}` }, body });
  const refused = await post(target, form(), (await addTestMember(api, target, 'admin')).token);
  expect(refused.status).toBe(403);
  const importing = await post(target, form());
  expect(importing.status).toBe(202);
  const importId = ((await importing.json()) as { id: string }).id;
  const imported = await until(
    'import',
    async () => (await api.request('GET', `/api/v1/organizations/${target.organizationId}/imports/${importId}`, { token: target.owner.token })).body,
    (b) => b.status !== 'running',
  );
  expect(imported.status).toBe('succeeded');
  expect(imported.result).toMatchObject({
    source: { organizationId: source.organizationId, formatVersion: 2 },
    content: { items: 2, versions: 3, skipped: 0 },
    workflows: { created: 2, versions: 3, failed: 0 },
    embeddingModels: 1,
    vectors: 1,
    secretsToSet: ['CRM_TOKEN'],
    problems: [],
  });

  const before = await snapshot(source);
  const after = await snapshot(target);
  expect(after.items).toEqual(before.items);
  expect(after.models).toEqual(before.models);
  // Workflows come back with every version, as drafts: their triggers wait for an admin to enable them.
  expect(after.workflows.map(({ status: _s, dag: _d, ...w }) => w)).toEqual(before.workflows.map(({ status: _s, dag: _d, ...w }) => w));
  expect(after.workflows.every((w) => w.status === 'draft')).toBe(true);
  // The subworkflow reference points at the imported child, not the source's.
  const importedChild = ((await api.request('GET', '/api/v1/workflows?limit=100', { token: target.owner.token })).body.data as { id: string; name: string }[]).find((w) => w.name === 'child')!;
  const parentDag = after.workflows.find((w) => w.name === 'parent')!.dag as { nodes: { id: string; config: { workflow_id?: string } }[] };
  expect(parentDag.nodes.find((n) => n.id === 'call')!.config.workflow_id).toBe(importedChild.id);
  // The caller-supplied vector travelled; the member is invited with their role.
  const notesInTarget = ((await api.request('POST', '/api/v1/content/query', { token: target.owner.token, body: { filter: { titleContains: 'Notes' } } })).body.data as { id: string }[])[0]!;
  const embedding = await api.request('GET', `/api/v1/content/${notesInTarget.id}/embedding`, { token: target.owner.token });
  const original = await api.request('GET', `/api/v1/content/${notes.body.id}/embedding`, { token });
  expect(embedding.body).toMatchObject({ model: 'in-house-3d', vector: original.body.vector, source: 'provided' });
  expect(original.body.vector[0]).toBeCloseTo(vector[0]!, 6);
  const invitations = (await api.request('GET', `/api/v1/organizations/${target.organizationId}/invitations`, { token: target.owner.token })).body.data as { email: string; role: string }[];
  expect(invitations).toEqual(expect.arrayContaining([expect.objectContaining({ email: member.email, role: 'admin' })]));

  // An organization with data is not imported into again.
  const again = await post(target, form());
  expect(again.status).toBe(409);
});

test('an archive that is not an export fails the import with the reason, and leaves nothing', async () => {
  const target = await createTestTenant(api);
  const body = new FormData();
  body.append('file', new Blob([Buffer.from(`not an archive ${randomUUID()}`)]), 'x.tar.gz');
  const res = await fetch(`${api.baseUrl}/api/v1/organizations/${target.organizationId}/imports`, { method: 'POST', headers: { authorization: `Bearer ${target.owner.token}` }, body });
  expect(res.status).toBe(202);
  const id = ((await res.json()) as { id: string }).id;
  const failed = await until(
    'import',
    async () => (await api.request('GET', `/api/v1/organizations/${target.organizationId}/imports/${id}`, { token: target.owner.token })).body,
    (b) => b.status !== 'running',
  );
  expect(failed.status).toBe('failed');
  expect(failed.error).toMatch(/not a valid organization export/);
  expect((await api.request('GET', '/api/v1/workflows', { token: target.owner.token })).body.data).toEqual([]);
  // Another tenant cannot read it.
  const other = await createTestTenant(api);
  expect((await api.request('GET', `/api/v1/organizations/${target.organizationId}/imports/${id}`, { token: other.owner.token })).status).toBe(404);
});
