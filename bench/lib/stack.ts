import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { freePort, spawnNode, waitForHttp, waitForLog, type Child } from './procs';
import type { Scratch } from './scratch';

/**
 * The processes under test, all children of the bench: the real API (`api/server.ts`), real workers
 * (`worker/main.ts`) on the run's own task queue, and the baseline worker on its own queue. They share one
 * environment: the scratch database, bucket, LanceDB folder and bundles.
 */
export interface StackOptions {
  /** Node flags for the API and our workers (e.g. --cpu-prof), with a profile folder per process. */
  profileDir?: string;
  logLevel: string;
  /** Extra environment for the API and our workers (e.g. the vector index threshold of a smoke run). */
  extraEnv?: Record<string, string>;
  /**
   * Another Temporal frontend for the API, our workers and the baseline worker (the Temporal cluster of
   * bench/scenarios/cluster.ts); default the scratch's, TEMPORAL_ADDRESS of the environment (the dev server).
   */
  temporalAddress?: string;
  /** Put before every child's name and log file, so that a second stack on the same scratch keeps its own logs. */
  namePrefix?: string;
}

export function childEnv(scratch: Scratch, logLevel: string): Record<string, string> {
  const generous = '1000000/1m';
  return {
    // Not 'production': production mode refuses the dev stack's well-known MinIO credentials (lib/config), and the
    // compiled build the children run behaves the same otherwise (only that refusal and a warning read NODE_ENV).
    NODE_ENV: 'development',
    LOG_LEVEL: logLevel,
    SERVICE_JWT_SECRET: scratch.jwtSecret,
    DATABASE_URL: scratch.dbUrl,
    MINIO_BUCKET: scratch.bucket,
    TEMPORAL_TASK_QUEUE: scratch.taskQueue,
    TEMPORAL_WORKFLOW_BUNDLE: scratch.ourBundlePath,
    CONTENT_VECTOR_URI: scratch.vectorUri,
    CONTENT_VECTOR_SCRATCH_DIR: scratch.vectorScratchDir,
    CONTENT_EMBEDDING_PROVIDER: 'lexical',
    CONTENT_EMBEDDING_DIMENSIONS: '384',
    // Uploads are measured as uploads: processing would compete for the same two cores.
    CONTENT_PROCESS_ON_UPLOAD: 'false',
    // The cancel scenario's busy node is the `delay` test tool.
    TOOLS_TEST_TOOLS_ENABLED: 'true',
    // Abuse limits stay on (their cost is part of the path) but far above what a load test sends.
    SERVICE_RATE_LIMIT_LOGIN_IP: generous,
    SERVICE_RATE_LIMIT_LOGIN_ACCOUNT: generous,
    SERVICE_RATE_LIMIT_LOGIN_ACCOUNT_IP: generous,
    SERVICE_RATE_LIMIT_REGISTER_IP: generous,
    // Run admission (docs/runs.md#fairness) stays on, so its cost is measured, with limits the closed loops never reach.
    RUN_START_RATE_LIMIT: generous,
    RUN_MAX_ACTIVE_PER_ORGANIZATION: '100000',
    // The peer and soak scenarios call one organization's webhook far faster than a tenant may by default; and no
    // bench firing of a schedule should ever wait for its budget.
    TRIGGERS_WEBHOOK_ORGANIZATION_RATE_LIMIT: generous,
    SCHEDULES_TRIGGERED_RUNS_RATE_LIMIT: generous,
    // The purge schedules and the event dispatcher would outlive the run on its scratch task queue.
    WORKER_ENSURE_BACKGROUND_JOBS: 'false',
    WORKER_METRICS_PORT: '0',
    WORKER_SDK_METRICS_PORT: '0',
  };
}

export class Stack {
  api: Child | null = null;
  apiUrl = '';
  readonly workers: Child[] = [];
  readonly baselineWorkers: Child[] = [];

  constructor(
    private readonly scratch: Scratch,
    private readonly options: StackOptions,
  ) {}

  /** The Temporal frontend when it is not the environment's: for every child of this stack. */
  private get temporalEnv(): Record<string, string> {
    return this.options.temporalAddress ? { TEMPORAL_ADDRESS: this.options.temporalAddress } : {};
  }

  private name(name: string): string {
    return `${this.options.namePrefix ?? ''}${name}`;
  }

  private flags(name: string): string[] {
    if (!this.options.profileDir) return [];
    const dir = path.join(this.options.profileDir, name);
    mkdirSync(dir, { recursive: true });
    return ['--cpu-prof', `--cpu-prof-dir=${dir}`];
  }

  async startApi(): Promise<void> {
    const port = await freePort();
    this.api = spawnNode({
      name: this.name(this.options.profileDir ? 'api-profiled' : 'api'),
      script: 'api/server.ts',
      env: { ...childEnv(this.scratch, this.options.logLevel), ...this.options.extraEnv, ...this.temporalEnv, SERVICE_PORT: String(port) },
      logDir: this.scratch.logDir,
      nodeFlags: this.flags('api'),
    });
    this.apiUrl = `http://127.0.0.1:${port}`;
    await waitForHttp(this.api, `${this.apiUrl}/healthz`);
  }

  async startWorker(): Promise<Child> {
    const index = this.workers.length + 1;
    const name = this.name(`${this.options.profileDir ? 'worker-profiled' : 'worker'}-${index}`);
    const child = spawnNode({
      name,
      script: 'worker/main.ts',
      // The worker logs "worker started" at info, which start-up detection needs: BENCH_LOG_LEVEL can make it more
      // verbose, never quieter (it logs little per activity anyway; the level matters for the API's request log).
      env: {
        ...childEnv(this.scratch, ['debug', 'trace'].includes(this.options.logLevel) ? this.options.logLevel : 'info'),
        ...this.options.extraEnv,
        ...this.temporalEnv,
      },
      logDir: this.scratch.logDir,
      nodeFlags: this.flags(`worker-${index}`),
    });
    await waitForLog(child, /worker started/);
    this.workers.push(child);
    return child;
  }

  async startBaselineWorker(): Promise<Child> {
    const child = spawnNode({
      name: this.name(`baseline-worker-${this.baselineWorkers.length + 1}`),
      script: 'bench/baseline/worker.ts',
      env: {
        BENCH_BASELINE_TASK_QUEUE: this.scratch.baselineTaskQueue,
        BENCH_BASELINE_BUNDLE: this.scratch.baselineBundlePath,
        // Only the recorded run baseline's activity writes (bench/baseline/activities.ts); its pool opens on first use.
        DATABASE_URL: this.scratch.dbUrl,
        ...this.temporalEnv,
      },
      logDir: this.scratch.logDir,
    });
    await waitForLog(child, /baseline worker started/);
    this.baselineWorkers.push(child);
    return child;
  }

  async stopWorkers(keep: number): Promise<void> {
    while (this.workers.length > keep) await this.workers.pop()!.stop();
  }

  async stopBaselineWorkers(keep: number): Promise<void> {
    while (this.baselineWorkers.length > keep) await this.baselineWorkers.pop()!.stop();
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.workers, ...this.baselineWorkers].map((c) => c.stop()));
    this.workers.length = 0;
    this.baselineWorkers.length = 0;
    if (this.api) await this.api.stop();
    this.api = null;
  }
}
