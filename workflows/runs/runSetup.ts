import { patched } from '@temporalio/workflow';
import { ownsRunRecord, type RunInput } from '../../lib/runs/types';
import type { ExecEnv } from './execute';
import { hasErrorHandlers, hasToolLoops, mayWaitForTurns, startsSubworkflows } from './features';
import type { RunGraph } from './graph';
import {
  HANDLER_PAYLOAD_BUDGET_PATCH,
  JOIN_TOLERATES_PATCH,
  LOOP_RESULTS_BUDGET_PATCH,
  PAYLOAD_BUDGET_PATCH,
  READABLE_ACTIVITIES_PATCH,
  FAILED_JOIN_CANCELS_PATCH,
  RATE_LIMIT_TURNS_PATCH,
  runPatched,
  SUBSECOND_RETRY_PATCH,
  SUBWORKFLOW_BUDGET_PATCH,
  SUBWORKFLOW_RUNS_PATCH,
} from './patches';
import { PayloadBudget } from './payloads';
import { mayRetryWithinSecond } from './strategy';

/** What a run's execution decides once, in its first workflow task: its environment and the code paths it takes. */
export interface RunSetup {
  env: ExecEnv;
  /** The execution keeps a workflow_runs row up to date. */
  ownsRecord: boolean;
  /** Set when the run keeps its activities' payloads within a budget (PAYLOAD_BUDGET_PATCH). */
  payloads: PayloadBudget | null;
  /** Error handlers' contexts are held to a share of the budget (HANDLER_PAYLOAD_BUDGET_PATCH). */
  handlerBudget: boolean;
  /** A met join (first_success, any_n) stops waiting for its other branches' failures (JOIN_TOLERATES_PATCH). */
  joinsTolerateFailures: boolean;
  /** A join that cannot be met cancels its open branches (FAILED_JOIN_CANCELS_PATCH). */
  failedJoinsCancel: boolean;
}

/**
 * The run's environment and patch decisions. Each patch is asked only by runs whose graph can need it, and always
 * in this order: the order of the markers in history must not change (docs/conventions.md#patches).
 */
export function setUpRun(input: RunInput, graph: RunGraph, patchesCurrent: boolean): RunSetup {
  const { compiled } = input;
  const env: ExecEnv = {
    patchesCurrent,
    organizationId: input.organizationId,
    workflowId: compiled.workflowId,
    workflowVersion: compiled.version,
    runId: input.runId,
    parameters: input.parameters,
    errorHandling: compiled.errorHandling,
    options: input.options,
    depth: input.depth,
    chainDepth: typeof input.trigger.chainDepth === 'number' ? input.trigger.chainDepth : 0,
  };
  const ownsRecord = ownsRunRecord(input);
  const budget = input.options.payloadBudgetBytes;
  if (budget && runPatched(env, PAYLOAD_BUDGET_PATCH)) env.payloadBudgetBytes = budget;
  const payloads = env.payloadBudgetBytes ? new PayloadBudget(env.payloadBudgetBytes, env) : null;
  // Asked in the first workflow task, only by runs that own a row and start subworkflows (other runs record no marker).
  env.childRuns = ownsRecord && startsSubworkflows(graph) && runPatched(env, SUBWORKFLOW_RUNS_PATCH);
  env.subworkflowBudget = Boolean(env.payloadBudgetBytes) && env.childRuns && runPatched(env, SUBWORKFLOW_BUDGET_PATCH);
  env.loopResultsBudget = Boolean(env.payloadBudgetBytes) && hasToolLoops(graph) && runPatched(env, LOOP_RESULTS_BUDGET_PATCH);
  const handlerBudget = payloads !== null && hasErrorHandlers(compiled.errorHandling, graph) && runPatched(env, HANDLER_PAYLOAD_BUDGET_PATCH);
  env.subsecondRetries = mayRetryWithinSecond(compiled.errorHandling, compiled.dag.nodes) && runPatched(env, SUBSECOND_RETRY_PATCH);
  env.readableActivities = runPatched(env, READABLE_ACTIVITIES_PATCH);
  const parallels = [...graph.nodes.values()].filter((n) => n.type === 'parallel');
  const joinsTolerateFailures = parallels.some((n) => n.config.joinStrategy !== 'wait_all') && runPatched(env, JOIN_TOLERATES_PATCH);
  // Newer patches, asked after every older one so that their markers keep their order (docs/conventions.md#patches).
  const failedJoinsCancel = parallels.length > 0 && patched(FAILED_JOIN_CANCELS_PATCH);
  env.rateLimitTurns = mayWaitForTurns(compiled.errorHandling, graph, input.options.localTools ?? []) && patched(RATE_LIMIT_TURNS_PATCH);
  return { env, ownsRecord, payloads, handlerBudget, joinsTolerateFailures, failedJoinsCancel };
}
