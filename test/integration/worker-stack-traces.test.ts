import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { loadConfig } from '../../lib/config';
import { createTemporalClient } from '../../lib/temporal';
import { privateWorker, type PrivateProcess } from '../helpers/faults';

/**
 * WORKER_WORKFLOW_STACK_TRACES (worker/workflowStackTraces.ts): by default the worker's workflow threads record no
 * per-promise stack traces, and the `__stack_trace` query (Temporal Web's "Stack Trace" tab) says so; with the
 * setting on, the query shows where a workflow waits. Both workers are real processes started by worker/main.ts.
 * The workflow: organizationCreatedWorkflow for an organization that does not exist, which looks for it again every
 * 2 s for about 10 s, so it is open while it is queried.
 */
const config = loadConfig(process.env);
let temporal: Client;
let tracingWorker: PrivateProcess | undefined;
const tracingQueue = `loom-stack-traces-${randomUUID()}`;
const started: { workflowId: string }[] = [];

beforeAll(async () => {
  temporal = createTemporalClient(config.temporal);
  tracingWorker = privateWorker(
    {
      TEMPORAL_TASK_QUEUE: tracingQueue,
      WORKER_WORKFLOW_STACK_TRACES: 'true',
      WORKER_SDK_METRICS_PORT: '0',
    },
    path.join(process.env.LOOM_TEST_DIR ?? '.', 'stack-traces-worker.log'),
  );
  await tracingWorker.start();
}, 120_000);

afterAll(async () => {
  for (const { workflowId } of started) {
    await temporal.workflow.getHandle(workflowId).terminate('test done').catch(() => undefined);
  }
  await tracingWorker?.stop('SIGTERM');
  await temporal.connection.close();
});

async function startWaitingWorkflow(taskQueue: string) {
  const workflowId = `stack-trace-test-${randomUUID()}`;
  const handle = await temporal.workflow.start('organizationCreatedWorkflow', {
    taskQueue,
    workflowId,
    args: [{ organizationId: randomUUID() }],
    workflowExecutionTimeout: '60s',
  });
  started.push({ workflowId });
  return handle;
}

test('by default a stack trace query answers that the worker records none', async () => {
  const handle = await startWaitingWorkflow(config.temporal.taskQueue);
  await expect(handle.query<string>('__stack_trace')).rejects.toThrow(/stack traces are not enabled on this worker/);
  // The workflow itself is unaffected: it is still running and answers its describe.
  expect((await handle.describe()).status.name).toBe('RUNNING');
});

test('with WORKER_WORKFLOW_STACK_TRACES=true the query shows where the workflow waits', async () => {
  const handle = await startWaitingWorkflow(tracingQueue);
  const stack = await handle.query<string>('__stack_trace');
  // Source-mapped: the awaited call in workflows/organizations.ts, e.g. "at getOrganizationSummary (…/organizations.ts:34:27)".
  expect(stack).toMatch(/workflows\/organizations\.ts:\d+:\d+/);
});
