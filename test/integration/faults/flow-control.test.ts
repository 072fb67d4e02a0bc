import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { privateTemporal, privateWorker, type PrivateProcess } from '../../helpers/faults';
import { maxOverlap, waitForRun, type RunBody } from '../../helpers/runs';
import { startApi, type TestApi } from '../../helpers/stack';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';

/**
 * Flow control under faults (docs/runs.md#how-it-holds-under-faults), with real processes: a private Temporal dev
 * server, two worker processes on one task queue, and an API pointed at them. A worker is SIGKILLed while a
 * workflow's gate holds running and queued runs, and Temporal is restarted while a throttle queue waits: every run
 * completes exactly once, a limit of one never lets two runs overlap, the queue keeps its order, and the throttle
 * keeps its pace.
 */

let dir: string;
let temporal: PrivateProcess & { address: string };
let workers: PrivateProcess[];
let api: TestApi;
let tenant: TestTenant;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'loom-fault-flow-'));
  temporal = await privateTemporal(path.join(dir, 't.db'));
  await temporal.start();
  const shared = { TEMPORAL_ADDRESS: temporal.address, TEMPORAL_TASK_QUEUE: `loom-fault-flow-${path.basename(dir)}` };
  workers = [privateWorker(shared, path.join(dir, 'worker-1.log')), privateWorker(shared, path.join(dir, 'worker-2.log'))];
  await Promise.all(workers.map((w) => w.start()));
  // A short heartbeat timeout: the activity of a killed worker is retried on the other 3 s later.
  api = await startApi({ ...shared, RUN_HEARTBEAT_TIMEOUT: '3s' });
  tenant = await createTestTenant(api);
}, 180_000);

afterAll(async () => {
  await api?.close();
  await Promise.all((workers ?? []).map((w) => w.stop('SIGTERM')));
  await temporal?.stop('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

async function workflowWith(flow: unknown, ms: number): Promise<string> {
  const res = await api.request('POST', '/api/v1/workflows', {
    token: tenant.owner.token,
    body: {
      name: 'flow under faults',
      parameters: [{ name: 'k', type: 'string' }],
      dag: { nodes: [{ id: 'work', type: 'tool', config: { tool: 'delay', config: { ms } } }] },
      flow,
    },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function start(workflowId: string, parameters: Record<string, unknown>): Promise<RunBody> {
  const res = await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, { token: tenant.owner.token, body: { parameters } });
  expect(res.status).toBe(201);
  return res.body;
}

const finished = (workflowId: string, runId: string) =>
  waitForRun(api, tenant.owner.token, workflowId, runId, (r) => ['completed', 'failed', 'cancelled'].includes(r.status), 150_000);

const spanOf = (run: RunBody) => ({ id: run.id as string, start: Date.parse(run.node_states.work.startedAt), end: Date.parse(run.node_states.work.finishedAt) });


async function rowsOf(workflowId: string): Promise<{ id: string; status: string }[]> {
  return api.deps.db('workflow_runs').where({ workflow_id: workflowId }).select('id', 'status');
}

test('a worker killed while the gate holds running and queued runs: all complete once, never two of a key at once', async () => {
  const workflowId = await workflowWith({ concurrency: { limit: 1, key: 'params.k' } }, 1500);
  const first = await start(workflowId, { k: 'x' });
  await waitForRun(api, tenant.owner.token, workflowId, first.id, (r) => r.status === 'running', 30_000);
  const xs = [first];
  for (let i = 0; i < 5; i++) xs.push(await start(workflowId, { k: 'x' }));
  const ys = [await start(workflowId, { k: 'y' }), await start(workflowId, { k: 'y' })];

  await new Promise((r) => setTimeout(r, 2000));
  await workers[0]!.stop('SIGKILL');
  await new Promise((r) => setTimeout(r, 3000));
  await workers[0]!.start();

  const xRuns = await Promise.all(xs.map((r) => finished(workflowId, r.id)));
  const yRuns = await Promise.all(ys.map((r) => finished(workflowId, r.id)));
  expect([...xRuns, ...yRuns].map((r) => r.status)).toEqual(Array(8).fill('completed'));
  expect(maxOverlap(xRuns.map(spanOf))).toBe(1);
  expect(maxOverlap(yRuns.map(spanOf))).toBe(1);
  expect(xRuns.map(spanOf).sort((a, b) => a.start - b.start).map((s) => s.id)).toEqual(xs.map((r) => r.id));
  const rows = await rowsOf(workflowId);
  expect(rows).toHaveLength(8);
  expect(rows.every((r) => r.status === 'completed')).toBe(true);
  // Nothing left held: the gate counts no run of either key.
  const state = await api.request('GET', `/api/v1/workflows/${workflowId}/flow`, { token: tenant.owner.token });
  expect(state.body.groups.filter((g: { running: number; waiting: number }) => g.running + g.waiting > 0)).toEqual([]);
}, 240_000);

test('Temporal restarted while a throttle queue waits: no queued start is lost, the pace holds', async () => {
  const workflowId = await workflowWith({ throttle: { limit: 2, period: '4s' } }, 100);
  const started = [];
  for (let i = 0; i < 6; i++) started.push(await start(workflowId, { k: String(i) }));
  await new Promise((r) => setTimeout(r, 1500));
  await temporal.stop('SIGTERM');
  await temporal.start();
  const runs = await Promise.all(started.map((r) => finished(workflowId, r.id)));
  expect(runs.map((r) => r.status)).toEqual(Array(6).fill('completed'));
  // Admitted at most 2 per 4 s (started_at: the gate's admission time).
  const starts = runs.map((r) => Date.parse(r.started_at)).sort((a, b) => a - b);
  for (let i = 2; i < starts.length; i++) expect(starts[i]! - starts[i - 2]!).toBeGreaterThanOrEqual(4000);
  expect(await rowsOf(workflowId)).toHaveLength(6);
}, 240_000);
