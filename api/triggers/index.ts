import type { Domain } from '../domain';
import type { Services } from '../../domain/services';
import { triggerRoutes } from './routes';
import { createWebhookIngress } from './webhookIngress';

/** Schedule, webhook and manual-approval triggers (docs/triggers.md). Events: api/events. */
export function createTriggersDomain(services: Services): Domain {
  const ingress = createWebhookIngress(services.deps, { runs: services.webhookRuns, waiter: services.runWaiter, events: services.events });
  return { routes: triggerRoutes(services.triggers, services.approvals, ingress) };
}
