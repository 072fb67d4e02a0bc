import { spawn } from 'node:child_process';
import { mkdirSync, openSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { Client as PgClient } from 'pg';
import { loadConfig } from '../../lib/config';
import { createStorage, ensureBucket } from '../../lib/storage';
import { createDb, migrateLatest } from '../../db/knex';
import { WORKFLOWS_PATH } from '../../worker/createWorker';
import { REPO_ROOT, STATE_FILE, type TestState, waitForLine } from './state';

/**
 * Integration tests run against the real services that `scripts/test` brought up. Each run gets its own database,
 * MinIO bucket and Temporal task queue, so runs (and developers) never see each other's data; one worker process
 * serves the run. Global teardown replays every execution that worker finished (test/setup/replayHistories.ts).
 */
export default async function globalSetup(): Promise<void> {
  const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  process.env.SERVICE_JWT_SECRET ||= 'test-secret-that-is-long-enough-0123456789abcdef';
  process.env.NODE_ENV = 'test';
  const base = loadConfig(process.env);

  const dbName = `loom_test_${runId}`;
  const adminUrl = new URL(base.database.url);
  adminUrl.pathname = '/postgres';
  const server = new PgClient({ connectionString: adminUrl.toString() });
  await server.connect();
  await server.query(`CREATE DATABASE ${dbName}`);
  await server.end();
  const dbUrl = new URL(base.database.url);
  dbUrl.pathname = `/${dbName}`;

  const db = createDb(dbUrl.toString(), 2);
  await migrateLatest(db);
  await db.destroy();

  const bucket = `loom-test-${runId}`;
  const storage = createStorage(base.minio);
  await ensureBucket(storage, bucket, base.minio.region);

  const dir = path.join(REPO_ROOT, '.data', 'test', runId);
  mkdirSync(dir, { recursive: true });
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietLogger });
  const bundlePath = path.join(dir, 'workflow-bundle.js');
  writeFileSync(bundlePath, code);

  const env: Record<string, string> = {
    DATABASE_URL: dbUrl.toString(),
    MINIO_BUCKET: bucket,
    TEMPORAL_TASK_QUEUE: `loom-test-${runId}`,
    TEMPORAL_WORKFLOW_BUNDLE: bundlePath,
    LOOM_TEST_RUN_ID: runId,
    LOOM_TEST_DIR: dir,
    // LanceDB of this run, shared by the in-process API and the worker process.
    CONTENT_VECTOR_URI: path.join(dir, 'lancedb'),
    CONTENT_VECTOR_SCRATCH_DIR: path.join(dir, 'lancedb-tmp'),
    LOG_LEVEL: process.env.LOG_LEVEL || 'info',
    // Metrics ports are fixed numbers: a developer's own worker may hold them. Tests serve metrics in-process.
    WORKER_METRICS_PORT: '0',
    // Tests create the schedules and the dispatcher they need themselves (test/helpers/triggers.ts).
    WORKER_ENSURE_BACKGROUND_JOBS: 'false',
    // Triggers tests: outgoing webhooks may reach the local receiver; short retries, quick auto-disable and polling.
    WEBHOOKS_ALLOWED_PRIVATE_HOSTS: '127.0.0.1',
    // Stand-ins for external SaaS that the worker must reach (embedding providers) listen on 127.0.0.3, the one
    // private address tools may reach here; every other internal destination stays refused by the real worker.
    TOOLS_HTTP_ALLOWED_HOSTS: '127.0.0.3',
    WEBHOOKS_RETRY_INITIAL_INTERVAL: '200ms',
    WEBHOOKS_RETRY_MAX_INTERVAL: '1s',
    WEBHOOKS_MAX_ATTEMPTS: '3',
    WEBHOOKS_DISABLE_AFTER_FAILURES: '2',
    WEBHOOKS_TIMEOUT: '3s',
    EVENTS_DISPATCH_INTERVAL: '300ms',
    // events-quarantine.test.ts: a poison event is quarantined within about a second, not 15 minutes.
    EVENTS_DISPATCH_MAX_ATTEMPTS: '3',
    EVENTS_DISPATCH_RETRY_INTERVAL: '200ms',
    EVENTS_DISPATCH_RETRY_MAX_INTERVAL: '500ms',
    // triggers-events.test.ts runs a burst past it; no other test starts as many event runs in one organization.
    EVENTS_TRIGGERED_RUNS_RATE_LIMIT: '10/10s',
    // triggers-schedules.test.ts fires a burst past it; other schedule tests fire a run or two per organization.
    SCHEDULES_TRIGGERED_RUNS_RATE_LIMIT: '10/10s',
    // security/email-abuse.test.ts exhausts it; every other test sends fewer e-mails per organization.
    TOOLS_EMAIL_DAILY_RECIPIENTS: '5',
    // Activities fail on a pool query or a nested transaction inside an open transaction; teardown reports them.
    WORKER_TRANSACTION_GUARD: 'true',
    // The test tools (delay, fail) for the worker and every in-process API; tools-catalogue.test.ts turns them off.
    TOOLS_TEST_TOOLS_ENABLED: 'true',
  };
  Object.assign(process.env, env);

  const logPath = path.join(dir, 'worker.log');
  const out = openSync(logPath, 'a');
  const worker = spawn(process.execPath, ['--import', 'tsx', 'worker/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env },
    stdio: ['ignore', out, out],
    detached: false,
  });
  await waitForLine(logPath, /worker started/, 90_000, () => worker.exitCode);

  const state: TestState = {
    runId,
    dbName,
    adminDbUrl: adminUrl.toString(),
    bucket,
    dir,
    workerPid: worker.pid!,
    taskQueue: env.TEMPORAL_TASK_QUEUE!,
    bundlePath,
  };
  writeFileSync(STATE_FILE, JSON.stringify(state));
}

const quietLogger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
  log: () => undefined,
};
