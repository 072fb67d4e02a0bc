import type { Priority } from '@temporalio/common';

/**
 * The Temporal priority of an organization's executions: its id as the fairness key. With task queue fairness on
 * (scripts/services, docker-compose's dynamic config), the server dispatches the shared task queue's tasks in
 * turn across organizations instead of first come first served, so one organization's backlog (a fan-out of
 * hundreds of activities, a burst of runs) no longer holds every other organization's work behind it.
 * Activities and child workflows inherit it from the execution that starts them. Pure: workflow code uses it too.
 */
export function tenantPriority(organizationId: string): Priority {
  return { fairnessKey: organizationId };
}
