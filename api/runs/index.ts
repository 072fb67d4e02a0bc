import type { Domain } from '../domain';
import type { Services } from '../../domain/services';
import { circuitBreakerRoutes, deadLetterRoutes, runRoutes } from './routes';

/** Runs of workflows, their dead letters and circuit breakers (docs/runs.md); API starts pass run admission. */
export function createRunsDomain(services: Services): Domain {
  const { runs, deps } = services;
  return { routes: [...runRoutes(runs, { maxWaitMs: deps.config.runWait.maxMs }), ...deadLetterRoutes(runs), ...circuitBreakerRoutes(runs)] };
}
