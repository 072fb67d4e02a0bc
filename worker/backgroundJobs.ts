import type { Client } from '@temporalio/client';
import { ensureAuditRetentionSchedule } from '../domain/audit/schedules';
import { ensureEventDispatcher } from '../domain/events/dispatcher';
import { ensureDeadLetterPurgeSchedule } from '../domain/runs/schedules';

/**
 * The long-lived Temporal executions the platform needs on a task queue: the dead-letter purge and audit-log
 * retention schedules and the event dispatcher. Each call is idempotent, so every worker start (and
 * `npm run ensure-background`) may run it.
 */
export async function ensureBackgroundJobs(client: Client, taskQueue: string): Promise<string[]> {
  const deadLetters = await ensureDeadLetterPurgeSchedule(client, taskQueue);
  const audit = await ensureAuditRetentionSchedule(client, taskQueue);
  const dispatcher = await ensureEventDispatcher(client, taskQueue);
  return [
    `${deadLetters.scheduleId}: ${deadLetters.created ? 'created' : 'already present'}`,
    `${audit.scheduleId}: ${audit.created ? 'created' : 'already present'}`,
    `event dispatcher: ${dispatcher === 'started' ? 'started' : 'already running'}`,
  ];
}
