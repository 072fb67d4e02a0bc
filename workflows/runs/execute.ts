import {
  ActivityCancellationType,
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  ChildWorkflowFailure,
  executeChild,
  isCancellation,
  proxyActivities,
  proxyLocalActivities,
  sleep,
  startChild,
  TimeoutFailure,
  uuid4,
} from '@temporalio/workflow';
import type { RunActivities } from '../../activities/runs/runActivities';
import type { ToolActivity } from '../../activities/runs/toolActivities';
import type { ErrorHandling, RetryPolicy } from '../../lib/dag/model';
import type { SubworkflowConfig, ToolConfig } from './graph';
import { startWithinBudget } from './childStarts';
import { checkParameters } from '../../lib/runs/parameters';
import { jsonBytes } from './scheduler/spill';
import { runSearchAttributes } from '../../lib/runs/searchAttributes';
import { cancelledAfterAttempts } from './cancellation';
import { LOCAL_ACTIVITIES_PATCH, runPatched } from './patches';
import { planAttempts, retryDelayMs, SERVER_TIMER_FLOOR_MS, type ResolvedStrategy } from './strategy';
import type { CompiledWorkflow } from '../../lib/dag/model';
import { resultOf, type EvalContext, type RunInput, type RunOptions, type RunSummary, type RunTrigger, type ToolActivityInput, type ToolActivityResult, type ToolFailureDetails } from '../../lib/runs/types';
import { TURN_IN_PLACE_MAX_MS } from '../../lib/runs/turns';
import { callInTurn, type TurnWaitSink } from './turns';

/**
 * Executors shared by the interpreter and the loop batch workflow: one tool node (an activity whose type is the
 * tool id), one subworkflow node (a child workflow), and the mapping of their failures to node errors.
 */

/** Subworkflows may nest this deep; deeper is a definition error (the API also refuses subworkflow cycles). */
export const MAX_SUBWORKFLOW_DEPTH = 10;

const RUN_ACTIVITY_OPTIONS = {
  startToCloseTimeout: '60s',
  retry: { maximumAttempts: 10, initialInterval: '1s', maximumInterval: '30s' },
} as const;

export const runActivities = proxyActivities<RunActivities>(RUN_ACTIVITY_OPTIONS);

const bookkeepingLocal = proxyLocalActivities<RunActivities>(RUN_ACTIVITY_OPTIONS);

export function bookkeepingActivities(execution: { patchesCurrent?: boolean }): RunActivities {
  return runPatched(execution, LOCAL_ACTIVITIES_PATCH) ? bookkeepingLocal : runActivities;
}

/** Expressions, templates and loop items: evaluated next to the workflow, time-boxed, never in workflow code. */
export const evalActivities = proxyLocalActivities<RunActivities>({
  startToCloseTimeout: '10s',
  retry: { maximumAttempts: 3, initialInterval: '200ms' },
});

