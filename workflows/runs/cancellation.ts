import { ActivityFailure, CancelledFailure } from '@temporalio/workflow';
import type { ToolFailureDetails } from '../../lib/runs/types';

/**
 * The attempt a tool activity was making when it acknowledged its cancellation: it sends it in the cancellation's
 * details (activities/runs/toolActivities.ts). Undefined for anything else (a child workflow, a timer, a scheduled
 * retry that had not started).
 */
export function cancelledAttempts(err: unknown): number | undefined {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (!(cause instanceof CancelledFailure)) return undefined;
  const details = cause.details?.[0] as Partial<ToolFailureDetails> | undefined;
  return typeof details?.attempt === 'number' && details.attempt >= 1 ? details.attempt : undefined;
}

/**
 * A cancellation that reached a node between its attempts (in the delay, or before the next attempt's activity
 * started), given the number of attempts that ended before it; one that already names its attempt is kept.
 */
export function cancelledAfterAttempts(err: unknown, attemptsEnded: number): unknown {
  if (attemptsEnded < 1 || cancelledAttempts(err) !== undefined) return err;
  const details: ToolFailureDetails = { attempt: attemptsEnded };
  return new CancelledFailure('cancelled between two attempts', [details], err instanceof Error ? err : undefined);
}
