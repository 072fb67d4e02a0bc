import { loadConfigOrExit } from '../lib/config';
import { createLogger, type Logger } from '../lib/logger';
import { ensureBucket } from '../lib/storage';
import { closeTemporalClient, createTemporalClient } from '../lib/temporal';
import { useScratchDirForTempFiles } from '../lib/vectors/scratch';
import { guardTransactions } from '../lib/db/transactionGuard';
import { startMailSweeper } from '../domain/notifications/mailOutbox';
import { createProcessDeps } from '../domain/runtime';
import { publishWorkerTools } from '../domain/tools/catalogue';
import { workerTools } from '../activities/tools/registry';
import { describeTool } from '../lib/tools/descriptor';
import { ensureBackgroundJobs } from './backgroundJobs';
import { bundleWorkflowCode } from '@temporalio/worker';
import { createFlowWorker, createWorker, WORKFLOWS_PATH } from './createWorker';
import { temporalLogger } from './logging';
import { setUpWorkerObservability } from './observability';
import { ensureSearchAttributes } from './searchAttributes';
import { watchWorkflowIsolates } from './isolateWatch';
import { disableWorkflowStackTraces } from './workflowStackTraces';

let logger: Logger | undefined;

/** How often the worker looks for platform mail that is due again (domain/notifications/mailOutbox.ts). */
const MAIL_SWEEP_INTERVAL_MS = 15_000;

async function main(): Promise<void> {
  const config = loadConfigOrExit('worker');
  // Once, before any LanceDB work: index builds leave temporary folders in $TMPDIR (lib/vectors/scratch.ts).
  useScratchDirForTempFiles(config.content.vectorScratchDir);
  logger = createLogger(config.logLevel, 'worker');
  // Before the SDK starts its workflow threads (in createWorker).
  if (!config.worker.workflowStackTraces) disableWorkflowStackTraces();
  watchWorkflowIsolates({
    timeoutMs: config.worker.isolateExecutionTimeoutMs,
    onStuck: ({ threadId, stuckMs }) =>
      logger?.fatal({ threadId, stuckMs }, 'a workflow thread did not return from workflow code: terminating it (the worker exits)'),
  });
  const deps = createProcessDeps(config, logger);
  const { db, storage } = deps;
  if (config.worker.transactionGuard) {
    const log = logger;
    guardTransactions(db, (message) => {
      log.error({ violation: message }, 'transaction guard');
      throw new Error(`transaction guard: ${message}`);
    });
  }
  await ensureBucket(storage, config.minio.bucket, config.minio.region);
  const observability = setUpWorkerObservability({ config, db, logger });
  // One bundle for both workers (the SDK would build one per worker).
  const code = config.temporal.workflowBundlePath
    ? { workflowBundlePath: config.temporal.workflowBundlePath }
    : { workflowBundle: await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: temporalLogger(logger) }) };
  const worker = await createWorker({ deps, ...code, overrides: { interceptors: observability.interceptors } });
  const flowWorker = await createFlowWorker(worker, { deps, ...code });
  await observability.attachWorker(worker);
  const client = createTemporalClient(config.temporal);
  try {
    const attributes = await ensureSearchAttributes(client, config.temporal.namespace);
    if (attributes.added.length) logger.info({ added: attributes.added }, 'search attributes added');
    if (attributes.conflicting.length) {
      logger.error({ conflicting: attributes.conflicting }, 'search attributes registered with another type: runs cannot start');
    }
  } catch (err) {
    // e.g. a hosted namespace whose operator API this worker may not use: the operator registers them.
    logger.warn({ err }, 'search attributes not checked');
  }
  if (config.worker.ensureBackgroundJobs) {
    const report = await ensureBackgroundJobs(client, config.temporal.taskQueue);
    logger.info({ report }, 'background jobs ensured');
  }
  await closeTemporalClient(client);
  // The tools this worker registered become its queue's catalogue, which the API lists and validates against.
  await publishWorkerTools(deps, workerTools(config.tools).map(describeTool));
  logger.info({ taskQueue: config.temporal.taskQueue, workflowStackTraces: config.worker.workflowStackTraces }, 'worker started');
  // Platform mail whose send after commit failed (SMTP down, the API died): retried from the outbox.
  const stopMailSweeper = startMailSweeper(deps, MAIL_SWEEP_INTERVAL_MS);
  // Worker.run resolves after SIGTERM/SIGINT once in-flight tasks finish (the SDK installs those handlers).
  await Promise.all([worker.run(), flowWorker.run()]);
  await stopMailSweeper();
  // The last native connection closed shuts the SDK's Runtime down: its forwarded core logs would keep the process alive.
  await worker.connection?.close();
  await observability.close();
  await db.destroy();
  logger.info('worker stopped');
}

main().catch((err: unknown) => {
  // A JSON line like every other (configuration errors exit earlier, in loadConfigOrExit).
  (logger ?? createLogger('info', 'worker')).fatal({ err }, `worker: ${(err as Error).message}`);
  process.exit(1);
});
