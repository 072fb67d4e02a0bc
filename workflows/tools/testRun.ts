import { ActivityFailure, proxyActivities, TimeoutFailure } from '@temporalio/workflow';
import type { ToolActivity } from '../../activities/runs/toolActivities';
import { toNodeFailure } from '../runs/execute';
import type { ToolTestInput, ToolTestResult } from '../../lib/tools/testRun';
import { resultOf } from '../../lib/runs/types';

/**
 * A test run of one tool (POST /api/v1/tools/{tool}/test, domain/tools/service.ts): the tool's own activity — the one
 * a run's node calls, with the same input resolution, secrets, outbound guards and schema checks — once or up to
 * `maxAttempts` times, within `timeoutMs` overall. The outcome is the answer, never a failed execution.
 */

/** The attempt a timed-out activity was making, from its last heartbeat (tool activities beat `{ attempt }`). */
function heartbeatAttempt(err: unknown): number | null {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (!(cause instanceof TimeoutFailure)) return null;
  const details = cause.lastHeartbeatDetails as { attempt?: unknown } | undefined;
  return typeof details?.attempt === 'number' ? details.attempt : null;
}

export async function toolTestWorkflow(input: ToolTestInput): Promise<ToolTestResult> {
  const activity = proxyActivities<Record<string, ToolActivity>>({
    startToCloseTimeout: input.timeoutMs,
    scheduleToCloseTimeout: input.timeoutMs,
    heartbeatTimeout: input.heartbeatTimeoutMs,
    retry: { maximumAttempts: input.maxAttempts, initialInterval: '200ms', backoffCoefficient: 2, maximumInterval: '2s' },
    activityId: input.activity.nodeId,
    summary: `test · ${input.toolId}`,
  })[input.toolId]!;
  try {
    // A test run's input has no `turns`: its call waits in place for a turn under rate limits.
    const result = resultOf(await activity(input.activity));
    return { status: 'completed', output: result.output, attempts: result.attempt };
  } catch (err) {
    const failure = toNodeFailure(err, heartbeatAttempt(err) ?? 1);
    return { status: 'failed', error: { code: failure.code, message: failure.message }, attempts: failure.attempts };
  }
}
