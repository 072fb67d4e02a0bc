import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { historyFromJSON, historyToJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { ensureDeadLetterPurgeSchedule } from '../../domain/runs/schedules';
import { startApi, type TestApi } from '../helpers/stack';
import type { TestTenant } from '../helpers/tenants';
import {
  addWorkflowVersion,
  createWorkflowFixture,
  insertDeadLetter,
  RUN_TEST_CONFIG,
  useRunApi,
  runToEnd,
  startRun,
  toolNode,
  waitForRun,
  type WorkflowSpec,
} from '../helpers/runs';
import { REPO_ROOT, waitForLine } from '../setup/state';

/** Cancellation, version pinning, a worker killed mid-run, history replay and the dead-letter purge schedule. */

let api: TestApi;
let tenant: TestTenant;
let token: string;

useRunApi((started) => ({ api, tenant, token } = started));

const transform = (id: string, expression: string, data: unknown = null) => toolNode(id, 'json_transform', { expression, data });

test('cancelling a running run cancels its running activity', async () => {
  const workflowId = await createWorkflowFixture(api, tenant, {
    nodes: [transform('first', '1'), toolNode('wait', 'delay', { ms: 120_000 }), transform('never', '2')],
    edges: [
      { from: 'first', to: 'wait' },
      { from: 'wait', to: 'never' },
    ],
  });
  const started = await startRun(api, token, workflowId);
  const live = await waitForRun(api, token, workflowId, started.id, (r) => r.node_states?.wait?.status === 'running');
  expect(live.status).toBe('running');
  expect(live.node_states.first.status).toBe('completed');
  expect(live.completed_at).toBeNull();

  const res = await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${started.id}/cancel`, { token });
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('cancelled');
  expect(res.body.node_states.wait.status).toBe('cancelled');
  expect(res.body.node_states.never.status).toBe('cancelled');
  expect(res.body.completed_at).not.toBeNull();
  // the activity itself acknowledged the cancellation (it heartbeats and honours its signal)
  const history = await api.deps.temporal.workflow.getHandle(started.id).fetchHistory();
  expect(history.events!.some((e) => e.activityTaskCanceledEventAttributes)).toBe(true);
  expect(history.events!.some((e) => e.workflowExecutionCanceledEventAttributes)).toBe(true);

  const again = await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${started.id}/cancel`, { token });
  expect(again.status).toBe(409);
});

test('cancelling a run cancels its subworkflow child', async () => {
  const childId = await createWorkflowFixture(api, tenant, { name: 'slow child', nodes: [toolNode('wait', 'delay', { ms: 120_000 })] });
  const parentId = await createWorkflowFixture(api, tenant, {
    nodes: [{ id: 'sub', type: 'subworkflow', config: { workflow_id: childId } }],
  });
  const started = await startRun(api, token, parentId);
  const running = await waitForRun(api, token, parentId, started.id, (r) => r.node_states?.sub?.child_run_id !== undefined);
  const child = api.deps.temporal.workflow.getHandle(running.node_states.sub.child_run_id);
  // wait until the child's own activity runs, so the cancellation has something to reach
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const view = await child.query<{ nodeStates: Record<string, { status: string }> }>('runState').catch(() => null);
    if (view?.nodeStates.wait?.status === 'running') break;
    await new Promise((r) => setTimeout(r, 150));
  }
  const res = await api.request('POST', `/api/v1/workflows/${parentId}/runs/${started.id}/cancel`, { token });
  expect(res.body.status).toBe('cancelled');
  expect(res.body.node_states.sub.status).toBe('cancelled');
  expect((await child.describe()).status.name).toBe('CANCELLED');
});

test('a run keeps executing the version it started with after the workflow is updated', async () => {
  const version = (label: string): WorkflowSpec => ({
    nodes: [toolNode('slow', 'delay', { ms: 1500 }), transform('label', `"${label}"`)],
    edges: [{ from: 'slow', to: 'label' }],
  });
  const workflowId = await createWorkflowFixture(api, tenant, version('v1'));
  const first = await startRun(api, token, workflowId);
  await waitForRun(api, token, workflowId, first.id, (r) => r.node_states?.slow?.status === 'running');
  await addWorkflowVersion(api, tenant, workflowId, 2, version('v2'));
  const second = await startRun(api, token, workflowId);

  const firstDone = await waitForRun(api, token, workflowId, first.id);
  expect(firstDone).toMatchObject({ status: 'completed', workflow_version: 1, results: { label: { result: 'v1' } } });
  const secondDone = await waitForRun(api, token, workflowId, second.id);
  expect(secondDone).toMatchObject({ status: 'completed', workflow_version: 2, results: { label: { result: 'v2' } } });
});

