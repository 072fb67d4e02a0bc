import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { ActivityDeps } from '../deps';

const BATCH = 200;

/**
 * Organization deletion: cancels the organization's runs that are still open in Temporal (their rows go with the
 * organization's cascade afterwards). Idempotent: a run that already ended or is unknown is skipped.
 */
export async function cancelOrganizationRuns(organizationId: string, deps: ActivityDeps): Promise<void> {
  const client = Context.current().client;
  let after = '';
  for (;;) {
    const rows: { id: string }[] = await deps.db('workflow_runs')
      .where({ organization_id: organizationId })
      .whereIn('status', ['pending', 'running'])
      .andWhere('id', '>', after || '00000000-0000-0000-0000-000000000000')
      .orderBy('id')
      .limit(BATCH)
      .select('id');
    for (const { id } of rows) {
      try {
        await client.workflow.getHandle(id).cancel();
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
      Context.current().heartbeat(id);
    }
    if (rows.length < BATCH) return;
    after = rows[rows.length - 1]!.id;
  }
}
