import type { Domain } from '../domain';
import type { AppDeps } from '../../domain/deps';
import { toolCatalogueFor } from '../../domain/tools/catalogue';
import { createToolsService } from '../../domain/tools/service';
import { createRateLimiter } from '../../domain/ratelimit/limiter';
import { toolRoutes } from './routes';

/** The tool catalogue as the workers published it, and test runs of one tool (docs/workflows.md#tools). */
export function createToolsDomain(deps: AppDeps): Domain {
  const service = createToolsService(deps, toolCatalogueFor(deps), createRateLimiter(deps.db));
  return { routes: toolRoutes(service) };
}
