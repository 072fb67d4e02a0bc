import type { TestApi } from '../helpers/stack';
import { listenForOutboxEvents } from '../../domain/events/outboxNotices';
import { createTestTenant, startApiWithTenant, type TestTenant } from '../helpers/tenants';
import { runToEnd, startRun, toolNode, waitForRun } from '../helpers/runs';

/**
 * The wait_for_event node (docs/workflows.md#wait-for-event): a run waits durably for an event published through
 * the events API whose data matches its correlation expression; the event is the node's output. Through the real
 * API, event dispatcher, worker and Temporal.
 */

let api: TestApi;
let token: string;
let tenant: TestTenant;

beforeAll(async () => {
  ({ api, token, tenant } = await startApiWithTenant());
});
afterAll(() => api.close());

const publish = async (data: Record<string, unknown>, as = token, type = 'custom.order.paid') => {
  const res = await api.request('POST', '/api/v1/events', { token: as, body: { type, data } });
  expect(res.status).toBe(202);
};

async function saved(config: Record<string, unknown>, as = token): Promise<string> {
  const res = await api.request('POST', '/api/v1/workflows', {
    token: as,
    body: {
      name: 'wait for payment',
      parameters: [{ name: 'order_id', type: 'string', required: true }],
      dag: {
        nodes: [
          { id: 'paid', type: 'wait_for_event', config: { event: 'custom.order.paid', match: 'event.data.order_id == params.order_id', ...config } },
          toolNode('after', 'json_transform', { expression: '$', data: '${nodes.paid.timed_out ? "none" : nodes.paid.event.data.amount}' }),
        ],
        edges: [{ from: 'paid', to: 'after' }],
      },
    },
  });
  expect(res.status).toBe(201);
  return res.body.id;
}

/** Polls the run until its wait is recorded (the node is running with waiting_until). */
async function waiting(workflowId: string, runId: string, as = token): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const run = await api.request('GET', `/api/v1/workflows/${workflowId}/runs/${runId}`, { token: as });
    if (run.body.node_states?.paid?.waiting_until) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the run never started waiting');
}

const waitsOf = async (runId: string): Promise<number> =>
  Number((await api.deps.db('run_event_waits').where({ run_id: runId }).count<{ count: string }[]>('id as count'))[0]!.count);

test('each run takes the event that matches it; an unmatched event wakes no one; the event is the output', async () => {
  const workflowId = await saved({ timeout: '2m' });
  const first = await startRun(api, token, workflowId, { order_id: 'o-1' });
  const second = await startRun(api, token, workflowId, { order_id: 'o-2' });
  await waiting(workflowId, first.id);
  await waiting(workflowId, second.id);

  await publish({ order_id: 'o-2', amount: 5 });
  const done = await waitForRun(api, token, workflowId, second.id);
  expect(done.status).toBe('completed');
  expect(done.node_states.paid.output).toMatchObject({ timed_out: false, event: { type: 'custom.order.paid', data: { order_id: 'o-2', amount: 5 } } });
  expect(done.node_states.paid.output.event.id).toEqual(expect.any(String));
  expect(done.node_states.after.output).toEqual({ result: 5 });
  expect(await waitsOf(second.id)).toBe(0);

  await publish({ order_id: 'o-9', amount: 1 });
  const still = await api.request('GET', `/api/v1/workflows/${workflowId}/runs/${first.id}`, { token });
  expect(still.body.status).toBe('running');
  expect(await waitsOf(first.id)).toBe(1);

  await publish({ order_id: 'o-1', amount: 7 });
  const other = await waitForRun(api, token, workflowId, first.id);
  expect(other.node_states.after.output).toEqual({ result: 7 });
});

test('an event published before the wait counts within the look-back, and not before the node started without one', async () => {
  await publish({ order_id: 'early', amount: 3 });
  await new Promise((r) => setTimeout(r, 200));
  const withLookback = await runToEnd(api, token, await saved({ timeout: '30s', lookback: '5m' }), { order_id: 'early' });
  expect(withLookback.status).toBe('completed');
  expect(withLookback.node_states.after.output).toEqual({ result: 3 });

  const without = await runToEnd(api, token, await saved({ timeout: '2s', on_timeout: 'continue' }), { order_id: 'early' });
  expect(without.status).toBe('completed');
  expect(without.node_states.paid.output).toEqual({ event: null, timed_out: true });
  expect(without.node_states.after.output).toEqual({ result: 'none' });
  expect(await waitsOf(without.id)).toBe(0);
});

test('the timeout fails the node with WAIT_TIMEOUT by default', async () => {
  const run = await runToEnd(api, token, await saved({ timeout: '2s' }), { order_id: 'never' });
  expect(run.status).toBe('failed');
  expect(run.node_states.paid.error).toMatchObject({ code: 'WAIT_TIMEOUT', message: expect.stringContaining('custom.order.paid') });
  expect(run.node_states.after.status).toBe('skipped');
});

