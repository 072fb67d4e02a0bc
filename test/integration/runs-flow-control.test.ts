import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestApi } from '../helpers/stack';
import { startApiWithTenant, type TestTenant } from '../helpers/tenants';
import { maxOverlap, waitForRun, type RunBody } from '../helpers/runs';

/**
 * Flow control of runs (docs/runs.md#flow-control) against the real stack: concurrency (queue, per key, priority,
 * cancel_oldest, drop_newest, round_robin), throttle, debounce (last and first), singleton, the flow state, the run
 * view of a queued run, and the save-time and start-time checks. Each control is checked by exact orderings and
 * counts read from the runs' own node states (when their first node started and ended).
 */

let api: TestApi;
let token: string;
let tenant: TestTenant;

beforeAll(async () => {
  ({ api, token, tenant } = await startApiWithTenant());
});
afterAll(() => api.close());

const FINAL = ['completed', 'failed', 'cancelled'];

/** A workflow of one wait node (`work`, for `duration`) with a `customer` parameter and the given flow control. */
async function flowWorkflow(flow: unknown, duration = '1s'): Promise<string> {
  const res = await api.request('POST', '/api/v1/workflows', {
    token,
    body: {
      name: 'flow control',
      parameters: [{ name: 'customer', type: 'string' }, { name: 'n', type: 'integer' }],
      dag: { nodes: [{ id: 'work', type: 'wait', config: { duration } }] },
      flow,
    },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function start(workflowId: string, parameters: Record<string, unknown> = {}, priority?: number): Promise<RunBody> {
  const res = await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, { token, body: { parameters, ...(priority ? { priority } : {}) } });
  expect([200, 201]).toContain(res.status);
  return { ...res.body, singleton: res.headers.get('loom-singleton'), httpStatus: res.status };
}

const finished = (workflowId: string, runId: string, timeoutMs = 60_000) => waitForRun(api, token, workflowId, runId, (r) => FINAL.includes(r.status), timeoutMs);

/** When each run's `work` node started and ended. */
const spanOf = (run: RunBody) => ({ id: run.id, start: Date.parse(run.node_states.work.startedAt), end: Date.parse(run.node_states.work.finishedAt) });


test('concurrency per key, queued in order: at most one run per customer at a time, other customers not held back', async () => {
  const workflowId = await flowWorkflow({ concurrency: { limit: 1, key: 'params.customer' } });
  // The first takes the free place; the next two queue behind it and go in the order they were started (each run
  // reaches the gate from its own first workflow task, so the order of arrival may differ).
  const acme = [await start(workflowId, { customer: 'acme', n: 0 })];
  await waitForRun(api, token, workflowId, acme[0].id, (r) => r.status === 'running', 15_000);
  for (let i = 1; i < 3; i++) acme.push(await start(workflowId, { customer: 'acme', n: i }));
  const globex = await start(workflowId, { customer: 'globex' });
  expect(acme.slice(1).map((r) => r.status)).toEqual(['pending', 'pending']);

  // The third acme run waits for the first two: its view says why, and the flow state counts it.
  const queued = await waitForRun(api, token, workflowId, acme[2].id, (r) => r.flow?.waiting_for === 'concurrency', 15_000);
  expect(queued).toMatchObject({ status: 'pending', flow: { keys: { concurrency: 'acme' }, waiting_for: 'concurrency' } });
  const state = await api.request('GET', `/api/v1/workflows/${workflowId}/flow`, { token });
  expect(state.status).toBe(200);
  expect(state.body.flow).toMatchObject({ concurrency: { limit: 1, key: 'params.customer', strategy: 'queue' } });
  expect(state.body.groups.find((g: { key: string }) => g.key === 'acme')).toMatchObject({ running: 1 });

  const runs = await Promise.all([...acme, globex].map((r) => finished(workflowId, r.id)));
  expect(runs.map((r) => r.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
  const acmeSpans = runs.slice(0, 3).map(spanOf);
  expect(maxOverlap(acmeSpans)).toBe(1);
  // Arrival order.
  expect([...acmeSpans].sort((a, b) => a.start - b.start).map((s) => s.id)).toEqual(acme.map((r) => r.id));
  // globex ran beside acme's first run, not after acme's queue.
  expect(spanOf(runs[3]).start).toBeLessThan(acmeSpans[1]!.start);
});

test('priority: queued runs start lowest number first, then in arrival order', async () => {
  const workflowId = await flowWorkflow({ concurrency: { limit: 1 } }, '700ms');
  const blocker = await start(workflowId);
  await waitForRun(api, token, workflowId, blocker.id, (r) => r.status === 'running', 15_000);
  const low = await start(workflowId, {}, 5);
  const urgent = await start(workflowId, {}, 1);
  const normal = await start(workflowId);
  expect([low.priority, urgent.priority, normal.priority]).toEqual([5, 1, null]);
  const runs = await Promise.all([low, urgent, normal].map((r) => finished(workflowId, r.id)));
  const order = runs.map(spanOf).sort((a, b) => a.start - b.start).map((s) => s.id);
  expect(order).toEqual([urgent.id, normal.id, low.id]);
});

test('cancel_oldest: the running run is cancelled and the new one starts once it has ended; never two at once', async () => {
  const workflowId = await flowWorkflow({ concurrency: { limit: 1, strategy: 'cancel_oldest' } }, '10m');
  const old = await start(workflowId);
  await waitForRun(api, token, workflowId, old.id, (r) => r.status === 'running', 15_000);
  const fresh = await start(workflowId);
  const cancelled = await finished(workflowId, old.id);
  expect(cancelled.status).toBe('cancelled');
  const running = await waitForRun(api, token, workflowId, fresh.id, (r) => r.status === 'running', 15_000);
  expect(Date.parse(running.node_states.work.startedAt)).toBeGreaterThanOrEqual(Date.parse(cancelled.completed_at));
  await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${fresh.id}/cancel`, { token });
  expect((await finished(workflowId, fresh.id)).status).toBe('cancelled');
});

test('drop_newest: a run that finds its key full is cancelled with FLOW_DROPPED; another key still runs', async () => {
  const workflowId = await flowWorkflow({ concurrency: { limit: 1, key: 'params.customer', strategy: 'drop_newest' } }, '2s');
  const first = await start(workflowId, { customer: 'acme' });
  await waitForRun(api, token, workflowId, first.id, (r) => r.status === 'running', 15_000);
  const dropped = await finished(workflowId, (await start(workflowId, { customer: 'acme' })).id);
  expect(dropped.status).toBe('cancelled');
  expect(dropped.errors).toEqual([expect.objectContaining({ code: 'FLOW_DROPPED', message: expect.stringContaining('1 runs of the same key') })]);
  expect(dropped.node_states.work.status).toBe('cancelled');
  const other = await finished(workflowId, (await start(workflowId, { customer: 'globex' })).id);
  expect(other.status).toBe('completed');
  expect((await finished(workflowId, first.id)).status).toBe('completed');
});

test('round_robin: one run at a time across keys, started in turn so one busy key does not starve the others', async () => {
  // Each run long enough that all eight starts arrive while the first one runs: with 300 ms runs, on the Temporal
  // cluster under a full test run, a second run of the busy key started before the other keys' starts arrived.
  const workflowId = await flowWorkflow({ concurrency: { limit: 1, key: 'params.customer', strategy: 'round_robin' } }, '1s');
  const started: RunBody[] = [];
  // A busy key queues first; the others arrive after it.
  for (let i = 0; i < 4; i++) started.push(await start(workflowId, { customer: 'a', n: i }));
  for (const customer of ['b', 'c']) for (let i = 0; i < 2; i++) started.push(await start(workflowId, { customer, n: i }));
  const runs = await Promise.all(started.map((r) => finished(workflowId, r.id)));
  expect(runs.every((r) => r.status === 'completed')).toBe(true);
  expect(maxOverlap(runs.map(spanOf))).toBe(1);
  const order = runs
    .map((r) => ({ ...spanOf(r), customer: r.parameters.customer as string }))
    .sort((a, b) => a.start - b.start)
    .map((s) => s.customer)
    .join('');
  // a1 may start before b and c arrive; from then on the keys take turns.
  expect(order.slice(1)).toMatch(/^(abc|bca|cab|acb|bac|cba)/);
  expect(order).not.toContain('aaa');
});

test('throttle: at most 2 starts per 2 s, the rest queued and started as the period frees, none refused', async () => {
  const workflowId = await flowWorkflow({ throttle: { limit: 2, period: '2s' } }, '100ms');
  const started = [];
  for (let i = 0; i < 5; i++) started.push(await start(workflowId, { n: i }));
  const runs = await Promise.all(started.map((r) => finished(workflowId, r.id)));
  expect(runs.map((r) => r.status)).toEqual(Array(5).fill('completed'));
  // A held run's started_at is when its gate admitted it (by the gate's clock): 2 apart are at least 2 s apart.
  const starts = runs.map((r) => Date.parse(r.started_at)).sort((a, b) => a - b);
  for (let i = 2; i < starts.length; i++) expect(starts[i]! - starts[i - 2]!).toBeGreaterThanOrEqual(2000);
  // and the node starts after it
  for (const r of runs) expect(spanOf(r).start).toBeGreaterThanOrEqual(Date.parse(r.started_at));
  expect(starts[4]! - starts[0]!).toBeLessThan(8000);
});

test('debounce last: a burst of one key runs once, the last start with its parameters; the replaced runs say so', async () => {
  const workflowId = await flowWorkflow({ debounce: { period: '1500ms', key: 'params.customer' } }, '100ms');
  const burst = [];
  for (let i = 0; i < 4; i++) burst.push(await start(workflowId, { customer: 'acme', n: i }));
  const other = await start(workflowId, { customer: 'globex', n: 9 });
  const runs = await Promise.all([...burst, other].map((r) => finished(workflowId, r.id)));
  expect(runs.map((r) => r.status)).toEqual(['cancelled', 'cancelled', 'cancelled', 'completed', 'completed']);
  const replacedBy = /^replaced by a newer run of the same key \(([0-9a-f-]{36})\)$/.exec(runs[0].errors[0].message);
  expect(runs[0].errors[0].code).toBe('DEBOUNCED');
  expect(burst.slice(1).map((r) => r.id)).toContain(replacedBy?.[1]);
  expect(runs[3].parameters).toEqual({ customer: 'acme', n: 3 });
  // It waited for the burst to end: at least the period after the last start.
  expect(spanOf(runs[3]).start - Date.parse(burst[3].created_at)).toBeGreaterThanOrEqual(1400);
});

test('debounce first: the first of a burst runs at once, later ones within the period are dropped', async () => {
  const workflowId = await flowWorkflow({ debounce: { period: '3s', mode: 'first' } }, '100ms');
  const burst = [];
  for (let i = 0; i < 3; i++) burst.push(await start(workflowId, { n: i }));
  const runs = await Promise.all(burst.map((r) => finished(workflowId, r.id)));
  expect(runs.map((r) => r.status)).toEqual(['completed', 'cancelled', 'cancelled']);
  expect(runs[1].errors[0]).toMatchObject({ code: 'DEBOUNCED' });
});

test('singleton: a start with the key of an open run answers that run; once it has ended, a start makes a new one', async () => {
  // The first run stays open (a long wait) until the test cancels it: the burst below must find it open on a
  // loaded machine too.
  const workflowId = await flowWorkflow({ singleton: { key: 'params.customer' } }, '10m');
  const first = await start(workflowId, { customer: 'acme' });
  expect(first.httpStatus).toBe(201);
  const again = await start(workflowId, { customer: 'acme', n: 2 });
  expect(again).toMatchObject({ httpStatus: 200, singleton: 'existing', id: first.id });
  const otherKey = await start(workflowId, { customer: 'globex' });
  expect(otherKey.id).not.toBe(first.id);
  // Ten at once for a key with no run yet: one run, nine answers of it.
  const fresh = await Promise.all(Array.from({ length: 10 }, () => start(workflowId, { customer: 'initech' })));
  expect(new Set(fresh.map((r) => r.id)).size).toBe(1);
  expect(fresh.filter((r) => r.httpStatus === 201)).toHaveLength(1);
  // Ten at once: still one run.
  const burst = await Promise.all(Array.from({ length: 10 }, () => start(workflowId, { customer: 'acme' })));
  expect(new Set(burst.map((r) => r.id))).toEqual(new Set([first.id]));
  expect((await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${first.id}/cancel`, { token })).status).toBe(200);
  await finished(workflowId, first.id);
  const later = await start(workflowId, { customer: 'acme' });
  expect(later.httpStatus).toBe(201);
  expect(later.id).not.toBe(first.id);
  const { count } = (await api.deps.db('workflow_runs').where({ workflow_id: workflowId }).count('* as count').first()) as { count: string };
  expect(Number(count)).toBe(4);
});

test('a queued run cancelled while it waits ends cancelled and frees nothing it never held; the queue goes on', async () => {
  const workflowId = await flowWorkflow({ concurrency: { limit: 1 } }, '1s');
  const first = await start(workflowId);
  const queued = await start(workflowId);
  const third = await start(workflowId);
  await waitForRun(api, token, workflowId, queued.id, (r) => r.flow?.waiting_for === 'concurrency', 15_000);
  const cancel = await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${queued.id}/cancel`, { token });
  expect(cancel.status).toBe(200);
  const cancelled = await finished(workflowId, queued.id);
  expect(cancelled.status).toBe('cancelled');
  expect(cancelled.node_states.work.status).toBe('cancelled');
  const [a, c] = await Promise.all([finished(workflowId, first.id), finished(workflowId, third.id)]);
  expect([a.status, c.status]).toEqual(['completed', 'completed']);
  expect(spanOf(c).start).toBeGreaterThanOrEqual(spanOf(a).end);
});

test('checked at save: every problem of the flow block at its path', async () => {
  const res = await api.request('POST', '/api/v1/workflows', {
    token,
    body: {
      name: 'bad flow',
      dag: { nodes: [{ id: 'work', type: 'wait', config: { duration: '1s' } }] },
      flow: { concurrency: { limit: 0, strategy: 'fifo' }, throttle: { limit: 1, period: '5ms' } },
    },
  });
  expect(res.status).toBe(422);
  const paths = res.body.error.details.map((d: { path: string }) => d.path);
  expect(paths).toEqual(expect.arrayContaining(['flow.concurrency.limit', 'flow.concurrency.strategy', 'flow.throttle.period']));

  const rules = await api.request('POST', '/api/v1/workflows', {
    token,
    body: {
      name: 'bad flow rules',
      dag: { nodes: [{ id: 'work', type: 'wait', config: { duration: '1s' } }] },
      flow: { concurrency: { limit: 2, key_limit: 1 }, debounce: { period: '2s', mode: 'first', max_wait: '10s' }, singleton: { key: 'params.(' } },
    },
  });
  expect(rules.status).toBe(422);
  expect(rules.body.error.details.map((d: { path: string }) => d.path)).toEqual(
    expect.arrayContaining(['flow.concurrency.key_limit', 'flow.debounce.max_wait', 'flow.singleton.key']),
  );
  const priority = await api.request('POST', `/api/v1/workflows/${await flowWorkflow({ priority: 2 })}/runs`, { token, body: { priority: 9 } });
  expect(priority.status).toBe(400);
});

test('a key expression that gives no group answers 422 FLOW_KEY_INVALID and starts nothing', async () => {
  const workflowId = await flowWorkflow({ concurrency: { limit: 1, key: 'params.n > 0 ? params.customer : null' } });
  const res = await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, { token, body: { parameters: { customer: 'acme', n: 0 } } });
  expect(res.status).toBe(422);
  expect(res.body.error).toMatchObject({ code: 'FLOW_KEY_INVALID', message: 'the concurrency key is null; it must be a string, number or boolean' });
  const { count } = (await api.deps.db('workflow_runs').where({ workflow_id: workflowId }).count('* as count').first()) as { count: string };
  expect(Number(count)).toBe(0);
});

test('the example of docs/runs.md#flow-control: one run per customer at a time, in order, other customers beside', async () => {
  const page = readFileSync(join(__dirname, '..', '..', 'docs', 'runs.md'), 'utf8');
  const example = /<!-- example:flow -->\n```json\n([\s\S]*?)^```$/m.exec(page);
  expect(example).not.toBeNull();
  const created = await api.request('POST', '/api/v1/workflows', { token, body: JSON.parse(example![1]!) });
  expect(created.status).toBe(201);
  const workflowId = created.body.id as string;
  const acme = [await start(workflowId, { customer: 'acme' })];
  await waitForRun(api, token, workflowId, acme[0].id, (r) => r.status === 'running', 15_000);
  for (let i = 1; i < 3; i++) acme.push(await start(workflowId, { customer: 'acme' }));
  const globex = await start(workflowId, { customer: 'globex' });
  const runs = await Promise.all([...acme, globex].map((r) => finished(workflowId, r.id)));
  const spans = runs.map((r) => ({ id: r.id, start: Date.parse(r.node_states.sync.startedAt), end: Date.parse(r.node_states.sync.finishedAt) }));
  expect(maxOverlap(spans.slice(0, 3))).toBe(1);
  expect([...spans.slice(0, 3)].sort((a, b) => a.start - b.start).map((s) => s.id)).toEqual(acme.map((r) => r.id));
  expect(spans[3]!.start).toBeLessThan(spans[1]!.start);
});

test('runs started by a webhook: the trigger\'s priority, and a singleton key that answers the open run', async () => {
  const created = await api.request('POST', '/api/v1/workflows', {
    token,
    body: {
      name: 'flow webhook',
      parameters: [{ name: 'order', type: 'string', required: true }],
      dag: { nodes: [{ id: 'work', type: 'wait', config: { duration: '2s' } }] },
      triggers: [{ id: 'orders', type: 'webhook', config: { path: 'flow-orders', method: 'POST', authentication: 'bearer', priority: 2, parameters: { order: 'body.order' } } }],
      flow: { singleton: { key: 'params.order' } },
    },
  });
  expect(created.status).toBe(201);
  const workflowId = created.body.id as string;
  expect((await api.request('POST', `/api/v1/workflows/${workflowId}/activate`, { token })).status).toBe(200);
  const secret = (await api.request('POST', `/api/v1/workflows/${workflowId}/triggers/orders/secret`, { token })).body.secret as string;
  const slug = (await api.deps.db('organizations').where({ id: tenant.organizationId }).first('slug')).slug as string;
  const call = (order: string) =>
    api.request('POST', `/api/hooks/${slug}/flow-orders`, { body: { order }, headers: { authorization: `Bearer ${secret}` } });
  const first = await call('A-1');
  expect(first.status).toBe(202);
  const again = await call('A-1');
  expect(again.body.run_id).toBe(first.body.run_id);
  const other = await call('B-2');
  expect(other.body.run_id).not.toBe(first.body.run_id);
  const run = await finished(workflowId, first.body.run_id);
  expect(run).toMatchObject({ status: 'completed', priority: 2, flow: { keys: { singleton: 'A-1' } } });
  const { count } = (await api.deps.db('workflow_runs').where({ workflow_id: workflowId }).count('* as count').first()) as { count: string };
  expect(Number(count)).toBe(2);
  const badPriority = await api.request('PUT', `/api/v1/workflows/${workflowId}`, {
    token,
    body: { triggers: [{ id: 'orders', type: 'webhook', config: { path: 'flow-orders', priority: 0 } }] },
  });
  expect(badPriority.status).toBe(422);
  expect(badPriority.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'triggers[0].config.priority' })]));
});

test('a hostile key expression is stopped by the sandbox: 422 FLOW_KEY_INVALID, no run, the API answers meanwhile', async () => {
  // 25 million steps of a nested comprehension: past the CEL deadline, evaluated in the sandbox, not on the API's loop.
  const res = await api.request('POST', '/api/v1/workflows', {
    token,
    body: {
      name: 'hostile flow key',
      parameters: [{ name: 'xs', type: 'array' }],
      dag: { nodes: [{ id: 'work', type: 'wait', config: { duration: '1s' } }] },
      flow: { concurrency: { limit: 1, key: 'string(params.xs.map(a, params.xs.map(b, a + b)).size())' } },
    },
  });
  expect(res.status).toBe(201);
  const workflowId = res.body.id as string;
  const order: string[] = [];
  const started = api
    .request('POST', `/api/v1/workflows/${workflowId}/runs`, { token, body: { parameters: { xs: Array.from({ length: 5000 }, (_, i) => i) } } })
    .then((r) => {
      order.push('start');
      return r;
    });
  await new Promise((r) => setTimeout(r, 200));
  const health = await api.request('GET', '/healthz');
  order.push(`health ${health.status}`);
  const refused = await started;
  expect(refused.status).toBe(422);
  expect(refused.body.error.code).toBe('FLOW_KEY_INVALID');
  expect(refused.body.error.message).toMatch(/^the concurrency key expression failed: /);
  expect(order).toEqual(['health 200', 'start']);
  const { count } = (await api.deps.db('workflow_runs').where({ workflow_id: workflowId }).count('* as count').first()) as { count: string };
  expect(Number(count)).toBe(0);
});
