import {
  ActivityCancellationType,
  ActivityFailure,
  ApplicationFailure,
  ChildWorkflowFailure,
  executeChild,
  isCancellation,
  patched,
  proxyActivities,
  proxyLocalActivities,
  sleep,
  TimeoutFailure,
} from '@temporalio/workflow';
import type { RunActivities } from '../../activities/runs/runActivities';
import type { ToolActivity } from '../../activities/runs/toolActivities';
import type { ErrorHandling, RetryPolicy } from '../../lib/dag/model';
import type { SubworkflowConfig, ToolConfig } from './graph';
import { checkParameters } from './parameters';
import { runSearchAttributes } from './searchAttributes';
import { planAttempts, type ResolvedStrategy } from './strategy';
import type { EvalContext, RunInput, RunOptions, RunSummary, ToolFailureDetails } from './types';

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

/**
 * One patch for the switch to local activities: the run row's bookkeeping writes (`runMarkRunning`, `runFinish`:
 * short PostgreSQL updates) and the tools in `RunOptions.localTools`. A local activity runs inside the workflow task
 * that asks for it: no task queue round trip, no extra workflow task, one marker event instead of three events.
 * Executions whose history predates the patch replay with the regular activities they recorded. One id, not one per
 * call site: each patch costs every new execution a marker and a search attribute upsert (TemporalChangeVersion).
 */
export const LOCAL_ACTIVITIES_PATCH = 'run-local-activities';

const bookkeepingLocal = proxyLocalActivities<RunActivities>(RUN_ACTIVITY_OPTIONS);

export function bookkeepingActivities(): RunActivities {
  return patched(LOCAL_ACTIVITIES_PATCH) ? bookkeepingLocal : runActivities;
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
}

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
): Promise<NodeOutcome> {
  const defaultTimeoutMs = env.options.toolTimeoutsMs?.[toolId] ?? env.options.defaultNodeTimeoutMs;
  const plan = planAttempts(retryPolicy, env.errorHandling, strategy.name, defaultTimeoutMs);
  // The node counts as cancelled once the tool has actually stopped (it heartbeats and honours its signal).
  const cancellationType = ActivityCancellationType.WAIT_CANCELLATION_COMPLETED;
  // Runs started before local tools existed carry no `localTools`; patched() keeps histories of older workers valid.
  const local = env.options.localTools?.includes(toolId) === true && patched(LOCAL_ACTIVITIES_PATCH);
  const activity = (
    local
      ? proxyLocalActivities<Record<string, ToolActivity>>({ startToCloseTimeout: plan.timeoutMs, retry: plan.retry, cancellationType })
      : proxyActivities<Record<string, ToolActivity>>({
          startToCloseTimeout: plan.timeoutMs,
          heartbeatTimeout: env.options.heartbeatTimeoutMs,
          retry: plan.retry,
          cancellationType,
        })
  )[toolId]!;
  const base = {
    organizationId: env.organizationId,
    workflowId: env.workflowId,
    runId: env.runId,
    nodeId,
    config: config.config,
    inputs: config.inputs,
    outputs: config.outputs.map((o) => o.name),
    context,
    breaker: strategy.name === 'circuit_breaker' ? strategy.breaker : undefined,
    largeOutputBytes: env.options.largeOutputBytes,
  };
  if (plan.mode === 'temporal') {
    try {
      const result = await activity({ ...base, attemptBase: 0 });
      return { output: result.output, attempts: result.attempt };
    } catch (err) {
      if (isCancellation(err)) throw err;
      throw nodeError(toNodeFailure(err, plan.maxAttempts));
    }
  }
  // Linear backoff: one attempt per activity call, a durable timer of initial_delay * n between them.
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await activity({ ...base, attemptBase: attempt - 1 });
      return { output: result.output, attempts: attempt };
    } catch (err) {
      if (isCancellation(err)) throw err;
      if (attempt >= plan.maxAttempts || !isRetryable(err, plan.retry.nonRetryableErrorTypes ?? [])) {
        throw nodeError(toNodeFailure(err, attempt));
      }
      await sleep(plan.initialDelayMs * attempt);
    }
  }
}

export async function executeSubworkflow(
  env: ExecEnv,
  nodeId: string,
  config: SubworkflowConfig,
  context: EvalContext,
): Promise<NodeOutcome> {
  if (env.depth >= MAX_SUBWORKFLOW_DEPTH) {
    throw nodeError({ code: 'SUBWORKFLOW_TOO_DEEP', message: `subworkflows nest deeper than ${MAX_SUBWORKFLOW_DEPTH}`, attempts: 1 });
  }
  let compiled;
  let rendered: unknown;
  try {
    compiled = await runActivities.runLoadSubworkflow({ organizationId: env.organizationId, workflowId: config.workflow_id });
    rendered = await evalActivities.runRenderValue({ organizationId: env.organizationId, value: config.inputs, context });
  } catch (err) {
    if (isCancellation(err)) throw err;
    throw nodeError(toNodeFailure(err, 1));
  }
  // Inherited parameters the child does not declare are dropped rather than refused; explicit inputs are checked.
  const declared = new Set(compiled.parameters.map((p) => p.name));
  const inherited = config.inherit_context
    ? Object.fromEntries(Object.entries(env.parameters).filter(([name]) => declared.has(name)))
    : {};
  const offered = { ...inherited, ...((rendered ?? {}) as Record<string, unknown>) };
  const { values, problems } = checkParameters(compiled.parameters, offered);
  if (problems.length) {
    throw nodeError({
      code: 'INVALID_PARAMETERS',
      message: problems.map((p) => `${p.path} ${p.problem}`).join('; '),
      attempts: 1,
    });
  }
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
