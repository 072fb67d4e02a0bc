import type { Domain } from '../domain';
import type { Services } from '../../domain/services';
import { eventRoutes } from './routes';

/** Custom events, the event catalog, and the outgoing webhook delivery log (docs/events.md). */
export function createEventsDomain(services: Services): Domain {
  return { routes: eventRoutes(services.events) };
}
