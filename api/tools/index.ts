import type { Domain } from '../domain';
import type { Services } from '../../domain/services';
import { toolRoutes } from './routes';

/** The tool catalogue as the workers published it, and test runs of one tool (docs/workflows.md#tools). */
export function createToolsDomain(services: Services): Domain {
  return { routes: toolRoutes(services.tools) };
}
