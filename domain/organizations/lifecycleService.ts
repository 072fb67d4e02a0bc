import { WorkflowNotFoundError } from '@temporalio/client';
import type { DeletionProgress } from '../../workflows/organizations';
import type { OrgServiceDeps } from './serviceDeps';
import { deleteWorkflowId } from './organizationsService';

/**
 * Progress of a deletion comes from the workflow itself (a query), not from PostgreSQL: once the organization's
 * rows are gone nothing of it remains there. Only the user who asked for the deletion may follow it.
 */
export function createLifecycleService(d: OrgServiceDeps) {
  async function deletionStatus(organizationId: string, userId: string) {
    const handle = d.temporal.workflow.getHandle(deleteWorkflowId(organizationId));
    let status: string;
    try {
      status = (await handle.describe()).status.name;
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) return null;
      throw err;
    }
    const progress = await handle.query<DeletionProgress>('deletionProgress');
    if (progress.requestedBy !== userId) return null;
    return {
      organizationID: organizationId,
      workflowId: deleteWorkflowId(organizationId),
      // After the last step the workflow may still wait to remove the export: the deletion itself is complete.
      status: progress.step === 'done' ? ('completed' as const) : status === 'RUNNING' ? ('running' as const) : ('failed' as const),
      step: progress.step,
      stepsDone: progress.stepsDone,
      exportUrl: progress.exportUrl,
    };
  }
  return { deletionStatus };
}
