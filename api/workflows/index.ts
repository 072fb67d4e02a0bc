import type { Domain } from '../domain';
import type { AppDeps } from '../../domain/deps';
import { existingSecretNames } from '../../domain/secrets/queries';
import { workflowRoutes } from './routes';
import { createWorkflowsService, emptyListeners, type WorkflowListeners, type WorkflowsService } from '../../domain/workflows/service';
import { createValidationEnv } from '../../domain/workflows/validationEnv';
import { createOffLoopValidator } from '../../domain/workflows/validationThread';
import { toolCatalogueFor } from '../../domain/tools/catalogue';

export type { StatusChangeEvent, VersionCreatedEvent, WorkflowListeners } from '../../domain/workflows/service';

export interface WorkflowsDomain extends Domain {
  service: WorkflowsService;
  /**
   * Attach listeners here (e.g. the triggers domain creating or pausing schedules on status changes). They run
   * after the change is committed, in order; failures are logged.
   */
  listeners: WorkflowListeners;
  /** Ends the validation thread (app shutdown). */
  close(): Promise<void>;
}

/** Workflow definitions, their versions and status (docs/workflows.md); tools are checked against the tool catalogue. */
export function createWorkflowsDomain(deps: AppDeps, listeners: WorkflowListeners = emptyListeners()): WorkflowsDomain {
  const tools = toolCatalogueFor(deps);
  const validator = createOffLoopValidator();
  const service = createWorkflowsService({
    db: deps.db,
    logger: deps.logger,
    validationEnv: createValidationEnv(tools),
    refreshTools: () => tools.refresh(),
    offLoop: { validator, tools: () => tools.list() },
    listeners,
    secretNames: (organizationId, names) => existingSecretNames(deps.db, organizationId, names),
  });
  return { service, listeners, routes: workflowRoutes(service, (id) => tools.get(id)), close: () => validator.close() };
}
