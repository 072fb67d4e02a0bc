import { randomUUID } from 'node:crypto';
import type { RunFinishedEvent } from '../../domain/runs/queries';
import type { RunError, RunStatus } from '../../lib/dag/model';

/**
 * run.completed / run.failed (lib/events/catalog.ts), written by the activity that stores a run's final state, in
 * the same statement (domain/runs/queries.ts finishRun). Cancelled runs emit nothing; the statement inserts the event
 * only on the transition from an open status, so a retried activity does not emit twice. Here are the payload's
 * fields the final state gives (status, completedAt, the first 5 errors); the statement adds the run's: runId,
 * workflow_id, organizationID, workflowVersion, trigger (its type, else `manual`) and chainDepth (else 0).
 */
export function runFinishedEvent(final: { status: RunStatus; errors: RunError[]; completedAt: string }): RunFinishedEvent | null {
  if (final.status !== 'completed' && final.status !== 'failed') return null;
  return {
    id: randomUUID(),
    type: `run.${final.status}`,
    payload: {
      status: final.status,
      completedAt: final.completedAt,
      errors: final.errors.slice(0, 5).map((e) => ({ node: e.node, code: e.code, message: e.message })),
    },
  };
}