/** What every executor needs to know about the run it works for. */
export interface ExecEnv {
  organizationId: string;
  workflowId: string;
  workflowVersion: number;
  runId: string;
  parameters: Record<string, unknown>;
  errorHandling: ErrorHandling | undefined;
  options: RunOptions;
  depth: number;
  /**
   * Subworkflow children get their own workflow_runs row and a run id as workflow id (patch
   * SUBWORKFLOW_RUNS_PATCH, decided once per run by the interpreter; loop batches inherit it with the env).
   */
  childRuns?: boolean;
  /**
   * Every run patch counts as present without being asked (RUN_PATCHES_CURRENT, patches.ts): decided once per
   * execution, by `dagRunWorkflow` and by each loop batch for itself.
   */
  patchesCurrent?: boolean;
  /** The run's trigger.chainDepth (event-triggered chains), carried into its children's triggers. */
  chainDepth?: number;
  /** Retry delays under a second are honoured (SUBSECOND_RETRY_PATCH, decided once per run like `childRuns`). */
  subsecondRetries?: boolean;
  /** Tool activities are named after their node (READABLE_ACTIVITIES_PATCH, decided once per run like `childRuns`). */
  readableActivities?: boolean;
  /**
   * The payload budget this execution keeps (RunOptions.payloadBudgetBytes, once PAYLOAD_BUDGET_PATCH is asked, decided
   * once per run like `childRuns`; loop batches inherit it with the env). Absent: values are assembled as before.
   */
  payloadBudgetBytes?: number;
  /**
   * Subworkflow starts keep the payload budget (SUBWORKFLOW_BUDGET_PATCH, decided once per run like `childRuns`, by
   * budgeted runs with child runs): their parameters are prepared and their rows written by regular activities,
   * and their starts are held to the budget.
   */
  subworkflowBudget?: boolean;
  /**
   * Loops of local tools keep their items' results within the payload budget (LOOP_RESULTS_BUDGET_PATCH, decided
   * once per run like `childRuns`; loop.ts `runLoopItems`).
   */
  loopResultsBudget?: boolean;
  /**
   * Tool calls whose turn under a rate limit is far away come back, and the run waits for it with a durable timer
   * (RATE_LIMIT_TURNS_PATCH, decided once per run like `childRuns`; turns.ts). Absent: the activity waits in place.
   */
  rateLimitTurns?: boolean;
}




/** A child's inline parameters: at most this fraction of the budget (16 KiB of 1 MiB), as up to 100 start at once. */
const SUBWORKFLOW_INLINE_SHARE = 64;



export interface NodeOutcome {
  output: unknown;
  attempts: number;
}

export interface NodeFailure {
  code: string;
  message: string;
  attempts: number;
}

/** The failure a node ends with, from whatever its activity or child workflow threw. */
export function toNodeFailure(err: unknown, fallbackAttempts: number): NodeFailure {
  const cause = err instanceof ActivityFailure || err instanceof ChildWorkflowFailure ? (err.cause ?? err) : err;
  if (cause instanceof ApplicationFailure) {
    const details = cause.details?.[0] as Partial<ToolFailureDetails> | undefined;
    return {
      code: cause.type ?? 'ERROR',
      message: cause.message,
      attempts: typeof details?.attempt === 'number' ? details.attempt : fallbackAttempts,
    };
  }
  if (cause instanceof TimeoutFailure) {
    return { code: 'TIMEOUT', message: `timed out (${String(cause.timeoutType)})`, attempts: fallbackAttempts };
  }
  return { code: 'ERROR', message: (cause as Error)?.message ?? String(cause), attempts: fallbackAttempts };
}

export function nodeError(failure: NodeFailure): ApplicationFailure {
  const details: ToolFailureDetails = { attempt: failure.attempts };
  return ApplicationFailure.create({ type: failure.code, message: failure.message, nonRetryable: true, details: [details] });
}

function isRetryable(err: unknown, nonRetryableTypes: string[]): boolean {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) return !cause.nonRetryable && !nonRetryableTypes.includes(cause.type ?? '');
  return cause instanceof TimeoutFailure;
}

