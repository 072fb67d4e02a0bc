import type { AppDeps, Domain } from '../domain';
import { createRunExecutions } from './executions';
import { circuitBreakerRoutes, deadLetterRoutes, runRoutes } from './routes';
import { createRunsService, type RunsService } from './service';

export interface RunsDomain extends Domain {
  service: RunsService;
}

/** Runs of workflows, their dead letters and circuit breakers (docs/runs.md). */
export function createRunsDomain(deps: AppDeps): RunsDomain {
  const service = createRunsService(deps, createRunExecutions(deps.temporal, deps.config.temporal));
  return { service, routes: [...runRoutes(service), ...deadLetterRoutes(service), ...circuitBreakerRoutes(service)] };
}
