import { WorkflowNotFoundError } from '@temporalio/client';
import type { Db } from '../../db/knex';
import type { DeletionProgress } from '../../lib/organizations/deletion';
import { recordAudit } from '../audit/record';
import type { OrgServiceDeps } from './serviceDeps';
import { deleteWorkflowId } from './organizationsService';
import { restoreDeletingOrganization } from './queries';

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

/**
 * The deletion workflow's way out when its export cannot be written (nothing has been deleted yet): the
 * organization becomes active again and the audit log says why. False when it was not `deleting` (already restored,
 * or gone).
 */
export async function abortDeletion(db: Db, organizationId: string, reason: string, requestedBy: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    const restored = await restoreDeletingOrganization(trx, organizationId);
    if (restored) {
      await recordAudit(trx, {
        organizationId,
        actor: { type: 'system', id: deleteWorkflowId(organizationId) },
        action: 'organization.deletion_aborted',
        target: { type: 'organization', id: organizationId },
        after: { reason: reason.slice(0, 500), requestedBy },
      });
    }
    return restored;
  });
}
