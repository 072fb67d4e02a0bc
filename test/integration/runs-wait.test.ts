import { randomUUID } from 'node:crypto';
import { createRunFinishNotices } from '../../domain/runs/finishNotices';
import { createWorkflowFixture, RUN_TEST_CONFIG, toolNode, waitForRun } from '../helpers/runs';
import type { TestApi } from '../helpers/stack';
import { createTestTenant, startApiWithTenant, type TestTenant } from '../helpers/tenants';

/** Run and wait (docs/runs.md#run-and-wait): the API start and webhook triggers, with and without Idempotency-Key. */

let api: TestApi;
let tenant: TestTenant;
let token: string;
let slug: string;

beforeAll(async () => {
  // RUN_WAIT_MAX is lowered so the cap can be seen without a long test.
  ({ api, tenant, token } = await startApiWithTenant({ ...RUN_TEST_CONFIG, RUN_WAIT_MAX: '3s' }));
  slug = (await api.deps.db('organizations').where({ id: tenant.organizationId }).first('slug')).slug;
});
afterAll(() => api.close());

const transform = (id: string, expression: string, data: unknown = null) => toolNode(id, 'json_transform', { expression, data });
const runsPath = (workflowId: string) => `/api/v1/workflows/${workflowId}/runs`;

async function runCount(workflowId: string): Promise<number> {
  const [{ count }] = await api.deps.db('workflow_runs').where({ workflow_id: workflowId }).count<{ count: string }[]>('* as count');
  return Number(count);
}

