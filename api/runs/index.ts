import type { Domain } from '../domain';
import type { AppDeps } from '../../domain/deps';
import { createRateLimiter } from '../../domain/ratelimit/limiter';
import { createRunAdmission } from '../../domain/runs/admission';
import { createRunExecutions } from '../../domain/runs/executions';
import { circuitBreakerRoutes, deadLetterRoutes, runRoutes } from './routes';
import { createRunsService, type RunsService } from '../../domain/runs/service';

export interface RunsDomain extends Domain {
  service: RunsService;
}

/** Runs of workflows, their dead letters and circuit breakers (docs/runs.md); API starts pass run admission. */
export function createRunsDomain(deps: AppDeps): RunsDomain {
  const admission = createRunAdmission(deps.db, createRateLimiter(deps.db), deps.config.runAdmission);
  const service = createRunsService(deps, createRunExecutions(deps.temporal, deps.config.temporal), admission);
  return { service, routes: [...runRoutes(service, { maxWaitMs: deps.config.runWait.maxMs }), ...deadLetterRoutes(service), ...circuitBreakerRoutes(service)] };
}
