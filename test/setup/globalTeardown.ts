import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { loadConfig } from '../../lib/config';
import { createStorage } from '../../lib/storage';
import { readState } from './state';
import { removeTriggerInfrastructure } from '../helpers/triggers';
import { replayTestHistories, type ReplayReport } from './replayHistories';

export default async function globalTeardown(): Promise<void> {
  const state = readState();
  try {
    process.kill(state.workerPid, 'SIGTERM');
  } catch {
    // already gone
  }
  await new Promise((r) => setTimeout(r, 500));
  const replay = await replayTestHistories(state.taskQueue, state.bundlePath);
  writeFileSync(path.join(state.dir, 'replay.json'), JSON.stringify(replay, null, 2));
  console.log(`replayed ${replay.replayed} finished executions of this run in ${replay.ms} ms: ${replay.failures.length} not deterministic`);
  const violations = transactionViolationsOfWorker(path.join(state.dir, 'worker.log'));
  if (process.env.LOOM_KEEP_TEST_DATA) return assertClean(replay, violations);
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
  assertClean(replay, violations);
}

/** What the worker's transaction guard (WORKER_TRANSACTION_GUARD) logged: each one failed an activity. */
function transactionViolationsOfWorker(logPath: string): string[] {
  let text = '';
  try {
    text = readFileSync(logPath, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.includes('"msg":"transaction guard"'))
    .map((line) => (JSON.parse(line) as { violation?: string }).violation ?? line);
}

function assertClean(replay: ReplayReport, violations: string[]): void {
  if (violations.length) {
    throw new Error(`the worker's transaction guard caught ${violations.length} violations:\n${violations.slice(0, 10).join('\n')}`);
  }
  if (!replay.failures.length) return;
  const lines = replay.failures.slice(0, 20).map((f) => `  ${f.workflowId}: ${f.error}`);
  throw new Error(`workflow code is not deterministic: ${replay.failures.length} executions failed to replay\n${lines.join('\n')}`);
}
