import { loadConfig } from '../lib/config';
import { createTemporalClient } from '../lib/temporal';
import { ensureAuditRetentionSchedule } from '../api/audit/schedules';

/** Creates the organizations domain's Temporal Schedules if missing (audit-log retention). Safe at every deploy. */
async function main(): Promise<void> {
  const config = loadConfig();
  const client = createTemporalClient(config.temporal);
  const result = await ensureAuditRetentionSchedule(client, config.temporal.taskQueue);
  console.log(`${result.scheduleId}: ${result.created ? 'created' : 'already present'}`);
  await client.connection.close();
}

main().catch((err: unknown) => {
  console.error(`ensure-organization-schedules: ${(err as Error).message}`);
  process.exit(1);
});
