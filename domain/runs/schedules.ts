import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { Duration } from '@temporalio/common';

/**
 * The dead-letter purge runs as a Temporal Schedule (hourly by default) that starts `purgeDeadLettersWorkflow` on
 * the given task queue. Idempotent: an existing schedule is left as it is. Called at worker start (worker/backgroundJobs.ts)
 * (and by tests with their own task queue).
 */
export function deadLetterPurgeScheduleId(taskQueue: string): string {
  return `loom-dead-letter-purge-${taskQueue}`;
}

export async function ensureDeadLetterPurgeSchedule(
  client: Client,
  taskQueue: string,
  every: Duration = '1h',
): Promise<{ scheduleId: string; created: boolean }> {
  const scheduleId = deadLetterPurgeScheduleId(taskQueue);
  try {
    await client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every }] },
      action: { type: 'startWorkflow', workflowType: 'purgeDeadLettersWorkflow', taskQueue, args: [] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
    return { scheduleId, created: true };
  } catch (err) {
    if (err instanceof ScheduleAlreadyRunning) return { scheduleId, created: false };
    throw err;
  }
}
