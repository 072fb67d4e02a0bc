import type { RetryPolicy as TemporalRetryPolicy } from '@temporalio/common';
import { parseDuration } from '../../lib/duration';
import type { ErrorHandling, RetryPolicy, StrategyName } from '../../lib/dag/model';
import type { BreakerSettings } from './types';

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
      ? { threshold: breaker.threshold, timeoutMs: breaker.timeout, halfOpenRequests: breaker.half_open_requests }
      : DEFAULT_BREAKER,
    deadLetter: { queue: dlq?.queue ?? 'default', retentionMs: retentionMs(dlq?.retention) },
    handler: override?.handler,
    handlerConfig: override?.handler_config,
  };
}

/**
 * How a node's attempts are made:
 * - `temporal`: one activity call; Temporal retries it (exponential: coefficient 2; fixed: coefficient 1).
 * - `linear`: Temporal has no linear backoff, so each call has maximumAttempts 1 and the interpreter sleeps
 *   `initial_delay * n` (a durable timer) before attempt n + 1.
 */
export interface AttemptPlan {
  mode: 'temporal' | 'linear';
  maxAttempts: number;
  initialDelayMs: number;
  retry: TemporalRetryPolicy;
  /** per-attempt start-to-close timeout, ms */
  timeoutMs: number;
}

export function planAttempts(
  nodePolicy: RetryPolicy | undefined,
  errorHandling: ErrorHandling | undefined,
  strategy: StrategyName,
  defaultTimeoutMs: number,
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
  if (backoff === 'linear' && maxAttempts > 1) {
    return {
      mode: 'linear',
      maxAttempts,
      initialDelayMs,
      timeoutMs,
      retry: { maximumAttempts: 1, nonRetryableErrorTypes },
    };
  }
  return {
    mode: 'temporal',
    maxAttempts,
    initialDelayMs,
    timeoutMs,
    retry: {
      maximumAttempts: maxAttempts,
      initialInterval,
      backoffCoefficient: backoff === 'fixed' ? 1 : 2,
      maximumInterval: nodePolicy?.max_delay !== undefined ? Math.max(initialInterval, nodePolicy.max_delay) : undefined,
      nonRetryableErrorTypes,
    },
  };
}
