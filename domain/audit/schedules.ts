import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import type { Duration } from '@temporalio/common';

/**
 * The audit-log retention purge runs as a Temporal Schedule (daily by default) that starts
 * `auditRetentionPurgeWorkflow`: it deletes entries older than each organization's
 * `security.auditLogRetentionDays` (default 365). Idempotent: an existing schedule is left as it is. Called by
 * worker start (worker/backgroundJobs.ts) (and by tests with their own task queue).
 */
export function auditRetentionScheduleId(taskQueue: string): string {
  return `loom-audit-retention-${taskQueue}`;
}

export async function ensureAuditRetentionSchedule(
  client: Client,
  taskQueue: string,
  every: Duration = '1d',
): Promise<{ scheduleId: string; created: boolean }> {
  const scheduleId = auditRetentionScheduleId(taskQueue);
  try {
    await client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every }] },
      action: { type: 'startWorkflow', workflowType: 'auditRetentionPurgeWorkflow', taskQueue, args: [] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
    return { scheduleId, created: true };
  } catch (err) {
    if (err instanceof ScheduleAlreadyRunning) return { scheduleId, created: false };
    throw err;
  }
}