test('another organization\'s event never wakes a run; a cancelled wait is removed', async () => {
  const workflowId = await saved({ timeout: '2m' });
  const run = await startRun(api, token, workflowId, { order_id: 'shared-id' });
  await waiting(workflowId, run.id);
  const other = await createTestTenant(api);
  await publish({ order_id: 'shared-id', amount: 99 }, other.owner.token);
  // The dispatcher runs every second: give it three turns.
  await new Promise((r) => setTimeout(r, 3000));
  expect((await api.request('GET', `/api/v1/workflows/${workflowId}/runs/${run.id}`, { token })).body.status).toBe('running');

  expect((await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${run.id}/cancel`, { token })).status).toBe(200);
  const cancelled = await waitForRun(api, token, workflowId, run.id);
  expect(cancelled.status).toBe('cancelled');
  expect(cancelled.node_states.paid.status).toBe('cancelled');
  expect(await waitsOf(run.id)).toBe(0);
  expect(tenant.organizationId).not.toBe(other.organizationId);
});

test('a wait for an event is checked at save', async () => {
  const check = async (config: Record<string, unknown>) =>
    api.request('POST', '/api/v1/workflows', {
      token,
      body: { name: 'bad', dag: { nodes: [{ id: 'w', type: 'wait_for_event', config }], edges: [] } },
    });
  const cases: [Record<string, unknown>, string][] = [
    [{ event: 'custom.x', timeout: '0s' }, 'dag.nodes.w.config.timeout'],
    [{ event: 'custom.x', timeout: 'later' }, 'dag.nodes.w.config.timeout'],
    [{ event: 'custom.x', lookback: '30d' }, 'dag.nodes.w.config.lookback'],
    [{ event: 'custom.x', match: 'event.data.id == nodes.ghost.result' }, 'dag.nodes.w.config.match'],
    [{ event: 'custom.x', match: 'event.data.id ==' }, 'dag.nodes.w.config.match'],
    [{ event: 'has spaces' }, 'dag.nodes.w.config.event'],
    [{ event: 'custom.x', on_timeout: 'retry' }, 'dag.nodes.w.config.on_timeout'],
  ];
  for (const [config, path] of cases) {
    const res = await check(config);
    expect(res.status).toBe(422);
    expect((res.body.error.details as { path: string }[]).map((d) => d.path)).toContain(path);
  }
  expect((await check({ event: 'custom.x', match: 'event.data.id == "a"' })).status).toBe(201);
});

test('an inbound webhook with `publish` turns each delivery into the event a waiting run takes; a repeat publishes nothing new', async () => {
  const created = await api.request('POST', '/api/v1/workflows', {
    token,
    body: {
      name: 'paid by webhook',
      parameters: [{ name: 'order_id', type: 'string', required: true }],
      dag: {
        nodes: [
          { id: 'paid', type: 'wait_for_event', config: { event: 'custom.order.paid', match: 'event.data.order_id == params.order_id', timeout: '2m' } },
          toolNode('after', 'json_transform', { expression: '$', data: '${nodes.paid.event.data.amount}' }),
        ],
        edges: [{ from: 'paid', to: 'after' }],
      },
      triggers: [{ id: 'psp', type: 'webhook', config: { path: 'psp-paid', authentication: 'bearer', publish: 'custom.order.paid', parameters: { order_id: 'body.ref', amount: 'body.total' } } }],
    },
  });
  expect(created.status).toBe(201);
  const workflowId = created.body.id;
  expect((await api.request('POST', `/api/v1/workflows/${workflowId}/activate`, { token })).status).toBe(200);
  const secret = (await api.request('POST', `/api/v1/workflows/${workflowId}/triggers/psp/secret`, { token })).body.secret;
  const slug = (await api.deps.db('organizations').where({ id: tenant.organizationId }).first('slug')).slug;

  const run = await startRun(api, token, workflowId, { order_id: 'w-1' });
  await waiting(workflowId, run.id);
  const headers = { authorization: `Bearer ${secret}`, 'idempotency-key': 'psp-delivery-1' };
  const delivered = await api.request('POST', `/api/hooks/${slug}/psp-paid`, { body: { ref: 'w-1', total: 12.5 }, headers });
  expect(delivered.status).toBe(202);
  expect(delivered.body).toEqual({ event_id: expect.any(String), type: 'custom.order.paid' });
  const again = await api.request('POST', `/api/hooks/${slug}/psp-paid`, { body: { ref: 'w-1', total: 12.5 }, headers });
  expect(again.body.event_id).toBe(delivered.body.event_id);

  const done = await waitForRun(api, token, workflowId, run.id);
  expect(done.status).toBe('completed');
  expect(done.node_states.paid.output.event).toMatchObject({
    id: delivered.body.event_id,
    data: { order_id: 'w-1', amount: 12.5, publishedBy: { type: 'webhook', id: `${workflowId}/psp` } },
  });
  expect(done.node_states.after.output).toEqual({ result: 12.5 });
  // The delivery started no run of its own.
  expect((await api.request('GET', `/api/v1/workflows/${workflowId}/runs`, { token })).body.data).toHaveLength(1);

  // Without the secret: the same 404 as any unknown hook.
  expect((await api.request('POST', `/api/hooks/${slug}/psp-paid`, { body: { ref: 'w-1' } })).status).toBe(404);
  const bad = await api.request('POST', '/api/v1/workflows/validate', {
    token,
    body: { name: 'bad', dag: { nodes: [toolNode('a', 'json_transform', { expression: '1' })], edges: [] }, triggers: [{ type: 'webhook', config: { publish: 'order.paid' } }] },
  });
  expect(bad.status).toBe(422);
  expect(bad.body.error.details[0].path).toMatch(/triggers\[0\]\.config\.publish/);
});

test('the dispatcher is woken by a new outbox event, not only by its next poll', async () => {
  const notices = await listenForOutboxEvents(api.deps.db);
  expect(notices).not.toBeNull();
  try {
    const woken = notices!.wait(120_000).then(() => 'woken');
    const later = new Promise((r) => setTimeout(() => r('not woken within 20 s'), 20_000));
    await publish({ order_id: 'wake-up' });
    expect(await Promise.race([woken, later])).toBe('woken');
    // A notice that came while nobody waited is kept for the next wait.
    await publish({ order_id: 'while-busy' });
    await new Promise((r) => setTimeout(r, 200));
    expect(await Promise.race([notices!.wait(120_000).then(() => 'woken'), new Promise((r) => setTimeout(() => r('lost'), 20_000))])).toBe('woken');
  } finally {
    await notices!.close();
  }
});
