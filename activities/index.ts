import type { ActivityDeps } from './deps';
import { createOrganizationActivities } from './organizations/lifecycle';
import { createTransferActivities } from './organizations/transfers';
import { createSystemActivities } from './system';
import { createContentActivities } from './content';
import { createRunActivities } from './runs/runActivities';
import { createToolActivities } from './runs/toolActivities';
import { createTriggerActivities } from './triggers';
import { createEventActivities } from './events/dispatch';
import { createWebhookActivities } from './webhooks';
import { createEventWaitActivities } from './runs/eventWaits';
import { createApprovalActivities } from './runs/approvals';
import { createRespondActivities } from './runs/respond';
import { createFlowActivities } from './runs/flow';

/**
 * Every activity the worker registers. Workflows import the *type* of this object only, and call activities
 * through proxyActivities, so no side-effecting code ever enters the workflow bundle.
 */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createSystemActivities(deps),
    ...createOrganizationActivities(deps),
    ...createTransferActivities(deps),
    ...createRunActivities(deps),
    ...createEventWaitActivities(deps),
    ...createApprovalActivities(deps),
    ...createRespondActivities(deps),
    ...createFlowActivities(deps),
    ...createContentActivities(deps),
    ...createTriggerActivities(deps),
    ...createEventActivities(deps),
    ...createWebhookActivities(deps),
    // one activity per registered tool, named by the tool id
    ...createToolActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
