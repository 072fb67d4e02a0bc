import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { recordSystemCheck } = proxyActivities<Activities>({
  startToCloseTimeout: '30s',
  retry: { maximumAttempts: 5 },
});

/** A minimal end-to-end check: Temporal schedules an activity that writes to PostgreSQL. */
export async function systemCheckWorkflow(input: { id: string; note: string }): Promise<{ id: string; createdAt: string }> {
  return recordSystemCheck(input);
}