export async function executeTool(
  env: ExecEnv,
  nodeId: string,
  toolId: string,
  config: ToolConfig,
  retryPolicy: RetryPolicy | undefined,
  strategy: ResolvedStrategy,
  context: EvalContext,
  /** Outputs larger than this are stored by the activity (default RunOptions.largeOutputBytes). */
  largeOutputBytes: number = env.options.largeOutputBytes,
  /** Shows the node waiting for its turn under a rate limit (the interpreter's node state; turns.ts). */
  onTurnWait?: TurnWaitSink,
): Promise<NodeOutcome> {
  const defaultTimeoutMs = env.options.toolTimeoutsMs?.[toolId] ?? env.options.defaultNodeTimeoutMs;
  // Runs started before local tools existed carry no `localTools`; patched() keeps histories of older workers valid.
  const local = env.options.localTools?.includes(toolId) === true && runPatched(env, LOCAL_ACTIVITIES_PATCH);
  // Local activities retry inside the worker (the SDK's own timer below its localRetryThreshold of 1 minute), so
  // their sub-second delays already hold: only regular activities need the stepped plan.
  const plan = planAttempts(retryPolicy, env.errorHandling, strategy.name, defaultTimeoutMs, {
    subsecondDelays: env.subsecondRetries === true && !local,
  });
  // The node counts as cancelled once the tool has actually stopped (it heartbeats and honours its signal).
  const cancellationType = ActivityCancellationType.WAIT_CANCELLATION_COMPLETED;
  const summary = `${nodeId} · ${toolId}`;
  const readable = env.readableActivities === true;
  const named = readable ? { activityId: nodeId, summary } : {};
  const turns = env.rateLimitTurns === true;
  // With turns, an activity may wait for its turn before the attempt, up to TURN_IN_PLACE_MAX_MS.
  const turnRoomMs = turns ? TURN_IN_PLACE_MAX_MS : 0;
  /**
   * The tool's activity; `waitMs` (sub-second retry delays) is spent in the activity before the attempt, so the time
   * limit grows by it. `spentAttempts`: attempts of the node's budget spent by the calls before it (a call after a
   * turn was waited for), taken from Temporal's maximum; never all of them, since the call that deferred had one left.
   */
  const activityFor = (waitMs = 0, spentAttempts = 0): ToolActivity => {
    const retry = spentAttempts > 0 ? { ...plan.retry, maximumAttempts: (plan.retry.maximumAttempts ?? plan.maxAttempts) - spentAttempts } : plan.retry;
    const startToCloseTimeout = plan.timeoutMs + waitMs + turnRoomMs;
    return (local
      ? proxyLocalActivities<Record<string, ToolActivity>>({ startToCloseTimeout, retry, cancellationType, ...(readable ? { summary } : {}) })
      : proxyActivities<Record<string, ToolActivity>>({
          startToCloseTimeout,
          heartbeatTimeout: env.options.heartbeatTimeoutMs,
          retry,
          cancellationType,
          ...named,
        }))[toolId]!;
  };
  const activity = activityFor();
  /** One call of the tool; with turns, as many activities as it takes to make it (turns.ts). */
  const callTool = async (input: ToolActivityInput, waitMs = 0): Promise<ToolActivityResult> => {
    const call = waitMs > 0 ? activityFor(waitMs) : activity;
    if (!turns) return resultOf(await call(input));
    return callInTurn(() => call(input), (next, spent) => activityFor(0, spent)(next), input, onTurnWait);
  };
  const base: Omit<ToolActivityInput, 'attemptBase'> = {
    organizationId: env.organizationId,
    workflowId: env.workflowId,
    runId: env.runId,
    nodeId,
    config: config.config,
    inputs: config.inputs,
    outputs: config.outputs.map((o) => o.name),
    context,
    breaker: strategy.name === 'circuit_breaker' ? strategy.breaker : undefined,
    largeOutputBytes,
    ...(config.rate_limit ? { rateLimit: config.rate_limit } : {}),
    ...(turns ? { turns: { defer: true } as const } : {}),
  };
  if (plan.mode === 'temporal') {
    try {
      const result = await callTool({ ...base, attemptBase: 0 });
      return { output: result.output, attempts: result.attempt };
    } catch (err) {
      if (isCancellation(err)) throw err;
      throw nodeError(toNodeFailure(err, plan.maxAttempts));
    }
  }
  // Linear (and stepped) backoff: one attempt per activity call. Between them a durable timer; with
  // subsecondRetries, a delay under SERVER_TIMER_FLOOR_MS is waited by the next attempt's activity instead, since
  // the server would stretch such a timer to about a second.
  let waitMs = 0;
  let ended = 0; // attempts that ended (failed): what a cancellation between two attempts reports
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await callTool({ ...base, attemptBase: attempt - 1, ...(waitMs > 0 ? { waitBeforeMs: waitMs } : {}) }, waitMs);
        return { output: result.output, attempts: attempt };
      } catch (err) {
        if (isCancellation(err)) throw err;
        ended = attempt;
        if (attempt >= plan.maxAttempts || !isRetryable(err, plan.retry.nonRetryableErrorTypes ?? [])) {
          throw nodeError(toNodeFailure(err, attempt));
        }
      }
      if (!env.subsecondRetries) {
        await sleep(plan.initialDelayMs * attempt);
        continue;
      }
      const delay = retryDelayMs(plan, attempt);
      waitMs = delay < SERVER_TIMER_FLOOR_MS ? delay : 0;
      if (delay >= SERVER_TIMER_FLOOR_MS) await sleep(delay);
    }
  } catch (err) {
    // Cancelled in the delay timer, or before the next attempt's activity started: no activity says how many
    // attempts were made (one that started and acknowledged the cancellation does), so the loop says it.
    throw isCancellation(err) ? cancelledAfterAttempts(err, ended) : err;
  }
}

