import { loadConfig } from '../lib/config';
import { createTemporalClient } from '../lib/temporal';
import { ensureDeadLetterPurgeSchedule } from '../api/runs/schedules';

/** Creates the runs' Temporal Schedules if missing (dead-letter purge). Safe to run at every deploy. */
async function main(): Promise<void> {
  const config = loadConfig();
  const client = createTemporalClient(config.temporal);
  const result = await ensureDeadLetterPurgeSchedule(client, config.temporal.taskQueue);
  console.log(`${result.scheduleId}: ${result.created ? 'created' : 'already present'}`);
  await client.connection.close();
}

main().catch((err: unknown) => {
  console.error(`ensure-run-schedules: ${(err as Error).message}`);
  process.exit(1);
});
