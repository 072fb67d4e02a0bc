import type { RetryPolicy as TemporalRetryPolicy } from '@temporalio/common';
import { parseDuration } from '../../lib/duration';
import type { ErrorHandling, RetryPolicy, StrategyName } from '../../lib/dag/model';
import type { BreakerSettings } from '../../lib/runs/types';

/**
 * Error strategies and retry mapping (docs/runs.md). Pure: bundled into workflow code.
 */

export interface ResolvedStrategy {
  name: StrategyName;
  breaker: BreakerSettings;
  deadLetter: { queue: string; retentionMs: number };
  handler?: string;
  handlerConfig?: Record<string, unknown>;
}

/** The spec's example values, used when a definition names a strategy without settings. */
export const DEFAULT_RETRY = { max_attempts: 3, backoff: 'exponential', initial_delay: 1000 } as const;
export const DEFAULT_BREAKER: BreakerSettings = { threshold: 5, timeoutMs: 30_000, halfOpenRequests: 3 };
export const DEFAULT_DEAD_LETTER_RETENTION_MS = 7 * 86_400_000;

function retentionMs(text: string | undefined): number {
  if (!text) return DEFAULT_DEAD_LETTER_RETENTION_MS;
  try {
    return parseDuration(text);
  } catch {
    return DEFAULT_DEAD_LETTER_RETENTION_MS;
  }
}

export function strategyFor(errorHandling: ErrorHandling | undefined, nodeId: string): ResolvedStrategy {
  const override = errorHandling?.node_overrides?.[nodeId];
  const name: StrategyName = override?.strategy ?? errorHandling?.default_strategy ?? 'retry';
  const breaker = override?.circuit_breaker ?? errorHandling?.circuit_breaker;
  const dlq = override?.dead_letter_queue ?? errorHandling?.dead_letter_queue;
  return {
    name,
    breaker: breaker
      ? { threshold: breaker.threshold, timeoutMs: breaker.timeout, halfOpenRequests: breaker.half_open_requests, ...(breaker.key ? { key: breaker.key } : {}) }
      : DEFAULT_BREAKER,
    deadLetter: { queue: dlq?.queue ?? 'default', retentionMs: retentionMs(dlq?.retention) },
    handler: override?.handler,
    handlerConfig: override?.handler_config,
  };
}

/**
 * The shortest wait a Temporal server timer honours. The history service reads its timer queue ahead of time, up to
 * `history.timerProcessorMaxTimeShift` (1 s by default) past the moment of the read, and a timer that would fire
 * before what was already read is moved just past it (go.temporal.io/server, service/history/shard
 * task_key_generator.go): a 300 ms activity retry or workflow `sleep` fires after about 1 s. Waits shorter than
 * this are made by the worker instead (docs/runs.md#sub-second-retry-delays).
 */
export const SERVER_TIMER_FLOOR_MS = 1000;

/**
 * How a node's attempts are made:
 * - `temporal`: one activity call; Temporal retries it (exponential: coefficient 2; fixed: coefficient 1).
 * - `linear`: Temporal has no linear backoff, so each call has maximumAttempts 1 and the interpreter sleeps
 *   `initial_delay * n` (a durable timer) before attempt n + 1.
 * - `stepped`: exponential or fixed backoff with a first delay under SERVER_TIMER_FLOOR_MS, asked for with
 *   `subsecondDelays` (patch `subsecond-retry-delays`): one call per attempt like `linear`, and the interpreter
 *   waits `retryDelayMs` between them, so that sub-second delays are not stretched to the server's floor.
 */
export interface AttemptPlan {
  mode: 'temporal' | 'linear' | 'stepped';
  maxAttempts: number;
  initialDelayMs: number;
  /** exponential 2, fixed 1; linear 0 (its delays grow by `initialDelayMs` each time) */
  backoffCoefficient: number;
  /** the longest delay between two attempts (`max_delay`; Temporal's default, 100 × the first delay) */
  maxDelayMs: number;
  retry: TemporalRetryPolicy;
  /** per-attempt start-to-close timeout, ms */
  timeoutMs: number;
}

/** The wait after failed attempt `attempt` (1-based) before the next one, in ms, as Temporal would compute it. */
export function retryDelayMs(plan: AttemptPlan, attempt: number): number {
  if (plan.mode === 'linear') return plan.initialDelayMs * attempt;
  const first = Math.max(1, plan.initialDelayMs);
  return Math.min(Math.round(first * plan.backoffCoefficient ** (attempt - 1)), plan.maxDelayMs);
}

export function planAttempts(
  nodePolicy: RetryPolicy | undefined,
  errorHandling: ErrorHandling | undefined,
  strategy: StrategyName,
  defaultTimeoutMs: number,
  options: { subsecondDelays?: boolean } = {},
): AttemptPlan {
  const base = errorHandling?.retry_config ?? DEFAULT_RETRY;
  // fail_fast: the first failure fails the run, unless the node itself asks for attempts.
  const maxAttempts = nodePolicy?.max_attempts ?? (strategy === 'fail_fast' ? 1 : base.max_attempts);
  const backoff = nodePolicy?.backoff ?? base.backoff;
  const initialDelayMs = nodePolicy?.initial_delay ?? base.initial_delay;
  const timeoutMs = nodePolicy?.timeout ?? defaultTimeoutMs;
  const nonRetryableErrorTypes = nodePolicy?.non_retryable_errors ?? [];
  // Temporal refuses a zero interval; 1 ms is as close to "no delay" as it gets.
  const initialInterval = Math.max(1, initialDelayMs);
  const maximumInterval = nodePolicy?.max_delay !== undefined ? Math.max(initialInterval, nodePolicy.max_delay) : undefined;
  const backoffCoefficient = backoff === 'linear' ? 0 : backoff === 'fixed' ? 1 : 2;
  const common = { maxAttempts, initialDelayMs, backoffCoefficient, maxDelayMs: maximumInterval ?? 100 * initialInterval, timeoutMs };
  if (backoff === 'linear' && maxAttempts > 1) {
    return { mode: 'linear', ...common, maxDelayMs: Number.MAX_SAFE_INTEGER, retry: { maximumAttempts: 1, nonRetryableErrorTypes } };
  }
  if (options.subsecondDelays && maxAttempts > 1 && initialInterval < SERVER_TIMER_FLOOR_MS) {
    return { mode: 'stepped', ...common, retry: { maximumAttempts: 1, nonRetryableErrorTypes } };
  }
  return {
    mode: 'temporal',
    ...common,
    retry: {
      maximumAttempts: maxAttempts,
      initialInterval,
      backoffCoefficient: backoff === 'fixed' ? 1 : 2,
      maximumInterval,
      nonRetryableErrorTypes,
    },
  };
}

/**
 * Whether a definition may ask for a retry delay under SERVER_TIMER_FLOOR_MS (a first delay, of the definition's
 * retry_config or of a node's or loop template's retryPolicy): only those runs ask for the patch that honours them.
 */
export function mayRetryWithinSecond(errorHandling: ErrorHandling | undefined, nodes: { config: unknown; retryPolicy?: RetryPolicy }[]): boolean {
  const short = (delay: number | undefined) => delay !== undefined && delay < SERVER_TIMER_FLOOR_MS;
  if (short(errorHandling?.retry_config?.initial_delay)) return true;
  return nodes.some((node) => {
    const template = (node.config as { template?: { retryPolicy?: RetryPolicy } } | null)?.template;
    return short(node.retryPolicy?.initial_delay) || short(template?.retryPolicy?.initial_delay);
  });
}
