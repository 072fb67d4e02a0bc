import type { Db } from '../../db/knex';
import type { ProcessDeps } from '../deps';
import { isUniqueViolation } from '../../lib/db/errors';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { engineMisconfiguration } from '../../lib/temporalSetup';
import type { NodeState, ParameterDecl } from '../../lib/dag/model';
import { checkParameters, type ParameterProblem } from '../../lib/runs/parameters';
import { runFlowOf, runPriority } from '../../lib/runs/flowPlan';
import type { RunInput, RunOptions, RunTrigger } from '../../lib/runs/types';
import { loadWorkflowVersion, type LoadedWorkflowVersion } from '../workflows/queries';
import type { RunExecutions, RunStartContext } from './executions';
import { findRunById, insertRun, markRunFinished, singletonCollision, type RunRow } from './queries';
import { placeRun, type RunFlowPlacement } from './flow';

/**
 * The one door through which runs start. Every start is the same two steps: a `workflow_runs` row (`pending`), then
 * the `dagRunWorkflow` execution whose workflow id is the run id (domain/runs/executions.ts). Here are the input
 * of that execution (`runInputOf`, the only place a run's input is built), the start that turns a failure into a
 * failed run (`startOrFail`), and the two ways of getting there:
 * - manual starts, retries and replays (the runs service, domain/runs/service.ts): admission (runs-per-minute and
 *   concurrency of the organization, domain/runs/admission.ts), the audit line and the approval wait are the
 *   service's policies around `insert`;
 * - triggers (`prepareTriggeredRun`: webhooks in the API, events and schedules in activities), made idempotent for
 *   callers that may repeat themselves after a crash: the run id is chosen by the caller (derived from the event,
 *   delivery or schedule firing), the row insert ignores an existing row, a repeated prepare of a pending run
 *   rebuilds the same input, and the execution is started with REJECT_DUPLICATE ("already started" counts as
 *   success), so a run never runs twice even after its first execution closed. Triggers fire only while the
 *   workflow is `active`; their budgets are the callers' `admit`.
 * Subworkflow runs are started by their parent's workflow code (workflows/runs/subworkflows.ts).
 */

/** The execution input of a run whose row is `row`. */
export function runInputOf(
  row: Pick<RunRow, 'id' | 'organization_id' | 'parameters' | 'trigger' | 'flow_keys' | 'priority' | 'created_at'>,
  loaded: Pick<LoadedWorkflowVersion, 'compiled'>,
  options: RunOptions,
  extras: { reused?: Record<string, NodeState>; approval?: RunInput['approval'] } = {},
): RunInput {
  const { flow } = loaded.compiled;
  const priority = runPriority(flow, row.priority);
  const gate = runFlowOf(row.id, loaded.compiled.workflowId, flow, row.flow_keys, priority, new Date(row.created_at).getTime());
  return {
    runId: row.id,
    organizationId: row.organization_id,
    compiled: loaded.compiled,
    parameters: row.parameters,
    trigger: row.trigger,
    options,
    ...(extras.reused ? { reused: extras.reused } : {}),
    kind: 'run',
    depth: 0,
    ...(extras.approval ? { approval: extras.approval } : {}),
    ...(gate ? { flow: gate } : {}),
    ...(flow || (row.priority !== null && row.priority !== undefined) ? { priority } : {}),
  };
}

/**
 * Starts a run's execution for a caller that answers now (an API request, a webhook): a start that fails leaves the
 * run failed and throws: 503 (run error START_FAILED) while the engine is unreachable, 500 ENGINE_MISCONFIGURED (the
 * same code on the run) when it refused for its set-up (docs/runs.md#runs-that-could-not-start). Callers that retry on their own (event dispatch) start without it: the
 * run stays pending for their next attempt.
 */
export async function startOrFail(
  deps: { db: Db; logger: Logger },
  executions: Pick<RunExecutions, 'start'>,
  input: RunInput,
  context: RunStartContext = {},
): Promise<void> {
  try {
    await executions.start(input, context);
  } catch (err) {
    deps.logger.error({ err, runId: input.runId }, 'starting a run failed');
    // Refused for the engine's set-up: a retry fails the same way until an operator acts, so it is said as such.
    const misconfigured = engineMisconfiguration(err);
    const message = misconfigured
      ? `the workflow engine is not set up for runs: ${misconfigured}; the run was not started (an operator must fix this: docs/operating.md#readiness)`
      : 'the workflow engine is unavailable; the run was not started';
    await markRunFinished(deps.db, input.runId, 'failed', [
      { node: null, code: misconfigured ? 'ENGINE_MISCONFIGURED' : 'START_FAILED', message, attempt: 0, time: new Date().toISOString() },
    ]);
    throw new AppError(misconfigured ? 'ENGINE_MISCONFIGURED' : 'SERVICE_UNAVAILABLE', message);
  }
}

