import path from 'node:path';
import workerThreads, { type WorkerOptions } from 'node:worker_threads';

/**
 * How the worker adjusts the SDK's workflow threads, which it does not start itself: each is started with the preload
 * workflowThreadSetup.cjs, and `workerData` tells the preload what to do there (stack traces off, the isolate watch).
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
 * per thread) in their `workerData`; `started` sees each such thread. The returned function undoes it for threads
 * started later. Used by workflowStackTraces.ts and isolateWatch.ts: each wraps the Worker class as it finds it, so
 * the two compose.
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