export async function executeSubworkflow(
  env: ExecEnv,
  nodeId: string,
  config: SubworkflowConfig,
  context: EvalContext,
  /** told the child's run id before the child starts (the node state links it) */
  onChildRun?: (childRunId: string) => void,
): Promise<NodeOutcome> {
  if (env.depth >= MAX_SUBWORKFLOW_DEPTH) {
    throw nodeError({ code: 'SUBWORKFLOW_TOO_DEEP', message: `subworkflows nest deeper than ${MAX_SUBWORKFLOW_DEPTH}`, attempts: 1 });
  }
  let compiled;
  let checked: ReturnType<typeof checkParameters>;
  try {
    compiled = await runActivities.runLoadSubworkflow({ organizationId: env.organizationId, workflowId: config.workflow_id });
    // Inherited parameters the child does not declare are dropped rather than refused; explicit inputs are checked.
    const declared = new Set(compiled.parameters.map((p) => p.name));
    if (env.subworkflowBudget) {
      // The context holds every parameter when the node inherits them (the interpreter's reads), stored ones by
      // reference: the activity checks them whole and stores the large ones again for the child.
      checked = await runActivities.runPrepareSubworkflowParameters({
        organizationId: env.organizationId,
        runId: env.runId,
        nodeId,
        declared: compiled.parameters,
        inputs: config.inputs,
        inherit: config.inherit_context ? Object.keys(context.params).filter((name) => declared.has(name)) : [],
        context,
        inlineBytes: Math.max(1024, Math.floor(env.payloadBudgetBytes! / SUBWORKFLOW_INLINE_SHARE)),
      });
    } else {
      const inherited = config.inherit_context
        ? Object.fromEntries(Object.entries(env.parameters).filter(([name]) => declared.has(name)))
        : {};
      const rendered = await evalActivities.runRenderValue({ organizationId: env.organizationId, value: config.inputs, context });
      checked = checkParameters(compiled.parameters, { ...inherited, ...((rendered ?? {}) as Record<string, unknown>) });
    }
  } catch (err) {
    if (isCancellation(err)) throw err;
    throw nodeError(toNodeFailure(err, 1));
  }
  const { values, problems } = checked;
  if (problems.length) {
    throw nodeError({
      code: 'INVALID_PARAMETERS',
      message: problems.map((p) => `${p.path} ${p.problem}`).join('; '),
      attempts: 1,
    });
  }
  if (env.childRuns) return executeRecordedChild(env, nodeId, compiled, values, onChildRun);
  const childId = `${env.runId}.${nodeId}`;
  const input: RunInput = {
    runId: childId,
    organizationId: env.organizationId,
    compiled,
    parameters: values,
    trigger: { type: 'subworkflow', parentRunId: env.runId, nodeId },
    options: env.options,
    kind: 'subworkflow',
    depth: env.depth + 1,
  };
  try {
    const summary = await executeChild<(i: RunInput) => Promise<RunSummary>>('dagRunWorkflow', {
      workflowId: childId,
      args: [input],
      typedSearchAttributes: runSearchAttributes({
        organizationId: env.organizationId,
        workflowId: compiled.workflowId,
        workflowVersion: compiled.version,
        runKind: 'subworkflow',
        trigger: 'subworkflow',
      }),
    });
    return { output: summary.results, attempts: 1 };
  } catch (err) {
    if (isCancellation(err)) throw err;
    throw nodeError(toNodeFailure(err, 1));
  }
}

