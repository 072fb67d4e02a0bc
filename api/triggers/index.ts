import type { Domain } from '../domain';
import type { AppDeps } from '../../domain/deps';
import { createDispatcherEnsurer } from '../../domain/events/dispatcher';
import { createRateLimiter } from '../../domain/ratelimit/limiter';
import { createRunExecutions } from '../../domain/runs/executions';
import { createRunsService } from '../../domain/runs/service';
import type { WorkflowListeners } from '../../domain/workflows/service';
import { createApprovals } from '../../domain/triggers/approvals';
import { createWorkflowListeners } from '../../domain/triggers/listeners';
import { triggerRoutes } from './routes';
import { createTriggersService } from '../../domain/triggers/service';
import { createWebhookIngress } from './webhookIngress';
import { secretBoxFor } from '../../domain/secrets/queries';

export interface TriggersDomain extends Domain {
  /** Pass to createWorkflowsDomain: schedules follow the workflows' status and versions. */
  workflowListeners: WorkflowListeners;
}

/** Schedule, webhook and manual-approval triggers (docs/triggers.md). Events: api/events. */
export function createTriggersDomain(deps: AppDeps): TriggersDomain {
  const box = secretBoxFor(deps.config);
  const runs = createRunsService(deps, createRunExecutions(deps.temporal, deps.config.temporal));
  const ensureDispatcher = createDispatcherEnsurer(deps.temporal, deps.config.temporal.taskQueue);
  const service = createTriggersService(deps, box);
  const ingress = createWebhookIngress(deps, createRateLimiter(deps.db), box);
  return {
    routes: triggerRoutes(service, createApprovals(deps, runs), ingress),
    workflowListeners: createWorkflowListeners(deps, ensureDispatcher),
  };
}
