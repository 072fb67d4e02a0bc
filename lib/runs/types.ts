import type { CompiledWorkflow, NodeState, RateLimitDecl, RunError, RunStatus, RunViewStatus } from '../dag/model';
import type { ApprovalWait } from '../triggers/types';
import type { FlowWaitReason, RunFlow } from './flowGate';

/**
 * Shapes that cross the boundary between the API, the interpreter workflow and the run activities. Pure types:
 * bundled into workflow code.
 */

/** Knobs the API passes into every run (from its configuration), so history records what the run used. */
export interface RunOptions {
  /** Activities must heartbeat within this (ms); a killed worker's activity is retried after it. */
  heartbeatTimeoutMs: number;
  /** Loops with more items than this run in child workflows of this many items each. */
  loopBatchSize: number;
  /** Upper bound on nodes executing at once in one run (Temporal allows 2,000 pending activities). */
  maxConcurrentNodes: number;
  /** Outputs serialized larger than this go to object storage and travel as `{ $ref }`. */
  largeOutputBytes: number;
  /** Per-attempt time limit of a tool activity unless the node's retryPolicy.timeout says otherwise (ms). */
  defaultNodeTimeoutMs: number;
  /** Per-attempt time limits the tools declare (`defaultTimeoutMs`), used before `defaultNodeTimeoutMs`. */
  toolTimeoutsMs?: Record<string, number>;
  /**
   * What the interpreter assembles from other values (a node's context, the contexts of nodes started together, a
   * join, a loop's outputs, the results) is kept under this many bytes by storing the largest values first
   * (payloads.ts). Absent in runs started before: they assemble as they did.
   */
  payloadBudgetBytes?: number;
  /** Tools that run as local activities (`runsLocally` in their definition); absent in runs started before. */
  localTools?: string[];
}

export const DEFAULT_RUN_OPTIONS: RunOptions = {
  heartbeatTimeoutMs: 30_000,
  loopBatchSize: 500,
  maxConcurrentNodes: 200,
  largeOutputBytes: 256 * 1024,
  defaultNodeTimeoutMs: 300_000,
};

export type RunKind = 'run' | 'subworkflow';

export interface RunTrigger {
  type: string;
  [detail: string]: unknown;
}

export interface RunInput {
  runId: string;
  organizationId: string;
  compiled: CompiledWorkflow;
  parameters: Record<string, unknown>;
  trigger: RunTrigger;
  options: RunOptions;
  /** Completed node states of a previous run (retry / dead-letter replay): reused, not executed again. */
  reused?: Record<string, NodeState>;
  /**
   * `run` executions own a workflow_runs row. Subworkflow children started since patch `subworkflow-run-records`
   * own one too (`ownsRecord`, written by the parent before it starts them); older children report to their parent only.
   */
  kind: RunKind;
  ownsRecord?: boolean;
  /** Nesting depth of subworkflows, to stop runaway recursion. */
  depth: number;
  /** Set when the manual trigger requires approval: the run waits, pending, before its first node (triggers/approval.ts). */
  approval?: ApprovalWait;
  /** Set when the workflow has flow control: the run waits, pending, for its gate before its first node (workflows/runs/flowWait.ts). */
  flow?: RunFlow;
  /**
   * 1 (first) to 5 (last); unset: 3. The flow gate starts queued runs in this order (docs/runs.md#priority). Not
   * Temporal's priority key: the server orders by it before its fairness across organizations, so one organization's
   * priority 1 would overtake every other organization's work on the shared task queue.
   */
  priority?: number;
}

/** Whether the execution keeps a workflow_runs row up to date (running, final state). */
export function ownsRunRecord(input: Pick<RunInput, 'kind' | 'ownsRecord'>): boolean {
  return input.kind === 'run' || input.ownsRecord === true;
}

export interface RunSummary {
  runId: string;
  status: RunStatus;
  results: Record<string, unknown>;
  errors: RunError[];
}

