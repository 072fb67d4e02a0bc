import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';

export const DISPATCHER_WORKFLOW_TYPE = 'eventDispatcherWorkflow';

export function dispatcherWorkflowId(taskQueue: string): string {
  return `loom-event-dispatcher-${taskQueue}`;
}

/**
 * Makes sure the event dispatcher (workflows/triggers/events.ts) runs for this task queue. It is one long-running
 * execution that survives API and worker restarts; this only (re)creates it. Called by deploys
 * (worker/backgroundJobs.ts at worker start), by the API when a workflow changes status or a client publishes an event
 * (once per process when it succeeds), and by tests.
 */
export async function ensureEventDispatcher(client: Client, taskQueue: string): Promise<'started' | 'running'> {
  try {
    await client.workflow.start(DISPATCHER_WORKFLOW_TYPE, { taskQueue, workflowId: dispatcherWorkflowId(taskQueue), args: [] });
    return 'started';
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return 'running';
    throw err;
  }
}

/** A per-process memo of ensureEventDispatcher: after one success it costs nothing. Failures are retried next call. */
export function createDispatcherEnsurer(client: Client, taskQueue: string): () => Promise<void> {
  let done: Promise<void> | null = null;
  return () => {
    done ??= ensureEventDispatcher(client, taskQueue).then(
      () => undefined,
      (err: unknown) => {
        done = null;
        throw err;
      },
    );
    return done;
  };
}
