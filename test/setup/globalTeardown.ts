import { Client as PgClient } from 'pg';
import { loadConfig } from '../../lib/config';
import { createStorage } from '../../lib/storage';
import { readState } from './state';
import { removeTriggerInfrastructure } from '../helpers/triggers';

export default async function globalTeardown(): Promise<void> {
  const state = readState();
  try {
    process.kill(state.workerPid, 'SIGTERM');
  } catch {
    // already gone
  }
  await new Promise((r) => setTimeout(r, 500));
  if (process.env.LOOM_KEEP_TEST_DATA) return;
  // Temporal outlives the run: drop its schedules and the event dispatcher (test/helpers/triggers.ts).
  await removeTriggerInfrastructure().catch((err: unknown) => console.warn(`trigger clean-up: ${(err as Error).message}`));

  const server = new PgClient({ connectionString: state.adminDbUrl });
  await server.connect();
  await server.query(`DROP DATABASE IF EXISTS ${state.dbName} WITH (FORCE)`);
  await server.end();

  const storage = createStorage(loadConfig(process.env).minio);
  const names: string[] = [];
  for await (const item of storage.listObjectsV2(state.bucket, '', true)) {
    if (item.name) names.push(item.name);
  }
  if (names.length) await storage.removeObjects(state.bucket, names);
  await storage.removeBucket(state.bucket);
}
