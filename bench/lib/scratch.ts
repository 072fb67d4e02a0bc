import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { Client as PgClient } from 'pg';
import { loadConfig, type Config } from '../../lib/config';
import { createStorage, ensureBucket, type MinioClient } from '../../lib/storage';
import { WORKFLOWS_PATH } from '../../worker/createWorker';
import { REPO_ROOT } from './procs';

/**
 * Everything one bench run owns: a PostgreSQL database (created and migrated here), a MinIO bucket, Temporal task
 * queues, a LanceDB folder and the workflow bundles, all named after the run id and removed by `cleanUp()`.
 */
export interface Scratch {
  runId: string;
  dir: string;
  logDir: string;
  base: Config;
  dbName: string;
  dbUrl: string;
  adminDbUrl: string;
  bucket: string;
  storage: MinioClient;
  taskQueue: string;
  baselineTaskQueue: string;
  jwtSecret: string;
  ourBundlePath: string;
  baselineBundlePath: string;
  vectorUri: string;
  vectorScratchDir: string;
  cleanUp(keep: boolean): Promise<void>;
}

const quietLogger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
  log: () => undefined,
};

function runMigrations(dbUrl: string, logPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts', 'latest'], {
      cwd: REPO_ROOT,
      env: { ...process.env, DATABASE_URL: dbUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) => {
      writeFileSync(logPath, output);
      if (code === 0) resolve();
      else reject(new Error(`migrations failed (${code}): ${output.slice(-2000)}`));
    });
  });
}

export async function createScratch(log: (line: string) => void): Promise<Scratch> {
  const runId = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const jwtSecret = `bench-secret-${runId}-0123456789abcdef0123456789`;
  const base = loadConfig({ ...process.env, SERVICE_JWT_SECRET: jwtSecret });
  const dir = path.join(REPO_ROOT, '.data', 'bench', runId);
  const logDir = path.join(dir, 'logs');
  mkdirSync(logDir, { recursive: true });

  const dbName = `loom_bench_${runId}`;
  const adminUrl = new URL(base.database.url);
  adminUrl.pathname = '/postgres';
  const dbUrl = new URL(base.database.url);
  dbUrl.pathname = `/${dbName}`;
  const bucket = `loom-bench-${runId}`;
  const storage = createStorage(base.minio);

  let dbCreated = false;
  let bucketCreated = false;
  const cleanUp = async (keep: boolean): Promise<void> => {
    if (dbCreated) {
      const admin = new PgClient({ connectionString: adminUrl.toString() });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch((err: Error) => log(`drop database: ${err.message}`));
      await admin.end();
    }
    if (bucketCreated) await removeBucket(storage, bucket).catch((err: Error) => log(`remove bucket: ${err.message}`));
    if (!keep) rmSync(dir, { recursive: true, force: true });
  };

  try {
    const admin = new PgClient({ connectionString: adminUrl.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    dbCreated = true;
    log(`scratch database ${dbName}: migrating`);
    await ensureBucket(storage, bucket, base.minio.region);
    bucketCreated = true;

    const ourBundlePath = path.join(dir, 'workflow-bundle.js');
    const baselineBundlePath = path.join(dir, 'baseline-bundle.js');
    const [, ours, baseline] = await Promise.all([
      runMigrations(dbUrl.toString(), path.join(logDir, 'migrate.log')),
      bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: quietLogger }),
      bundleWorkflowCode({ workflowsPath: require.resolve('../baseline/workflows'), logger: quietLogger }),
    ]);
    writeFileSync(ourBundlePath, ours.code);
    writeFileSync(baselineBundlePath, baseline.code);

    return {
      runId,
      dir,
      logDir,
      base,
      dbName,
      dbUrl: dbUrl.toString(),
      adminDbUrl: adminUrl.toString(),
      bucket,
      storage,
      taskQueue: `loom-bench-${runId}`,
      baselineTaskQueue: `loom-bench-baseline-${runId}`,
      jwtSecret,
      ourBundlePath,
      baselineBundlePath,
      vectorUri: path.join(dir, 'lancedb'),
      vectorScratchDir: path.join(dir, 'lancedb-tmp'),
      cleanUp,
    };
  } catch (err) {
    await cleanUp(false);
    throw err;
  }
}

async function removeBucket(storage: MinioClient, bucket: string): Promise<void> {
  const names: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const stream = storage.listObjectsV2(bucket, '', true);
    stream.on('data', (item: { name?: string }) => item.name && names.push(item.name));
    stream.on('error', reject);
    stream.on('end', () => resolve());
  });
  for (let i = 0; i < names.length; i += 1000) await storage.removeObjects(bucket, names.slice(i, i + 1000));
  await storage.removeBucket(bucket);
}
