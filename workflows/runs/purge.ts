import { proxyActivities } from '@temporalio/workflow';
import type { RunActivities } from '../../activities/runs/runActivities';

const { runPurgeDeadLetters } = proxyActivities<RunActivities>({
  startToCloseTimeout: '5m',
  retry: { maximumAttempts: 5 },
});

/** Started by the dead-letter purge schedule (domain/runs/schedules.ts): deletes entries past their retention. */
export async function purgeDeadLettersWorkflow(): Promise<{ deleted: number }> {
  return runPurgeDeadLetters();
}
