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