describe('a worker killed mid-run', () => {
  const workers: ChildProcess[] = [];
  afterAll(() => {
    for (const w of workers) if (w.exitCode === null) w.kill('SIGTERM');
  });

  function spawnWorker(taskQueue: string, name: string): Promise<ChildProcess> {
    const dir = process.env.LOOM_TEST_DIR ?? path.join(REPO_ROOT, '.data', 'test');
    const logPath = path.join(dir, `${name}.log`);
    const out = openSync(logPath, 'a');
    const child = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
      cwd: REPO_ROOT,
      env: { ...process.env, TEMPORAL_TASK_QUEUE: taskQueue, WORKER_METRICS_PORT: '0', WORKER_SDK_METRICS_PORT: '0' },
      stdio: ['ignore', out, out],
    });
    workers.push(child);
    return waitForLine(logPath, /worker started/, 90_000, () => child.exitCode).then(() => child);
  }

  test('the run completes on another worker', async () => {
    const taskQueue = `loom-kill-${randomUUID().slice(0, 8)}`;
    const queueApi = await startApi({ ...RUN_TEST_CONFIG, TEMPORAL_TASK_QUEUE: taskQueue });
    try {
      const workflowId = await createWorkflowFixture(queueApi, tenant, {
        nodes: [transform('before', '"before"'), toolNode('slow', 'delay', { ms: 6000, value: 'slept' }), transform('after', '"after"')],
        edges: [
          { from: 'before', to: 'slow' },
          { from: 'slow', to: 'after' },
        ],
        errorHandling: { retry_config: { max_attempts: 5, backoff: 'fixed', initial_delay: 200 } },
      });
      const first = await spawnWorker(taskQueue, 'kill-worker-1');
      const started = await startRun(queueApi, token, workflowId);
      await waitForRun(queueApi, token, workflowId, started.id, (r) => r.node_states?.slow?.status === 'running');
      // Running in the first worker, not only scheduled: killed before picking it up (a loaded machine), that worker
      // would leave the first attempt to the second one.
      const handle = queueApi.deps.temporal.workflow.getHandle(started.id);
      for (;;) {
        const pending = (await handle.describe()).raw.pendingActivities ?? [];
        if (pending.some((a) => a.activityType?.name === 'delay' && a.lastStartedTime)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      first.kill('SIGKILL');
      await new Promise((r) => first.once('exit', r));

      await spawnWorker(taskQueue, 'kill-worker-2');
      const run = await waitForRun(queueApi, token, workflowId, started.id, undefined, 90_000);
      expect(run.status).toBe('completed');
      expect(run.node_states.slow.output).toMatchObject({ value: 'slept' });
      // the attempt on the killed worker timed out (no heartbeat) and was retried on the new one
      expect(run.node_states.slow.attempts).toBeGreaterThanOrEqual(2);
      expect(run.results.after).toEqual({ result: 'after' });
    } finally {
      await queueApi.close();
    }
  }, 150_000);
});

