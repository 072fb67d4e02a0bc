import { NativeConnection, Worker, type ActivityInterceptorsFactory, type WorkflowBundle, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../activities';
import { createFlowActivities } from '../activities/runs/flow';
import { flowTaskQueue } from '../lib/runs/flowGate';
import type { ActivityDeps } from '../activities/deps';
import { ValueMemory, withValueLease } from '../activities/runs/valueMemory';
import { workerTools } from '../activities/tools/registry';
import { activityLogInterceptor, installTemporalRuntime, workflowLogSinks } from './logging';
import { temporalTransport } from '../lib/temporalTransport';

export interface WorkerSetup {
  deps: ActivityDeps;
  /** Prebuilt workflow bundle (tests share one); otherwise the worker bundles `workflows/` itself. */
  workflowBundlePath?: string;
  /** A bundle built in this process (worker/main.ts builds one for both of its workers). */
  workflowBundle?: WorkflowBundle;
  overrides?: Partial<WorkerOptions>;
}

/** The workflow code a worker runs: a bundle file, a bundle built in this process, or `workflows/` bundled by the SDK. */
function workflowSource(setup: Pick<WorkerSetup, 'workflowBundlePath' | 'workflowBundle'>): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> {
  if (setup.workflowBundlePath) return { workflowBundle: { codePath: setup.workflowBundlePath } };
  if (setup.workflowBundle) return { workflowBundle: setup.workflowBundle };
  return { workflowsPath: WORKFLOWS_PATH };
}

export const WORKFLOWS_PATH = require.resolve('../workflows');

/**
 * Each activity reads stored values within the worker's memory for them (activities/runs/valueMemory.ts): regular
 * tool activities wait for room, the others are counted without waiting.
 */
function valueMemoryInterceptor(memory: ValueMemory, toolIds: Set<string>): ActivityInterceptorsFactory {
  return (ctx) => {
    const waits = !ctx.info.isLocal && toolIds.has(ctx.info.activityType);
    return { inbound: { execute: (input, next) => withValueLease(memory, ctx, waits, () => next(input)) } };
  };
}

/**
 * Half of the workflow-task polls go to the task queue's shared side, instead of the SDK's 2 of 10. A run whose nodes
 * all run locally (the bookkeeping writes and the pure tools) is one workflow task, and a first task is always taken
 * from the shared side: with 2 polls there, a single worker under load left new runs waiting ~1.3 s (p50) for their
 * first task while its CPU was not saturated. The other half still serves the sticky side, where the later tasks of
 * runs with regular activities, waits and timers go (docs/benchmarks.md#what-was-done-for-the-run-path).
 */
const NON_STICKY_POLL_RATIO = 0.5;

/**
 * A worker on the configured task queue. Its SDK lines are JSON lines of `deps.logger` (worker/logging.ts): the
 * process's Temporal Runtime is installed with that logger unless one exists already (worker/main.ts installs it
 * first, with the SDK's metrics exporter), and lines about runs carry Loom's ids.
 */
export async function createWorker({ deps, workflowBundlePath, workflowBundle, overrides }: WorkerSetup): Promise<Worker> {
  installTemporalRuntime(deps.logger);
  const connection = await NativeConnection.connect({ address: deps.config.temporal.address, ...temporalTransport(deps.config.temporal) });
  return Worker.create({
    connection,
    namespace: deps.config.temporal.namespace,
    taskQueue: deps.config.temporal.taskQueue,
    activities: createActivities(deps),
    ...workflowSource({ workflowBundlePath, workflowBundle }),
    shutdownGraceTime: '10s',
    // A cancellation reaches a running activity only in the answer to one of its heartbeats, and without this the
    // SDK sends them every 80% of the heartbeat timeout (24 s for 30 s): a cancel would wait that long. Tools beat
    // every 250 ms (activities/runs/toolActivities.ts); this caps what is sent to the server (docs/runs.md#cancellation).
    maxHeartbeatThrottleInterval: deps.config.worker.heartbeatThrottleMs,
    defaultHeartbeatThrottleInterval: deps.config.worker.heartbeatThrottleMs,
    ...(deps.config.worker.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: deps.config.worker.maxCachedWorkflows } : {}),
    sinks: workflowLogSinks(deps.logger),
    nonStickyToStickyPollRatio: NON_STICKY_POLL_RATIO,
    ...overrides,
    interceptors: {
      ...overrides?.interceptors,
      activity: [activityLogInterceptor, valueMemoryInterceptor(
        new ValueMemory(deps.config.worker.storedValueMemoryBytes),
        new Set(workerTools(deps.config.tools).map((tool) => tool.id)),
      ), ...(overrides?.interceptors?.activity ?? [])],
    },
  });
}

/** Workflow tasks of gates at once: each is a few milliseconds of pure decisions (lib/runs/flowGate.ts). */
const FLOW_WORKFLOW_TASKS = 4;

/**
 * The worker of the flow gates' own task queue (lib/runs/flowGate.ts flowTaskQueue): the gate workflows and their
 * one activity, on the main worker's connection. Every worker process runs one, so gates survive any one process.
 */
export async function createFlowWorker(main: Worker, { deps, workflowBundlePath, workflowBundle }: Omit<WorkerSetup, 'overrides'>): Promise<Worker> {
  const { flowOpenRuns } = createFlowActivities(deps);
  return Worker.create({
    connection: main.connection!,
    namespace: deps.config.temporal.namespace,
    taskQueue: flowTaskQueue(deps.config.temporal.taskQueue),
    activities: { flowOpenRuns },
    ...workflowSource({ workflowBundlePath, workflowBundle }),
    shutdownGraceTime: '10s',
    maxConcurrentWorkflowTaskExecutions: FLOW_WORKFLOW_TASKS,
    maxConcurrentActivityTaskExecutions: 2,
    sinks: workflowLogSinks(deps.logger),
    interceptors: { activity: [activityLogInterceptor] },
  });
}
