import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { Config } from '../../lib/config';
import { withTemporalAbortSignal } from '../../lib/temporal';
import { AppError } from '../../lib/errors';
import { runStartMetadata } from '../../lib/runs/searchAttributes';
import { tenantPriority } from '../../lib/tenantPriority';
import type { RunInput, RunStateView } from '../../lib/runs/types';
import { FLOW_STATE_QUERY, flowGateWorkflowId, type FlowGateView } from '../../lib/runs/flowGate';

/**
 * The runs domain's only contact with Temporal: start a run's execution (workflow id = run id), read its live
 * state through the `runState` query, cancel it, and ask whether it has closed.
 */
export const RUN_WORKFLOW_TYPE = 'dagRunWorkflow';
const QUERY_TIMEOUT_MS = 3000;

export type ExecutionStatus = 'RUNNING' | 'COMPLETED' | 'FAILED' | 'CANCELLED' | 'TERMINATED' | 'TIMED_OUT' | 'CONTINUED_AS_NEW' | 'UNKNOWN';

/** What a starter knows about a run beyond its input, for Temporal Web (summary, memo) and the worker's log lines. */
export interface RunStartContext {
  organizationName?: string;
  /** The X-Request-Id of the API request that started the run. */
  requestId?: string;
}

export interface RunExecutions {
  start(input: RunInput, context?: RunStartContext): Promise<void>;
  /** Null when the execution cannot answer now (no worker, not found): callers fall back to PostgreSQL. */
  liveState(runId: string): Promise<RunStateView | null>;
  cancel(runId: string): Promise<boolean>;
  /** Resolves when the execution closes, after `timeoutMs` or when `signal` aborts, whichever is first. */
  waitClosed(runId: string, timeoutMs: number, signal?: AbortSignal): Promise<void>;
  status(runId: string): Promise<ExecutionStatus | null>;
  temporalUrl(runId: string): string;
  /**
   * What a workflow's flow gate holds (workflows/flow/gate.ts): null when it is not running (it ends once it holds
   * nothing); throws when Temporal cannot answer.
   */
  flowGate(workflowId: string): Promise<FlowGateView | null>;
}

/**
 * Runs a Temporal call with a time limit that really cancels the gRPC call (a Promise.race would leave it, and its
 * retries, running after the caller gave up, even past the connection's close). Null when the limit is reached.
 */
async function withTimeout<T>(client: Client, ms: number, call: () => Promise<T>, signal?: AbortSignal): Promise<T | null> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  const stop = () => controller.abort();
  signal?.addEventListener('abort', stop, { once: true });
  if (signal?.aborted) controller.abort();
  try {
    return await withTemporalAbortSignal(client, controller.signal, call);
  } catch (err) {
    if (controller.signal.aborted) return null;
    throw err;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
  }
}

/**
 * Starts a run's interpreter execution (workflow id = run id). Idempotent: with REJECT_DUPLICATE a second start
 * of the same run, even after its first execution closed, is a no-op, so callers that repeat themselves after a
 * crash (triggers, event dispatch) never run a run twice. Temporal Web shows the execution by its summary
 * (`<workflow name> v<version> · <trigger>`), details and memo (names of the workflow and organization, the
 * request id), see docs/operating.md#temporal-web.
 */
export async function startRunExecution(client: Client, taskQueue: string, input: RunInput, context: RunStartContext = {}): Promise<void> {
  try {
    await client.workflow.start(RUN_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: input.runId,
      args: [input],
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      priority: tenantPriority(input.organizationId),
      ...runStartMetadata({
        runId: input.runId,
        organizationId: input.organizationId,
        organizationName: context.organizationName,
        workflowId: input.compiled.workflowId,
        workflowName: input.compiled.name,
        workflowVersion: input.compiled.version,
        trigger: input.trigger.type,
        runKind: input.kind,
        requestId: context.requestId,
      }),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

export function createRunExecutions(client: Client, config: Config['temporal']): RunExecutions {
  return {
    start: (input, context) => startRunExecution(client, config.taskQueue, input, context),
    async liveState(runId) {
      try {
        return await withTimeout(client, QUERY_TIMEOUT_MS, () => client.workflow.getHandle(runId).query<RunStateView>('runState'));
      } catch {
        return null;
      }
    },
    async cancel(runId) {
      try {
        await client.workflow.getHandle(runId).cancel();
        return true;
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return false;
        throw err;
      }
    },
    async waitClosed(runId, timeoutMs, signal) {
      await withTimeout(
        client,
        timeoutMs,
        () =>
          client.workflow
            .getHandle(runId)
            .result()
            .catch(() => undefined),
        signal,
      );
    },
    async status(runId) {
      try {
        const description = await withTimeout(client, QUERY_TIMEOUT_MS, () => client.workflow.getHandle(runId).describe());
        return (description?.status.name as ExecutionStatus | undefined) ?? null;
      } catch {
        return null;
      }
    },
    async flowGate(workflowId) {
      try {
        const view = await withTimeout(client, QUERY_TIMEOUT_MS, () => client.workflow.getHandle(flowGateWorkflowId(workflowId)).query<FlowGateView>(FLOW_STATE_QUERY));
        // No answer in time: no worker took the query (the counts are a worker's to give), not an empty gate.
        if (view === null) throw new AppError('SERVICE_UNAVAILABLE', 'the workflow engine did not answer in time; try again');
        return view;
      } catch (err) {
        // Not found, or closed: it holds nothing (a closed execution still answers queries while its history is kept).
        if (err instanceof WorkflowNotFoundError) return null;
        throw err;
      }
    },
    temporalUrl(runId) {
      return `${config.uiUrl.replace(/\/$/, '')}/namespaces/${encodeURIComponent(config.namespace)}/workflows/${encodeURIComponent(runId)}`;
    },
  };
}