/** Live state answered by the `runState` query. */
export interface RunStateView {
  status: RunViewStatus;
  nodeStates: Record<string, NodeState>;
  errors: RunError[];
  startedAt: string;
  /** A run its flow gate holds: why it waits, since when (docs/runs.md#flow-control). */
  flowWait?: { reason: FlowWaitReason; since: string };
}

/** A value kept in object storage: `s3://<bucket>/org/<orgId>/runs/<runId>/<file>.json`. */
export interface ValueRef {
  $ref: string;
  bytes?: number;
}

export function isValueRef(value: unknown): value is ValueRef {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    typeof (value as { $ref?: unknown }).$ref === 'string'
  );
}

/** What expressions see: `${params.x}`, `${nodes.fetch.body}`, and the loop iterator by its name. */
export interface EvalContext {
  params: Record<string, unknown>;
  nodes: Record<string, unknown>;
  /** loop iterator binding */
  iterator?: { name: string; value: unknown; index: number };
}

export interface BreakerSettings {
  threshold: number;
  timeoutMs: number;
  halfOpenRequests: number;
  /** the node's explicit breaker key (`circuit_breaker.key`): calls with one key share a breaker, whatever their destination */
  key?: string;
}

export interface ToolActivityInput {
  organizationId: string;
  workflowId: string;
  runId: string;
  nodeId: string;
  /** the tool's config (templates not yet rendered) */
  config: Record<string, unknown>;
  inputs: { name?: string; from: string }[];
  /** declared output names the tool must produce */
  outputs: string[];
  context: EvalContext;
  breaker?: BreakerSettings;
  /** attempts already spent by workflow-side retries (linear backoff), added to Temporal's attempt number */
  attemptBase: number;
  /** a retry delay under a second, waited here before the attempt (workflows/runs/strategy.ts SERVER_TIMER_FLOOR_MS) */
  waitBeforeMs?: number;
  largeOutputBytes: number;
  /** the node's own rate limit (tool config `rate_limit`); the organization's limits are read by the activity */
  rateLimit?: RateLimitDecl;
  /**
   * Set by runs that wait for a distant turn themselves (patch rate-limit-turns, lib/runs/turns.ts): the activity may
   * answer `deferred` rather than wait in place past TURN_IN_PLACE_MAX_MS, and `reserved` is the turn such an answer
   * reserved, which the next call takes instead of queueing again. Absent (older runs, tool test runs): the activity
   * waits in place for its turn, however long.
   */
  turns?: { defer: true; reserved?: ReservedTurn };
}

export interface ToolActivityResult {
  output: unknown;
  attempt: number;
}

/**
 * A turn reserved under the rate limits that apply to one call (domain/destinationLimits): when the call may start,
 * on PostgreSQL's clock, and the limits it was taken in.
 */
export interface ReservedTurn {
  /** microseconds since the epoch, on the database's clock (a double holds them exactly until the year 2255) */
  atUs: number;
  /** the limits' keys (`host:<host>`, `key:<key>`, `tool:<tool>`), sorted */
  limits: string[];
}

/**
 * A tool activity's answer when its turn is further away than it waits in place: no call was made and no attempt
 * spent. The run waits (a durable timer) and calls the activity again with `turn`.
 */
export interface ToolActivityDeferred {
  deferred: {
    turn: ReservedTurn;
    /** how long until the turn, from when the activity answered */
    waitMs: number;
    /** the turn's time, ISO 8601 (the node state's `waiting_until`) */
    until: string;
  };
  /** the attempt that deferred: the next call makes this attempt */
  attempt: number;
}

export type ToolActivityAnswer = ToolActivityResult | ToolActivityDeferred;

export function isDeferred(answer: ToolActivityAnswer): answer is ToolActivityDeferred {
  return 'deferred' in answer;
}

/** The answer of a call whose input had no `turns`: the activity waited in place, so it never deferred. */
export function resultOf(answer: ToolActivityAnswer): ToolActivityResult {
  if (isDeferred(answer)) throw new Error('a tool activity deferred a call that was not allowed to defer');
  return answer;
}

/** Details attached to a tool activity's ApplicationFailure. */
export interface ToolFailureDetails {
  attempt: number;
}
