import path from 'node:path';
import workerThreads, { type WorkerOptions } from 'node:worker_threads';

/**
 * For the `__stack_trace` query (Temporal Web's "Stack Trace" tab) Temporal's SDK installs a promise hook in each
 * workflow thread that builds an Error stack, source-mapped frame by frame, for every promise workflow code
 * creates. The DAG interpreter creates several per node: under run load that hook was a fifth to a quarter of the
 * worker's CPU (docs/benchmarks.md). The SDK has no option for it, but it leaves the hook out, and answers stack
 * trace queries with "Workflow stack traces are not enabled on this worker", when creating the hook throws.
 *
 * `disableWorkflowStackTraces()` makes that so for the SDK's workflow threads started afterwards in this process:
 * they start with the preload workflowThreadSetup.cjs, which refuses that one hook (by its caller) and leaves every
 * other promise hook alone (Node's async_hooks, hence AsyncLocalStorage and the SDK's cancellation scopes, use the
 * same `v8.promiseHooks.createHook`). Other threads start as before. It is a process-wide choice, made once by the
 * worker's entry point (WORKER_WORKFLOW_STACK_TRACES). The returned function undoes it for threads started later.
 */
const SDK_WORKFLOW_THREAD = path.join('workflow', 'workflow-worker-thread.js');
export const WORKFLOW_THREAD_SETUP = path.join(__dirname, 'workflowThreadSetup.cjs');

function isSdkWorkflowThread(filename: string | URL): boolean {
  return (typeof filename === 'string' ? filename : filename.pathname).endsWith(SDK_WORKFLOW_THREAD);
}

/**
 * The preload with `data` added to the thread's `workerData` (how the preload learns what to do). A worker thread
 * reads NODE_OPTIONS from an `env` given to it (not from an inherited one); its flags stay inherited.
 */
function withSetupPreload(options: WorkerOptions | undefined, data: Record<string, unknown>): WorkerOptions {
  const env = options?.env && typeof options.env === 'object' ? (options.env as NodeJS.ProcessEnv) : process.env;
  const preload = `--require ${JSON.stringify(WORKFLOW_THREAD_SETUP)}`;
  const nodeOptions = env.NODE_OPTIONS?.includes(preload) ? env.NODE_OPTIONS : [env.NODE_OPTIONS, preload].filter(Boolean).join(' ');
  const workerData: unknown = options?.workerData;
  const merged = workerData && typeof workerData === 'object' ? { ...(workerData as Record<string, unknown>), ...data } : data;
  return { ...options, env: { ...env, NODE_OPTIONS: nodeOptions }, workerData: merged };
}

/**
 * Makes the SDK's workflow threads started afterwards in this process start with the preload and `data()` (asked
 * per thread) in their `workerData`; `started` sees each such thread. The returned function undoes it for threads started later. Used by
 * this module and by isolateWatch.ts: each wraps the Worker class as it finds it, so the two compose.
 */
export function prepareWorkflowThreads(
  data: () => Record<string, unknown>,
  started?: (thread: workerThreads.Worker, options: WorkerOptions) => void,
): () => void {
  const Original = workerThreads.Worker;
  class PreparedWorkflowThread extends Original {
    constructor(filename: string | URL, options?: WorkerOptions) {
      const sdk = isSdkWorkflowThread(filename);
      const prepared = sdk ? withSetupPreload(options, data()) : options;
      super(filename, prepared);
      if (sdk) started?.(this, prepared!);
    }
  }
  (workerThreads as { Worker: typeof Original }).Worker = PreparedWorkflowThread;
  return () => {
    (workerThreads as { Worker: typeof Original }).Worker = Original;
  };
}

export function disableWorkflowStackTraces(): () => void {
  return prepareWorkflowThreads(() => ({ loomStackTracesOff: true }));
}
