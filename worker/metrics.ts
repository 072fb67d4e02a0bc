import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CancelledFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory, Worker } from '@temporalio/worker';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import type { Db } from '../db/knex';

/**
 * The worker's Prometheus metrics:
 * - `loom_activity_duration_seconds{activity_type,outcome}` from an activity interceptor (activity types are named
 *   after tools, so this is "tool latency");
 * - `loom_worker_*` gauges read from the SDK's worker status (in-flight workflow tasks and activities, cache);
 * - `loom_runs{status}` from PostgreSQL `workflow_runs` and `loom_task_queue_backlog{type}` from Temporal, both read
 *   at scrape time and cached for METRICS_REFRESH_INTERVAL so a busy scraper never hammers the database;
 * - the Temporal SDK's own metrics (`temporal_*`: workflow task counts and latencies, polls, schedule-to-start...)
 *   when the SDK exporter runs (WORKER_SDK_METRICS_PORT), appended to the same page.
 */
export interface WorkerMetrics {
  registry: Registry;
  activityInterceptor: ActivityInterceptorsFactory;
  /** Reports the status of this worker once it exists. */
  attachWorker(worker: Worker): void;
  /** The Prometheus text of everything above. */
  render(): Promise<string>;
}

export interface WorkerMetricsDeps {
  config: Config;
  db: Db;
  logger: Logger;
  /** Where the Temporal SDK's exporter answers (see sdkMetricsBindAddress), or null. */
  sdkMetricsUrl?: string | null;
}

export type ActivityOutcome = 'completed' | 'failed' | 'cancelled';

const RUN_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;

/** Caches an async read for `ttlMs`; a failed read is logged once per attempt and yields null. */
function cached<T>(ttlMs: number, read: () => Promise<T>): () => Promise<T | null> {
  let value: T | null = null;
  let readAt = -Infinity;
  let inFlight: Promise<T | null> | null = null;
  return () => {
    if (Date.now() - readAt < ttlMs) return Promise.resolve(value);
    inFlight ??= read()
      .then((v) => (value = v))
      .catch(() => (value = null))
      .finally(() => {
        readAt = Date.now();
        inFlight = null;
      });
    return inFlight;
  };
}

export function createWorkerMetrics({ config, db, logger, sdkMetricsUrl = null }: WorkerMetricsDeps): WorkerMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'worker', task_queue: config.temporal.taskQueue });
  collectDefaultMetrics({ register: registry, prefix: 'loom_worker_' });
  let worker: Worker | null = null;

  const activityDuration = new Histogram({
    name: 'loom_activity_duration_seconds',
    help: 'Activity execution time by activity type (tool) and outcome',
    labelNames: ['activity_type', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [registry],
  });

  const activityInterceptor: ActivityInterceptorsFactory = (ctx) => ({
    inbound: {
      async execute(input, next) {
        const started = process.hrtime.bigint();
        let outcome: ActivityOutcome = 'completed';
        try {
          return await next(input);
        } catch (err) {
          outcome = err instanceof CancelledFailure || ctx.cancellationSignal.aborted ? 'cancelled' : 'failed';
          throw err;
        } finally {
          const seconds = Number(process.hrtime.bigint() - started) / 1e9;
          activityDuration.observe({ activity_type: ctx.info.activityType, outcome }, seconds);
        }
      },
    },
  });

  const statusGauge = (name: string, help: string, read: (s: ReturnType<Worker['getStatus']>) => number): void => {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        if (worker) this.set(read(worker.getStatus()));
      },
    });
  };
  statusGauge('loom_worker_workflow_tasks_in_flight', 'Workflow activations being processed', (s) => s.numInFlightWorkflowActivations);
  statusGauge('loom_worker_activities_in_flight', 'Activities being executed', (s) => s.numInFlightActivities);
  statusGauge('loom_worker_cached_workflows', 'Workflow executions cached in worker memory', (s) => s.numCachedWorkflows);

  const readRunCounts = cached(config.metrics.refreshIntervalMs, async () => {
    // The runs table belongs to the runs domain; until its migration exists there is simply nothing to report.
    if (!(await db.schema.hasTable('workflow_runs'))) return null;
    const rows = (await db('workflow_runs').select('status').count({ n: '*' }).groupBy('status')) as {
      status: string;
      n: string | number;
    }[];
    return new Map(rows.map((r) => [r.status, Number(r.n)]));
  });
  new Gauge({
    name: 'loom_runs',
    help: 'Workflow runs by status (all organizations)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const counts = await readRunCounts();
      this.reset();
      if (!counts) return;
      for (const status of new Set([...RUN_STATUSES, ...counts.keys()])) this.set({ status }, counts.get(status) ?? 0);
    },
  });

  const readBacklog = cached(config.metrics.refreshIntervalMs, async () => {
    const service = worker?.connection?.workflowService;
    if (!service) return null;
    const out: Record<string, number> = {};
    for (const [type, enumValue] of [
      // temporal.api.enums.v1.TaskQueueType: 1 = WORKFLOW, 2 = ACTIVITY (@temporalio/proto is not a direct dependency).
      ['workflow', 1],
      ['activity', 2],
    ] as const) {
      const res = await service.describeTaskQueue({
        namespace: config.temporal.namespace,
        taskQueue: { name: config.temporal.taskQueue },
        taskQueueType: enumValue,
        reportStats: true,
      });
      out[type] = Number(res.stats?.approximateBacklogCount ?? 0);
    }
    return out;
  });
  new Gauge({
    name: 'loom_task_queue_backlog',
    help: "Approximate number of tasks waiting in this worker's task queue, by task type",
    labelNames: ['type'] as const,
    registers: [registry],
    async collect() {
      const backlog = await readBacklog();
      this.reset();
      if (!backlog) return;
      for (const [type, n] of Object.entries(backlog)) this.set({ type }, n);
    },
  });

  let sdkWarned = false;
  async function readSdkMetrics(): Promise<string> {
    if (!sdkMetricsUrl) return '';
    try {
      const res = await fetch(sdkMetricsUrl, { signal: AbortSignal.timeout(2000) });
      return res.ok ? await res.text() : '';
    } catch (err) {
      if (!sdkWarned) logger.warn({ err, url: sdkMetricsUrl }, 'temporal sdk metrics unavailable');
      sdkWarned = true;
      return '';
    }
  }

  return {
    registry,
    activityInterceptor,
    attachWorker(w) {
      worker = w;
    },
    async render() {
      const [ours, sdk] = await Promise.all([registry.metrics(), readSdkMetrics()]);
      return sdk ? `${ours.trimEnd()}\n${sdk}` : ours;
    },
  };
}

/** The SDK's Prometheus exporter address, or null when disabled. Must be installed before any connection exists. */
export function sdkMetricsBindAddress(config: Config): string | null {
  if (!config.metrics.workerPort || !config.metrics.workerSdkPort) return null;
  return `127.0.0.1:${config.metrics.workerSdkPort}`;
}

/** Serves GET /metrics; resolves once listening (port 0 in config means "disabled", handled by the caller). */
export async function serveWorkerMetrics(metrics: WorkerMetrics, host: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.render().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

export function boundPort(server: Server): number {
  return (server.address() as AddressInfo).port;
}