export type PrepareOutcome =
  | { kind: 'ready'; input: RunInput; row: RunRow }
  | { kind: 'finished'; row: RunRow }
  /** the workflow's singleton control found an open run with the same key: that run, and no new one */
  | { kind: 'joined'; row: RunRow }
  | { kind: 'refused'; code: 'NOT_FOUND' | 'INVALID_STATE' | 'INVALID_PARAMETERS' | 'FLOW_KEY_INVALID'; message: string; problems?: ParameterProblem[] };

export interface PrepareRequest {
  organizationId: string;
  workflowId: string;
  runId: string;
  trigger: RunTrigger;
  /** The parameters, computed from the declared ones (mappings need them). */
  parameters: (declared: ParameterDecl[]) => Record<string, unknown>;
  createdBy?: string | null;
  /** The priority the trigger declares (`config.priority`); absent: the workflow's. */
  priority?: number;
  /** Parameters that do not check: refuse (webhooks answer 422) or record a failed run (events, schedules). */
  onInvalidParameters: 'refuse' | 'record_failed';
  /**
   * Called before a new run row is inserted, never for a run prepared before (a repeated prepare must start what it
   * inserted): throws to leave the run unstarted (events out of their organization's budget).
   */
  admit?: () => Promise<void>;
}

/** A triggered run's row, inserted once, and its input when it is to be started. */
export async function prepareTriggeredRun(deps: Pick<ProcessDeps, 'db' | 'config' | 'tools'>, request: PrepareRequest): Promise<PrepareOutcome> {
  const { db, config, tools } = deps;
  const existing = await findRunById(db, request.organizationId, request.runId);
  const loaded = await loadWorkflowVersion(db, request.organizationId, request.workflowId, existing?.workflow_version);
  if (!loaded) return { kind: 'refused', code: 'NOT_FOUND', message: 'workflow not found' };
  await tools.refresh();
  const build = (row: RunRow): RunInput => runInputOf(row, loaded, { ...config.runs, ...tools.runOptions() });
  if (existing) return existing.status === 'pending' ? { kind: 'ready', input: build(existing), row: existing } : { kind: 'finished', row: existing };

  if (loaded.workflow.status !== 'active') {
    return { kind: 'refused', code: 'INVALID_STATE', message: `workflow is ${loaded.workflow.status}; triggers fire only while it is active` };
  }
  const { values, problems } = checkParameters(loaded.compiled.parameters, request.parameters(loaded.compiled.parameters));
  if (problems.length && request.onInvalidParameters === 'refuse') {
    return { kind: 'refused', code: 'INVALID_PARAMETERS', message: 'the parameters do not match the declared parameters', problems };
  }
  // Flow control: the run's groups and priority (the trigger's own, else the workflow's); a key that cannot be
  // computed is refused like invalid parameters, or recorded as the run's failure.
  let placement: RunFlowPlacement | null = null;
  let keyProblem: string | null = null;
  if (!problems.length) {
    try {
      placement = await placeRun(request.organizationId, loaded.compiled.flow, values, request.trigger, request.priority);
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'FLOW_KEY_INVALID')) throw err;
      if (request.onInvalidParameters === 'refuse') return { kind: 'refused', code: 'FLOW_KEY_INVALID', message: err.message };
      keyProblem = err.message;
    }
  }
  await request.admit?.();
  let row: RunRow;
  try {
    row = await insertRun(db, {
      id: request.runId,
      organizationId: request.organizationId,
      workflowId: request.workflowId,
      workflowVersion: loaded.compiled.version,
      parameters: problems.length ? {} : values,
      trigger: request.trigger,
      retryOf: null,
      createdBy: request.createdBy ?? null,
      flow: placement,
    });
  } catch (err) {
    const collided = await singletonCollision(db, err, { ...request, singletonKey: placement?.singletonKey ?? null });
    // Ended between the two statements: the caller's retry (triggers retry their activities) inserts it then.
    if (collided === 'ended') throw err;
    if (collided) return { kind: 'joined', row: collided };
    // A concurrent prepare of the same run inserted it first.
    if (!isUniqueViolation(err)) throw err;
    const again = await findRunById(db, request.organizationId, request.runId);
    if (!again) throw err;
    return again.status === 'pending' ? { kind: 'ready', input: build(again), row: again } : { kind: 'finished', row: again };
  }
  if (problems.length || keyProblem) {
    await markRunFinished(db, row.id, 'failed', [
      {
        node: null,
        code: keyProblem ? 'FLOW_KEY_INVALID' : 'INVALID_PARAMETERS',
        message: keyProblem ?? problems.map((p) => `${p.path} ${p.problem}`).join('; '),
        attempt: 0,
        time: new Date().toISOString(),
      },
    ]);
    return { kind: 'finished', row: (await findRunById(db, request.organizationId, row.id))! };
  }
  return { kind: 'ready', input: build(row), row };
}

