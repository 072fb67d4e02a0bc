import type { Knex } from 'knex';
import { writeEvent } from '../../domain/events/outbox';
import type { RunBeforeFinish } from '../../domain/runs/queries';
import type { RunError, RunStatus } from '../../lib/dag/model';

/**
 * run.completed / run.failed, written by the activity that stores a run's final state, in its transaction. Only
 * on the transition from an open status, so a retried activity does not emit twice; cancelled runs emit nothing.
 */
export async function recordRunFinishedEvent(
  trx: Knex.Transaction,
  before: RunBeforeFinish,
  final: { status: RunStatus; errors: RunError[]; completedAt: string },
): Promise<void> {
  if (before.status !== 'pending' && before.status !== 'running') return;
  if (final.status !== 'completed' && final.status !== 'failed') return;
  const trigger = before.trigger ?? {};
  await writeEvent(trx, before.organization_id, `run.${final.status}`, {
    runId: before.id,
    workflow_id: before.workflow_id,
    organizationID: before.organization_id,
    workflowVersion: before.workflow_version,
    status: final.status,
    trigger: typeof trigger.type === 'string' ? trigger.type : 'manual',
    completedAt: final.completedAt,
    errors: final.errors.slice(0, 5).map((e) => ({ node: e.node, code: e.code, message: e.message })),
    chainDepth: typeof trigger.chainDepth === 'number' ? trigger.chainDepth : 0,
  });
}
