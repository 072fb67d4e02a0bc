import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { privateTemporal, privateWorker, type PrivateProcess } from '../../helpers/faults';
import { EVENT_ARRIVED_SIGNAL } from '../../../lib/runs/eventWait';
import { createWorkflowFixture, startRun, toolNode, waitForRun } from '../../helpers/runs';
import { startApi, type TestApi } from '../../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant } from '../../helpers/tenants';

/**
 * Worker and Temporal faults with real processes: a private Temporal dev server, a private worker process and an
 * API pointed at them (own task queue; the run's database and bucket). The worker is SIGKILLed in the middle of a
 * run and right after a side effect (an http_request POST received by a local server, before the activity could
 * report); after a restart the runs complete and every delivery of the effect carries the same Idempotency-Key.
 * The Temporal server is restarted (SIGTERM, same db file) during runs with delay nodes; the runs complete. Wait,
 * wait_for_event and approval nodes keep waiting through both faults, and the event or decision then ends them.
 */

let dir: string;
let temporal: PrivateProcess & { address: string };
let worker: PrivateProcess;
let api: TestApi;
let tenant: TestTenant;
let receiver: http.Server;
let receiverUrl: string;
const deliveries: string[] = [];
let holdNext = false;
const held: http.ServerResponse[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'loom-fault-temporal-'));
  receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      deliveries.push(String(req.headers['idempotency-key']));
      if (holdNext) {
        holdNext = false;
        held.push(res); // the effect happened; the answer never comes before the worker dies
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/effect`;

  temporal = await privateTemporal(path.join(dir, 't.db'));
  await temporal.start();
  const taskQueue = `loom-fault-${path.basename(dir)}`;
  const shared = { TEMPORAL_ADDRESS: temporal.address, TEMPORAL_TASK_QUEUE: taskQueue };
  worker = privateWorker({ ...shared, TOOLS_HTTP_ALLOWED_HOSTS: '127.0.0.1', LOG_LEVEL: 'info' }, path.join(dir, 'worker.log'));
  await worker.start();
  // A short heartbeat timeout: an activity of a killed worker is retried 3 s later instead of 30 s.
  api = await startApi({ ...shared, RUN_HEARTBEAT_TIMEOUT: '3s' });
  tenant = await createTestTenant(api);
}, 120_000);

afterAll(async () => {
  await api?.close();
  await worker?.stop('SIGKILL');
  await temporal?.stop('SIGTERM');
  for (const res of held) res.destroy();
  receiver?.closeAllConnections();
  await new Promise((r) => receiver?.close(r));
  rmSync(dir, { recursive: true, force: true });
});

test('worker SIGKILL right after a side effect and in the middle of a run: runs complete, one idempotency key per effect', async () => {
  const effectWorkflow = await createWorkflowFixture(api, tenant, {
    status: 'active',
    nodes: [toolNode('effect', 'http_request', { url: receiverUrl, method: 'POST', body: { hello: 'world' } }), toolNode('after', 'json_transform', { expression: '1', data: null })],
    edges: [{ from: 'effect', to: 'after' }],
  });
  const delayWorkflow = await createWorkflowFixture(api, tenant, {
    status: 'active',
    nodes: [toolNode('wait', 'delay', { ms: 3000 }), toolNode('after', 'json_transform', { expression: '2', data: null })],
    edges: [{ from: 'wait', to: 'after' }],
  });

  holdNext = true;
  const effectRun = await startRun(api, tenant.owner.token, effectWorkflow);
  const delayRun = await startRun(api, tenant.owner.token, delayWorkflow);
  const deadline = Date.now() + 30_000;
  while (deliveries.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  expect(deliveries.length).toBe(1);

  await worker.stop('SIGKILL');
  for (const res of held.splice(0)) res.destroy();
  await worker.start();

  const [effect, delayed] = await Promise.all([
    waitForRun(api, tenant.owner.token, effectWorkflow, effectRun.id, undefined, 60_000),
    waitForRun(api, tenant.owner.token, delayWorkflow, delayRun.id, undefined, 60_000),
  ]);
  expect(effect.status).toBe('completed');
  expect(delayed.status).toBe('completed');
  // At-least-once delivery, exactly-once effect for a receiver that honours the key: all deliveries share one key.
  expect(deliveries.length).toBeGreaterThanOrEqual(2);
  expect(new Set(deliveries)).toEqual(new Set([`${effectRun.id}:effect`]));
}, 120_000);

test('Temporal dev server restarted during runs: the runs resume and complete', async () => {
  const workflowId = await createWorkflowFixture(api, tenant, {
    status: 'active',
    nodes: [toolNode('wait', 'delay', { ms: 2500 }), toolNode('after', 'json_transform', { expression: '3', data: null })],
    edges: [{ from: 'wait', to: 'after' }],
  });
  const runs = await Promise.all([1, 2, 3].map(() => startRun(api, tenant.owner.token, workflowId)));
  await temporal.stop('SIGTERM');
  await temporal.start();
  const finished = await Promise.all(runs.map((run) => waitForRun(api, tenant.owner.token, workflowId, run.id, undefined, 60_000)));
  expect(finished.map((r) => r.status)).toEqual(['completed', 'completed', 'completed']);
}, 120_000);

test('a wait node survives its worker killed and Temporal restarted mid-wait, and still waits its full time', async () => {
  const workflowId = await createWorkflowFixture(api, tenant, {
    status: 'active',
    nodes: [{ id: 'pause', type: 'wait', config: { duration: '6s' } }, toolNode('after', 'json_transform', { expression: '4', data: null })],
    edges: [{ from: 'pause', to: 'after' }],
  });
  const started = await startRun(api, tenant.owner.token, workflowId);
  // Both faults land inside the wait: the timer lives in Temporal, not in the worker's memory.
  await new Promise((r) => setTimeout(r, 1500));
  await worker.stop('SIGKILL');
  await temporal.stop('SIGTERM');
  await temporal.start();
  await worker.start();
  const run = await waitForRun(api, tenant.owner.token, workflowId, started.id, undefined, 60_000);
  expect(run.status).toBe('completed');
  expect(run.node_states.pause.output).toMatchObject({ waited_ms: 6000 });
  const waitedFor = Date.parse(run.node_states.after.startedAt) - Date.parse(run.node_states.pause.startedAt);
  expect(waitedFor).toBeGreaterThanOrEqual(6000);
  expect(run.node_states.pause.waiting_until).toBe(run.node_states.pause.output.until);
}, 120_000);

test('an approval and a wait_for_event node keep waiting through a killed worker and a restarted Temporal', async () => {
  const admin = await addTestMember(api, tenant, 'admin');
  const workflowId = await createWorkflowFixture(api, tenant, {
    status: 'active',
    nodes: [
      { id: 'gate', type: 'approval', config: { approvers: { role: 'admin' }, timeout: '10m' } },
      { id: 'paid', type: 'wait_for_event', config: { event: 'custom.fault.paid', timeout: '10m' } },
      toolNode('after', 'json_transform', { expression: '$', data: '${nodes.paid.event.data.n}' }),
    ],
    edges: [
      { from: 'gate', to: 'after' },
      { from: 'paid', to: 'after' },
    ],
  });
  const started = await startRun(api, tenant.owner.token, workflowId);
  const waiting = await waitForRun(api, tenant.owner.token, workflowId, started.id, (r) => Boolean(r.node_states?.gate?.approval_id && r.node_states?.paid?.waiting_until), 30_000);
  await worker.stop('SIGKILL');
  await temporal.stop('SIGTERM');
  await temporal.start();
  await worker.start();
  // Still waiting, both of them, after the faults.
  const still = await api.request('GET', `/api/v1/workflows/${workflowId}/runs/${started.id}`, { token: tenant.owner.token });
  expect(still.body.status).toBe('running');

  const decided = await api.request('POST', `/api/v1/approvals/${waiting.node_states.gate.approval_id}/decision`, {
    token: admin.token,
    body: { decision: 'approve' },
  });
  expect(decided.status).toBe(200);
  // The event arrives as the dispatcher delivers it: a signal to the run. (This file's private Temporal shares the
  // suite's database, whose outbox the suite's own dispatcher also serves, against the main Temporal: the dispatch
  // path itself is runs-wait-for-event.test.ts's.)
  const event = { id: randomUUID(), type: 'custom.fault.paid', timestamp: new Date().toISOString(), data: { n: 42 } };
  await api.deps.temporal.workflow.getHandle(started.id).signal(EVENT_ARRIVED_SIGNAL, { nodeId: 'paid', event });
  const run = await waitForRun(api, tenant.owner.token, workflowId, started.id, undefined, 60_000);
  expect(run.status).toBe('completed');
  expect(run.node_states.gate.output).toMatchObject({ decision: 'approved' });
  expect(run.node_states.after.output).toEqual({ result: 42 });
}, 180_000);
