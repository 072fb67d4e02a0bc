import { loadConfig } from '../lib/config';
import { closeTemporalClient, createTemporalClient } from '../lib/temporal';
import { ensureBackgroundJobs } from '../worker/backgroundJobs';

/** Creates the platform's schedules and event dispatcher if missing (the worker also does this at start). */
async function main(): Promise<void> {
  const config = loadConfig();
  const client = createTemporalClient(config.temporal);
  for (const line of await ensureBackgroundJobs(client, config.temporal.taskQueue)) console.log(line);
  await closeTemporalClient(client);
}

main().catch((err: unknown) => {
  console.error(`ensure-background: ${(err as Error).message}`);
  process.exit(1);
});