describe('POST /api/v1/workflows/{id}/runs with a wait', () => {
  let quick: string;
  let slow: string;
  beforeAll(async () => {
    quick = await createWorkflowFixture(api, tenant, { nodes: [transform('double', '{"n": n * 2}', { n: 21 })] });
    slow = await createWorkflowFixture(api, tenant, { nodes: [toolNode('wait', 'delay', { ms: 2500 }), transform('after', '{"done": true}')], edges: [{ from: 'wait', to: 'after' }] });
  });

  test('?wait= answers 200 with the finished run, as GET shows it right after', async () => {
    const res = await api.request('POST', `${runsPath(quick)}?wait=20s`, { token, body: { parameters: {} } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', results: { double: { result: { n: 42 } } }, errors: [] });
    expect(res.body.completed_at).toEqual(expect.any(String));
    expect(res.body.node_states.double.status).toBe('completed');
    expect(res.headers.get('location')).toBe(`${runsPath(quick)}/${res.body.id}`);
    const got = await api.request('GET', `${runsPath(quick)}/${res.body.id}`, { token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  test('the run answer links its picture page (start and GET)', async () => {
    const res = await api.request('POST', runsPath(quick), { token, body: {} });
    expect(res.status).toBe(201);
    const picture = `${api.config.http.publicUrl.replace(/\/$/, '')}/ui/workflows/${quick}/runs/${res.body.id}/picture`;
    expect(res.body.links.picture).toBe(picture);
    const got = await api.request('GET', `${runsPath(quick)}/${res.body.id}`, { token });
    expect(got.body.links.picture).toBe(picture);
    const page = await api.request('GET', new URL(picture).pathname);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
  });

  test('Prefer: wait=<seconds> is the same, and says Preference-Applied', async () => {
    const res = await api.request('POST', runsPath(quick), { token, body: {}, headers: { prefer: 'return=representation, wait=20' } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    expect(res.headers.get('preference-applied')).toBe('wait=3');
  });

  test('a failed run is a finished run: 200 with its errors', async () => {
    const failing = await createWorkflowFixture(api, tenant, { nodes: [toolNode('boom', 'fail', { mode: 'non_retryable', code: 'BOOM', message: 'it broke' })] });
    const res = await api.request('POST', `${runsPath(failing)}?wait=20s`, { token, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('failed');
    expect(res.body.errors[0]).toMatchObject({ node: 'boom', message: expect.stringContaining('it broke') });
  });

  test('a wait shorter than the run answers 202 with the run as it is and Location', async () => {
    const began = Date.now();
    const res = await api.request('POST', `${runsPath(slow)}?wait=600ms`, { token, body: {} });
    const took = Date.now() - began;
    expect(res.status).toBe(202);
    expect(['pending', 'running']).toContain(res.body.status);
    expect(res.body.id).toEqual(expect.any(String));
    expect(res.body.completed_at).toBeNull();
    expect(res.headers.get('location')).toBe(`${runsPath(slow)}/${res.body.id}`);
    expect(took).toBeGreaterThanOrEqual(550);
    expect(took).toBeLessThan(2400);
    const finished = await waitForRun(api, token, slow, res.body.id);
    expect(finished.status).toBe('completed');
  });

  test('a wait beyond RUN_WAIT_MAX is shortened to it', async () => {
    const began = Date.now();
    const res = await api.request('POST', `${runsPath(slow)}?wait=10m`, { token, body: {} });
    expect(res.status).toBe(200); // 2.5 s of run fits in the 3 s cap
    expect(Date.now() - began).toBeLessThan(9000);
    const longer = await createWorkflowFixture(api, tenant, { nodes: [toolNode('wait', 'delay', { ms: 8000 })] });
    const capped = Date.now();
    const open = await api.request('POST', `${runsPath(longer)}?wait=10m`, { token, body: {} });
    const took = Date.now() - capped;
    expect(open.status).toBe(202);
    expect(took).toBeGreaterThanOrEqual(2900);
    expect(took).toBeLessThan(7000);
  });

  test('no wait, ?wait=0 and an unreadable Prefer answer 201 at once; a bad ?wait= is a 400', async () => {
    for (const res of [
      await api.request('POST', runsPath(slow), { token, body: {} }),
      await api.request('POST', `${runsPath(slow)}?wait=0`, { token, body: {} }),
      await api.request('POST', runsPath(slow), { token, body: {}, headers: { prefer: 'wait=soon' } }),
    ]) {
      expect(res.status).toBe(201);
      expect(res.body.status).toBe('pending');
    }
    const bad = await api.request('POST', `${runsPath(slow)}?wait=forever`, { token, body: {} });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: 'query.wait' })] });
  });

  test('another organization\'s workflow: 404, nothing started', async () => {
    const other = await createTestTenant(api);
    const res = await api.request('POST', `${runsPath(quick)}?wait=5s`, { token: other.owner.token, body: {} });
    expect(res.status).toBe(404);
  });

  test('Idempotency-Key: a repeat starts nothing and waits for the first request\'s run', async () => {
    const key = `wait-${randomUUID()}`;
    const before = await runCount(slow);
    // The first request does not wait: its stored answer is the created run.
    const first = await api.request('POST', runsPath(slow), { token, body: {}, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(201);
    // The repeat asks to wait (a header, not part of the request's fingerprint): same run, finished.
    const repeat = await api.request('POST', runsPath(slow), { token, body: {}, headers: { 'idempotency-key': key, prefer: 'wait=20' } });
    expect(repeat.status).toBe(200);
    expect(repeat.headers.get('idempotent-replayed')).toBe('true');
    expect(repeat.body.id).toBe(first.body.id);
    expect(repeat.body.status).toBe('completed');
    expect(await runCount(slow)).toBe(before + 1);
    // The same request with the same wait again: the same finished run.
    const again = await api.request('POST', runsPath(slow), { token, body: {}, headers: { 'idempotency-key': key, prefer: 'wait=20' } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(repeat.body);
    expect(await runCount(slow)).toBe(before + 1);
  });

  test('Idempotency-Key: a duplicate sent while the first request waits waits for the same run', async () => {
    const key = `wait-${randomUUID()}`;
    const before = await runCount(slow);
    const firstP = api.request('POST', `${runsPath(slow)}?wait=3s`, { token, body: {}, headers: { 'idempotency-key': key } });
    await new Promise((r) => setTimeout(r, 800));
    const dup = await api.request('POST', `${runsPath(slow)}?wait=3s`, { token, body: {}, headers: { 'idempotency-key': key } });
    const first = await firstP;
    expect(first.status).toBe(200);
    expect(dup.status).toBe(200);
    expect(dup.headers.get('idempotent-replayed')).toBe('true');
    expect(dup.body.id).toBe(first.body.id);
    expect(await runCount(slow)).toBe(before + 1);
  });
});

describe('webhook triggers with Prefer: wait', () => {
  let workflowId: string;
  let secret: string;
  const hook = (path: string) => `/api/hooks/${slug}/${path}`;

  beforeAll(async () => {
    const created = await api.request('POST', '/api/v1/workflows', {
      token,
      body: {
        name: `wait hook ${randomUUID().slice(0, 6)}`,
        dag: {
          nodes: [
            { id: 'pause', type: 'tool', config: { tool: 'delay', config: { ms: '${params.ms}' } } },
            { id: 'echo', type: 'tool', config: { tool: 'json_transform', config: { expression: '{"got": n}', data: { n: '${params.n}' } } } },
          ],
          edges: [{ from: 'pause', to: 'echo' }],
        },
        parameters: [
          { name: 'n', type: 'integer', required: true },
          { name: 'ms', type: 'integer', default: 0 },
        ],
        triggers: [{ id: 'calc', type: 'webhook', config: { path: 'calc', method: 'POST', authentication: 'bearer', parameters: { n: 'body.n', ms: 'body.ms' } } }],
      },
    });
    expect(created.status).toBe(201);
    workflowId = created.body.id;
    expect((await api.request('POST', `/api/v1/workflows/${workflowId}/activate`, { token })).status).toBe(200);
    const res = await api.request('POST', `/api/v1/workflows/${workflowId}/triggers/calc/secret`, { token });
    expect(res.status).toBe(201);
    secret = res.body.secret;
  });

  test('the caller gets the run\'s results in the answer', async () => {
    const res = await api.request('POST', hook('calc'), { body: { n: 7 }, headers: { authorization: `Bearer ${secret}`, prefer: 'wait=20' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ workflow_id: workflowId, status: 'completed', results: { echo: { result: { got: 7 } } }, errors: [] });
    expect(res.body.completed_at).toEqual(expect.any(String));
    expect(res.headers.get('location')).toBe(`/api/v1/workflows/${workflowId}/runs/${res.body.run_id}`);
    expect(res.headers.get('preference-applied')).toBe('wait=3');
    // the row the answer came from is final
    const run = await api.request('GET', `/api/v1/workflows/${workflowId}/runs/${res.body.run_id}`, { token });
    expect(run.body.status).toBe('completed');
    expect(run.body.results).toEqual(res.body.results);
  });

  test('without a wait the answer is 202 at once, as before', async () => {
    const res = await api.request('POST', hook('calc'), { body: { n: 1 }, headers: { authorization: `Bearer ${secret}` } });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ run_id: expect.any(String), workflow_id: workflowId, status: 'pending' });
  });

  test('a wait shorter than the run: 202 with the run\'s status', async () => {
    const res = await api.request('POST', hook('calc'), { body: { n: 2, ms: 4000 }, headers: { authorization: `Bearer ${secret}`, prefer: 'wait=1' } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ run_id: expect.any(String), workflow_id: workflowId, status: expect.stringMatching(/^(pending|running)$/) });
    expect(res.body.results).toBeUndefined();
  });

  test('a repeated delivery (Idempotency-Key) waits for the first run and answers its results', async () => {
    const key = `hook-${randomUUID()}`;
    const headers = { authorization: `Bearer ${secret}`, 'idempotency-key': key };
    const first = await api.request('POST', hook('calc'), { body: { n: 5, ms: 1200 }, headers });
    expect(first.status).toBe(202);
    const before = await runCount(workflowId);
    const retry = await api.request('POST', hook('calc'), { body: { n: 5, ms: 1200 }, headers: { ...headers, prefer: 'wait=20' } });
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toMatchObject({ run_id: first.body.run_id, status: 'completed', replayed: true, results: { echo: { result: { got: 5 } } } });
    expect(await runCount(workflowId)).toBe(before);
  });
});

test('a run\'s row turning final sends its notice, which wakes a waiter; other updates do not', async () => {
  const workflowId = await createWorkflowFixture(api, tenant, { nodes: [transform('x', '1')] });
  const id = randomUUID();
  await api.deps.db('workflow_runs').insert({ id, organization_id: tenant.organizationId, workflow_id: workflowId, workflow_version: 1, status: 'pending' });
  const notices = createRunFinishNotices(api.deps.db);
  const stop = new AbortController();
  let woken = false;
  const next = notices.next(id, stop.signal).then(() => {
    woken = true;
  });
  await new Promise((r) => setTimeout(r, 300)); // LISTEN in place
  await api.deps.db('workflow_runs').where({ id }).update({ status: 'running' });
  await api.deps.db('workflow_runs').where({ id }).update({ node_states: JSON.stringify({ x: { status: 'running' } }) });
  await new Promise((r) => setTimeout(r, 300));
  expect(woken).toBe(false);
  const t0 = Date.now();
  await api.deps.db('workflow_runs').where({ id }).update({ status: 'completed', completed_at: new Date() });
  await next;
  expect(Date.now() - t0).toBeLessThan(1000);
  // a waiter that gave up is simply forgotten
  const other = new AbortController();
  const pending = notices.next(randomUUID(), other.signal);
  other.abort();
  await expect(Promise.race([pending.then(() => 'woken'), new Promise((r) => setTimeout(() => r('still waiting'), 100))])).resolves.toBe('still waiting');
  stop.abort();
});
