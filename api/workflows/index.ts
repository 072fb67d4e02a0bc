import type { Domain } from '../domain';
import type { Services } from '../../domain/services';
import { workflowRoutes } from './routes';

/** Workflow definitions, their versions and status (docs/workflows.md); tools are checked against the tool catalogue. */
export function createWorkflowsDomain(services: Services): Domain {
  const { tools } = services.deps;
  return { routes: workflowRoutes(services.workflows, (id) => tools.get(id)) };
}
