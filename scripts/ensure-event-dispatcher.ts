import { ensureEventDispatcher } from '../api/events/dispatcher';
import { loadConfig } from '../lib/config';
import { createTemporalClient } from '../lib/temporal';

/** Makes sure the event dispatcher workflow runs on this deployment's task queue (docs/events.md). Safe at every deploy. */
async function main(): Promise<void> {
  const config = loadConfig();
  const client = createTemporalClient(config.temporal);
  const result = await ensureEventDispatcher(client, config.temporal.taskQueue);
  console.log(`event dispatcher: ${result === 'started' ? 'started' : 'already running'}`);
  await client.connection.close();
}

main().catch((err: unknown) => {
  console.error(`ensure-event-dispatcher: ${(err as Error).message}`);
  process.exit(1);
});