describe('history replay', () => {
  const fixtures = path.join(REPO_ROOT, 'test', 'fixtures', 'histories');

  test('workflow code carries no zod: a worker evaluates every module again for each execution it creates', () => {
    const bundle = readFileSync(process.env.TEMPORAL_WORKFLOW_BUNDLE!, 'utf8');
    expect(bundle).toContain('./workflows/runs/interpreter.ts');
    expect(bundle).not.toContain('node_modules/zod/');
  });

  /** The closing-note DAG: a condition, a parallel block, a loop and a tool failure handled by a fallback. */
  const showcase: WorkflowSpec = {
    name: 'order pricing',
    parameters: [
      { name: 'orders', type: 'array', required: true },
      { name: 'express', type: 'boolean', default: false },
    ],
    nodes: [
      { id: 'route', type: 'condition', config: { expression: 'params.express', trueBranch: 'express', falseBranch: 'standard' } },
      transform('express', '"express"'),
      transform('standard', '"standard"'),
      {
        id: 'enrich',
        type: 'parallel',
        config: { joinStrategy: 'wait_all', branches: [{ id: 'prices', nodes: ['price_lookup'] }, { id: 'stock', nodes: ['stock_check'] }] },
      },
      toolNode('price_lookup', 'fail', { mode: 'non_retryable', code: 'PRICING_UNAVAILABLE', message: 'pricing service unavailable' }),
      toolNode('stock_check', 'delay', { ms: 50, value: 'in stock' }),
      {
        id: 'per_order',
        type: 'loop',
        config: {
          items: 'params.orders',
          iterator: 'order',
          concurrency: 2,
          template: {
            type: 'tool',
            config: {
              tool: 'json_transform',
              config: {
                expression: '{"id": id, "total": qty * price}',
                data: { id: '${order.id}', qty: '${order.qty}', price: '${nodes.price_lookup.result.price}' },
              },
            },
          },
        },
      },
      toolNode('summary', 'json_transform', { expression: '$sum(result.total)' }, { inputs: [{ name: 'data', from: 'per_order.results' }] }),
    ],
    edges: [
      { from: 'express', to: 'enrich' },
      { from: 'standard', to: 'enrich' },
      { from: 'enrich', to: 'per_order' },
      { from: 'per_order', to: 'summary' },
    ],
    errorHandling: {
      node_overrides: {
        price_lookup: {
          strategy: 'fallback',
          handler: 'json_transform',
          handler_config: { expression: '{"price": 2.5, "source": "fallback price list"}' },
        },
      },
    },
  };

  test('a real run of every construct replays deterministically, as do the stored fixtures', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, showcase);
    const run = await runToEnd(api, token, workflowId, { orders: [{ id: 'o-1', qty: 2 }, { id: 'o-2', qty: 4 }] });
    expect(run.status).toBe('completed');
    expect(run.node_states.standard.status).toBe('completed');
    expect(run.node_states.express.status).toBe('skipped');
    expect(run.node_states.price_lookup).toMatchObject({ status: 'completed', via: 'fallback' });
    expect(run.results.summary).toEqual({ result: 15 });
    if (process.env.LOOM_TEST_DIR) writeFileSync(path.join(process.env.LOOM_TEST_DIR, 'showcase-run.json'), JSON.stringify(run, null, 2));

    const history = await api.deps.temporal.workflow.getHandle(run.id).fetchHistory();
    // One patch for all (workflows/runs/patches.ts): each patch asked is a marker and a visibility update. Before,
    // this run asked five. Patches newer than that bundle are asked on their own: failed-join-cancels-branches, as
    // this run has a parallel node, and rate-limit-turns, as it calls tools that are not local.
    const events = history.events ?? [];
    expect(events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')).toHaveLength(3);
    expect(events.filter((e) => e.upsertWorkflowSearchAttributesEventAttributes)).toHaveLength(3);
    mkdirSync(fixtures, { recursive: true });
    // Fixtures are histories recorded by older code, kept so those executions keep replaying. When a patch changes
    // the commands the interpreter records, name a new current fixture: it is captured by the next run of this test.
    // showcase-run.json: bookkeeping and every tool as regular activities; showcase-run-local-activities.json:
    // patch run-local-activities (workflows/runs/execute.ts). subworkflow-retries-before-patches(-child).json: a
    // subworkflow child without a run row and 300 ms fixed / 100 ms linear retries, recorded before the patches
    // subworkflow-run-records and subsecond-retry-delays (a parent and its `<run>.sub` child).
    // showcase-run-readable-activities.json: patch readable-activity-ids (node ids as activity ids, summaries).
    // showcase-run-patches-one-by-one.json: the five patches this run asked before run-patches-2026-11-28, each
    // with its own marker. showcase-run-current-patches.json: patch run-patches-2026-11-28 (workflows/runs/patches.ts).
    // loop-batch-patches-one-by-one.json: a loop batch whose first task ran on a worker from before that patch (it
    // asked run-local-activities) while its parent, on a newer worker, passed `patchesCurrent` in its input.
    // showcase-run-failed-join-cancels.json: patch failed-join-cancels-branches asked after the bundle.
    // showcase-run-rate-limit-turns.json: patch rate-limit-turns asked after it (tool calls carry `turns`).
    const fixture = path.join(fixtures, 'showcase-run-rate-limit-turns.json');
    if (!existsSync(fixture) || process.env.UPDATE_HISTORY_FIXTURES === '1') writeFileSync(fixture, historyToJSON(history));

    const bundle = process.env.TEMPORAL_WORKFLOW_BUNDLE!;
    await Worker.runReplayHistory({ workflowBundle: { codePath: bundle } }, history, run.id);
    const stored = readdirSync(fixtures).filter((f) => f.endsWith('.json'));
    const results = Worker.runReplayHistories(
      { workflowBundle: { codePath: bundle } },
      stored.map((file) => ({ workflowId: file, history: historyFromJSON(JSON.parse(readFileSync(path.join(fixtures, file), 'utf8'))) })),
    );
    for await (const result of results) expect(result.error).toBeUndefined();
  });
});

test('the dead-letter purge schedule is created once and deletes expired entries', async () => {
  const taskQueue = api.config.temporal.taskQueue;
  const first = await ensureDeadLetterPurgeSchedule(api.deps.temporal, taskQueue);
  const second = await ensureDeadLetterPurgeSchedule(api.deps.temporal, taskQueue);
  expect(second).toEqual({ scheduleId: first.scheduleId, created: false });
  const expiredId = await insertDeadLetter(api, tenant.organizationId, new Date(Date.now() - 1000));
  const liveId = await insertDeadLetter(api, tenant.organizationId, new Date(Date.now() + 86_400_000));
  const handle = api.deps.temporal.schedule.getHandle(first.scheduleId);
  try {
    await handle.trigger();
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (await api.deps.db('dead_letters').where({ id: expiredId }).first())) {
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await api.deps.db('dead_letters').where({ id: expiredId }).first()).toBeUndefined();
    expect(await api.deps.db('dead_letters').where({ id: liveId }).first()).toBeDefined();
  } finally {
    await handle.delete();
  }
});
