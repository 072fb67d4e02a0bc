import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { privateWorker, type PrivateProcess } from '../helpers/faults';
import { createWorkflowFixture, RUN_TEST_CONFIG, toolNode, waitForRun, type RunBody } from '../helpers/runs';
import type { TestApi } from '../helpers/stack';
import { startApiWithTenant, type TestTenant } from '../helpers/tenants';

/**
 * Every line a worker process writes is a JSON line (docs/operating.md#logs), the Temporal SDK's own included (its
 * Runtime logger, the Rust core's forwarded lines, the workflow threads' console), and the lines about a run name
 * it in Loom's terms: run, node, organization, and the X-Request-Id of the API request that started it, which also
 * travels into the run's Temporal memo. A real worker process (worker/main.ts) on its own task queue, at `debug` so
 * that the SDK's activity lines are written too.
 */

let api: TestApi;
let tenant: TestTenant;
let token: string;
let worker: PrivateProcess;
let run: RunBody;
let lines: Record<string, unknown>[];
let rawLines: string[];
/** EXPRESSION_TOO_COMPLEX when V8 ended the sandbox process; EXPRESSION_TIMEOUT when the deadline came first (load). */
let abortCode: string;
const queue = `loom-logging-json-${randomUUID()}`;
const logFile = path.join(process.env.LOOM_TEST_DIR ?? '/tmp', `logging-json-worker-${randomUUID().slice(0, 8)}.log`);
const requestId = `log-json-${randomUUID()}`;

beforeAll(async () => {
  worker = privateWorker({ TEMPORAL_TASK_QUEUE: queue, LOG_LEVEL: 'debug', WORKER_SDK_METRICS_PORT: '0' }, logFile);
  await worker.start();
  ({ api, tenant, token } = await startApiWithTenant({ ...RUN_TEST_CONFIG, TEMPORAL_TASK_QUEUE: queue }));
  const workflowId = await createWorkflowFixture(api, tenant, {
    name: 'Logged workflow',
    nodes: [
      toolNode('shape', 'json_transform', { expression: '$ * 2', data: 21 }),
      toolNode('pause', 'delay', { ms: 5 }, { inputs: [{ name: 'value', from: 'shape.result' }] }),
    ],
    edges: [{ from: 'shape', to: 'pause' }],
  });
  const started = await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, {
    token,
    body: { parameters: {} },
    headers: { 'x-request-id': requestId },
  });
  expect(started.status).toBe(201);
  run = await waitForRun(api, token, workflowId, started.body.id);
  expect(run.status).toBe('completed');
  // A transform that makes V8 abort its sandbox process: the end is one JSON line, not V8's report.
  const aborting = await createWorkflowFixture(api, tenant, {
    nodes: [toolNode('aborts', 'json_transform', { expression: '$count($split($pad("", 200000000), ""))', data: null })],
  });
  const abortingRun = await api.request('POST', `/api/v1/workflows/${aborting}/runs`, { token, body: { parameters: {} } });
  expect(abortingRun.status).toBe(201);
  const abortedRun = await waitForRun(api, token, aborting, abortingRun.body.id);
  expect(abortedRun.status).toBe('failed');
  abortCode = abortedRun.node_states.aborts.error.code;
  // A stopped worker has flushed everything (the SDK holds forwarded lines ~100 ms to order them).
  await worker.stop('SIGTERM');
  rawLines = readFileSync(logFile, 'utf8').split('\n').filter((line) => line.trim() !== '');
  lines = rawLines.flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}, 180_000);

afterAll(async () => {
  await worker?.stop('SIGTERM');
  await api?.close();
});

test('every line the worker process writes is a JSON object with level, time, name and msg', () => {
  expect(rawLines.length).toBeGreaterThan(5);
  const notJson = rawLines.filter((line) => {
    try {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      return typeof parsed !== 'object' || typeof parsed.level !== 'string' || typeof parsed.time !== 'string' || parsed.name !== 'worker' || typeof parsed.msg !== 'string';
    } catch {
      return true;
    }
  });
  expect(notJson).toEqual([]);
  // the SDK's lines are among them, and so is the workflow threads' console warning
  expect(lines.some((l) => l.sdkComponent === 'worker' && l.msg === 'Worker state changed')).toBe(true);
  expect(lines.some((l) => l.thread === 'workflow' && String(l.msg).includes('stack trace collection will be disabled'))).toBe(true);
  // an expression sandbox process's end is one line of the worker's, V8's report none
  const sandboxLines = lines.filter((l) => l.component === 'expression-sandbox');
  expect(abortCode).toMatch(/^EXPRESSION_(TOO_COMPLEX|TIMEOUT)$/);
  if (abortCode === 'EXPRESSION_TOO_COMPLEX') {
    expect(sandboxLines).toEqual([expect.objectContaining({ level: 'warn', msg: expect.stringMatching(/^expression sandbox \d+: ended by V8: a task asked for a value past/) })]);
  }
  // a task token completes its activity: never written
  expect(rawLines.some((line) => line.includes('taskToken'))).toBe(false);
});

test("the run's request id is in its Temporal memo and in the worker's lines about the run", async () => {
  const description = await api.deps.temporal.workflow.getHandle(run.id).describe();
  expect(description.memo).toMatchObject({ requestId, organizationId: tenant.organizationId, workflowName: 'Logged workflow' });
  const about = { runId: run.id, organizationId: tenant.organizationId, workflowId: run.workflow_id, requestId };
  expect(lines.find((l) => l.msg === 'run execution started')).toMatchObject({ level: 'info', ...about, temporalWorkflowId: run.id });
  expect(lines.find((l) => l.msg === 'run execution closed')).toMatchObject({ level: 'info', ...about, outcome: 'completed' });
  // the SDK's own lifecycle lines of the workflow carry them too
  expect(lines.find((l) => l.msg === 'Workflow started' && l.runId === run.id)).toMatchObject({ level: 'debug', ...about });
});

test("activity lines name the run, node and organization (Temporal's ids under their own names)", () => {
  const completed = lines.filter((l) => l.msg === 'Activity completed' && l.runId === run.id);
  expect(completed.find((l) => l.activityType === 'delay')).toMatchObject({
    level: 'debug',
    runId: run.id,
    nodeId: 'pause',
    organizationId: tenant.organizationId,
    workflowId: run.workflow_id,
    temporalWorkflowId: run.id,
    activityId: 'pause',
  });
  // json_transform runs as a local activity: its line names its node as well
  expect(completed.find((l) => l.activityType === 'json_transform')).toMatchObject({ nodeId: 'shape', runId: run.id, isLocal: true });
  // the bookkeeping activities of the run are about it too
  expect(completed.some((l) => l.activityType === 'runFinish' && l.nodeId === undefined)).toBe(true);
});
