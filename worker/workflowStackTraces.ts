import { prepareWorkflowThreads } from './workflowThreads';

/**
 * For the `__stack_trace` query (Temporal Web's "Stack Trace" tab) Temporal's SDK installs a promise hook in each
 * workflow thread that builds an Error stack, source-mapped frame by frame, for every promise workflow code
 * creates. The DAG interpreter creates several per node: under run load that hook was a fifth to a quarter of the
 * worker's CPU (docs/benchmarks.md). The SDK has no option for it, but it leaves the hook out, and answers stack
 * trace queries with "Workflow stack traces are not enabled on this worker", when creating the hook throws.
 *
 * `disableWorkflowStackTraces()` makes that so for the SDK's workflow threads started afterwards in this process:
 * they start with the preload workflowThreadSetup.cjs (workflowThreads.ts), which refuses that one hook (by its
 * caller) and leaves every other promise hook alone (Node's async_hooks, hence AsyncLocalStorage and the SDK's
 * cancellation scopes, use the same `v8.promiseHooks.createHook`). Other threads start as before. It is a process-wide choice, made once by the
 * worker's entry point (WORKER_WORKFLOW_STACK_TRACES). The returned function undoes it for threads started later.
 */
export function disableWorkflowStackTraces(): () => void {
  return prepareWorkflowThreads(() => ({ loomStackTracesOff: true }));
}
