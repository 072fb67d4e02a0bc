import type { Domain } from '../domain';
import type { AppDeps } from '../../domain/deps';
import { createRateLimiter } from '../../domain/ratelimit/limiter';
import { createDispatcherEnsurer } from '../../domain/events/dispatcher';
import { eventRoutes } from './routes';
import { createEventsService } from '../../domain/events/service';

/** Custom events, the event catalog, and the outgoing webhook delivery log (docs/events.md). */
export function createEventsDomain(deps: AppDeps): Domain {
  const service = createEventsService(deps, createDispatcherEnsurer(deps.temporal, deps.config.temporal.taskQueue), createRateLimiter(deps.db));
  return { routes: eventRoutes(service) };
}
