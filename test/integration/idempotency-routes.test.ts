import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';
import { createWorkflowFixture, RUN_TEST_CONFIG, toolNode } from '../helpers/runs';

/** `Idempotency-Key` on the routes that create things a client retries: run creation and content uploads. */

let api: TestApi;
let tenant: TestTenant;
let workflowId: string;

beforeAll(async () => {
  api = await startApi(RUN_TEST_CONFIG);
  tenant = await createTestTenant(api);
  workflowId = await createWorkflowFixture(api, tenant, {
    parameters: [{ name: 'n', type: 'number', required: false }],
    nodes: [toolNode('only', 'json_transform', { expression: '$', data: 1 })],
  });
});
afterAll(async () => {
  await api.close();
});

const startRun = (key: string, parameters: Record<string, unknown>) =>
  api.request('POST', `/api/v1/workflows/${workflowId}/runs`, {
    token: tenant.owner.token,
    headers: { 'Idempotency-Key': key },
    body: { parameters },
  });

const runRows = (id: string) => api.deps.db('workflow_runs').where({ workflow_id: id }).count<{ count: string }[]>({ count: '*' });

describe('POST /api/v1/workflows/{id}/runs', () => {
  test('the same key and body twice answer the same run, and only one run exists', async () => {
    const before = Number((await runRows(workflowId))[0]!.count);
    const first = await startRun('run-key-1', { n: 1 });
    expect(first.status).toBe(201);
    const second = await startRun('run-key-1', { n: 1 });
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(Number((await runRows(workflowId))[0]!.count)).toBe(before + 1);
  });

  test('the same key with a different body is a 409 IDEMPOTENCY_CONFLICT and starts nothing', async () => {
    const first = await startRun('run-key-2', { n: 1 });
    expect(first.status).toBe(201);
    const before = Number((await runRows(workflowId))[0]!.count);
    const other = await startRun('run-key-2', { n: 2 });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(Number((await runRows(workflowId))[0]!.count)).toBe(before);
  });

  test('without a key every request starts a run', async () => {
    const a = await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, { token: tenant.owner.token, body: { parameters: {} } });
    const b = await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, { token: tenant.owner.token, body: { parameters: {} } });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(a.body.id).not.toBe(b.body.id);
  });

  test('keys are per organization: another tenant may use the same key', async () => {
    const other = await createTestTenant(api);
    const otherWorkflow = await createWorkflowFixture(api, other, { nodes: [toolNode('only', 'json_transform', { expression: '$', data: 1 })] });
    const mine = await startRun('shared-key', {});
    const theirs = await api.request('POST', `/api/v1/workflows/${otherWorkflow}/runs`, {
      token: other.owner.token,
      headers: { 'Idempotency-Key': 'shared-key' },
      body: { parameters: {} },
    });
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(mine.body.id);
  });
});

describe('POST /api/v1/content (streamed multipart)', () => {
  /** A fresh FormData per call: each gets its own multipart boundary, as a real client retry would. */
  const upload = (key: string, bytes: string, headers: Record<string, string> = {}) => {
    const form = new FormData();
    form.append('title', 'idempotent upload');
    form.append('file', new Blob([Buffer.from(bytes)], { type: 'text/plain' }), 'note.txt');
    return fetch(`${api.baseUrl}/api/v1/content`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.owner.token}`, 'Idempotency-Key': key, ...headers },
      body: form,
    }).then(async (res) => ({ status: res.status, headers: res.headers, body: JSON.parse(await res.text()) }));
  };
  const contentRows = () =>
    api.deps.db('content').where({ organization_id: tenant.organizationId }).count<{ count: string }[]>({ count: '*' });

  test('a retried upload (new boundary) with the same key answers the first content, stored once', async () => {
    const before = Number((await contentRows())[0]!.count);
    const first = await upload('upload-key-1', 'hello idempotent world');
    expect(first.status).toBe(201);
    const second = await upload('upload-key-1', 'hello idempotent world');
    expect(second.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(Number((await contentRows())[0]!.count)).toBe(before + 1);
  });

  test('the same key with a different length, or a different Content-Digest, is a 409', async () => {
    expect((await upload('upload-key-2', 'abc')).status).toBe(201);
    const longer = await upload('upload-key-2', 'abcdef');
    expect(longer.status).toBe(409);
    expect(longer.body.error.code).toBe('IDEMPOTENCY_CONFLICT');

    expect((await upload('upload-key-3', 'xyz', { 'Content-Digest': 'sha-256=:one:' })).status).toBe(201);
    const sameLengthOtherDigest = await upload('upload-key-3', 'xyw', { 'Content-Digest': 'sha-256=:two:' });
    expect(sameLengthOtherDigest.status).toBe(409);
  });
});
