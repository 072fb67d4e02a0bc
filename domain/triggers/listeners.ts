import type { AppDeps } from '../deps';
import type { WorkflowListeners } from '../workflows/service';
import { deleteSchedulesWhere, syncSchedules } from './schedules';

/**
 * The triggers domain's reactions to workflow changes (run after the change committed; a failure is logged by the
 * workflows service and can be repaired with POST /api/v1/workflows/{id}/triggers/sync):
 * - status change: schedules created (active), paused (paused) or deleted (archived);
 * - new version: schedules updated to the version's schedule triggers (added, changed, removed);
 * - deletion: schedules deleted.
 * Activating a workflow also makes sure the event dispatcher runs.
 */
export function createWorkflowListeners(deps: AppDeps, ensureDispatcher: () => Promise<void>): WorkflowListeners {
  return {
    onStatusChange: [
      async (e) => {
        await syncSchedules(deps, { organizationId: e.organizationId, workflowId: e.workflowId, status: e.to, definition: e.definition });
        if (e.to === 'active') await ensureDispatcher();
      },
    ],
    onVersionCreated: [
      async (e) => {
        await syncSchedules(deps, { organizationId: e.organizationId, workflowId: e.workflowId, status: e.status, definition: e.definition });
      },
    ],
    onDeleted: [async (e) => deleteSchedulesWhere(deps, { workflow_id: e.workflowId })],
  };
}