/**
 * A subworkflow child with its own run row (SUBWORKFLOW_RUNS_PATCH): the row is written `pending` first, then the
 * child execution starts with the row's id as workflow id and keeps the row up to date like any run. A child that
 * never started has its row closed here. Cancelling this node cancels the child (which stores `cancelled`); a child
 * cancelled on its own (its run's cancel request) fails the node with SUBWORKFLOW_CANCELLED.
 */
async function executeRecordedChild(
  env: ExecEnv,
  nodeId: string,
  compiled: CompiledWorkflow,
  parameters: Record<string, unknown>,
  onChildRun: ((childRunId: string) => void) | undefined,
): Promise<NodeOutcome> {
  const runId = uuid4();
  const trigger: RunTrigger = {
    type: 'subworkflow',
    parentRunId: env.runId,
    parentWorkflowId: env.workflowId,
    nodeId,
    chainDepth: env.chainDepth ?? 0,
  };
  // Not cancellable: once asked for, the row exists, and is closed below if the child never starts. With the budget,
  // a regular activity: see SUBWORKFLOW_BUDGET_PATCH.
  const rowWriter = env.subworkflowBudget ? runActivities : bookkeepingActivities(env);
  await CancellationScope.nonCancellable(() =>
    rowWriter.runCreateChildRun({
      runId,
      organizationId: env.organizationId,
      workflowId: compiled.workflowId,
      workflowVersion: compiled.version,
      parameters,
      trigger,
      parentRunId: env.runId,
      parentNodeId: nodeId,
    }),
  );
  onChildRun?.(runId);
  const input: RunInput = {
    runId,
    organizationId: env.organizationId,
    compiled,
    parameters,
    trigger,
    options: env.options,
    kind: 'subworkflow',
    ownsRecord: true,
    depth: env.depth + 1,
  };
  const startChildRun = () =>
    startChild<(i: RunInput) => Promise<RunSummary>>('dagRunWorkflow', {
      workflowId: runId,
      args: [input],
      typedSearchAttributes: runSearchAttributes({
        organizationId: env.organizationId,
        workflowId: compiled.workflowId,
        workflowVersion: compiled.version,
        runKind: 'subworkflow',
        trigger: 'subworkflow',
      }),
    });
  let child;
  try {
    child = env.subworkflowBudget ? await startWithinBudget(jsonBytes(input), env.payloadBudgetBytes!, startChildRun) : await startChildRun();
  } catch (err) {
    const cancelled = isCancellation(err);
    const failure = cancelled
      ? { code: 'CANCELLED', message: 'the parent node was cancelled before the child run started', attempts: 0 }
      : { ...toNodeFailure(err, 1), code: 'START_FAILED' };
    const time = new Date().toISOString();
    await CancellationScope.nonCancellable(() =>
      rowWriter.runFinish({
        runId,
        status: cancelled ? 'cancelled' : 'failed',
        nodeStates: {},
        results: {},
        errors: [{ node: null, code: failure.code, message: failure.message, attempt: 0, time }],
        completedAt: time,
      }),
    );
    if (cancelled) throw err;
    throw nodeError({ ...failure, attempts: 1 });
  }
  try {
    const summary = await child.result();
    return { output: summary.results, attempts: 1 };
  } catch (err) {
    if (isCancellation(err)) {
      // This node's scope was cancelled (run cancel, fail_fast, a join): the node is cancelled with its child.
      if (CancellationScope.current().consideredCancelled) throw err;
      throw nodeError({ code: 'SUBWORKFLOW_CANCELLED', message: `child run ${runId} was cancelled`, attempts: 1 });
    }
    throw nodeError(toNodeFailure(err, 1));
  }
}
