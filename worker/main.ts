import { loadConfigOrExit } from '../lib/config';
import { createLogger } from '../lib/logger';
import { createMailer } from '../lib/mailer';
import { createStorage, ensureBucket } from '../lib/storage';
import { createTemporalClient } from '../lib/temporal';
import { useScratchDirForTempFiles } from '../lib/vectors/scratch';
import { createDb } from '../db/knex';
import { publishWorkerTools } from '../domain/tools/catalogue';
import { ensureBackgroundJobs } from './backgroundJobs';
import { createWorker } from './createWorker';
import { setUpWorkerObservability } from './observability';
import { disableWorkflowStackTraces } from './workflowStackTraces';

async function main(): Promise<void> {
  const config = loadConfigOrExit('worker');
  // Once, before any LanceDB work: index builds leave temporary folders in $TMPDIR (lib/vectors/scratch.ts).
  useScratchDirForTempFiles(config.content.vectorScratchDir);
  const logger = createLogger(config.logLevel, 'worker');
  // Before the SDK starts its workflow threads (in createWorker).
  if (!config.worker.workflowStackTraces) disableWorkflowStackTraces();
  const db = createDb(config.database.url, config.database.poolMax, logger);
  const storage = createStorage(config.minio);
  await ensureBucket(storage, config.minio.bucket, config.minio.region);
  const observability = setUpWorkerObservability({ config, db, logger });
  const worker = await createWorker({
    deps: { config, db, storage, mailer: createMailer(config.mail), logger },
    workflowBundlePath: config.temporal.workflowBundlePath,
    overrides: { interceptors: observability.interceptors },
  });
  await observability.attachWorker(worker);
  if (config.worker.ensureBackgroundJobs) {
    const client = createTemporalClient(config.temporal);
    const report = await ensureBackgroundJobs(client, config.temporal.taskQueue);
    await client.connection.close();
    logger.info({ report }, 'background jobs ensured');
  }
  // The tools this worker registered become its queue's catalogue, which the API lists and validates against.
  await publishWorkerTools({ db, config, logger });
  logger.info({ taskQueue: config.temporal.taskQueue, workflowStackTraces: config.worker.workflowStackTraces }, 'worker started');
  // Worker.run resolves after SIGTERM/SIGINT once in-flight tasks finish (the SDK installs those handlers).
  await worker.run();
  await observability.close();
  await db.destroy();
  logger.info('worker stopped');
}

main().catch((err: unknown) => {
  console.error(`worker: ${(err as Error).message}`);
  process.exit(1);
});
