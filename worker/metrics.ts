import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CancelledFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory, Worker } from '@temporalio/worker';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../lib/config';
import type { Logger } from '../lib/logger';
import type { Db } from '../db/knex';
import { registerPlatformGauges, type TaskQueueDescriber } from '../domain/metrics/platformMetrics';

/**
 * The worker's Prometheus metrics:
 * - `loom_activity_duration_seconds{activity_type,outcome}` from an activity interceptor (activity types are named
 *   after tools, so this is "tool latency");
 * - `loom_worker_*` gauges read from the SDK's worker status (in-flight workflow tasks and activities, cache);
 * - `loom_runs{status}`, `loom_events_quarantined` and `loom_task_queue_backlog{type,queue}` (domain/metrics/platformMetrics.ts);
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

  registerPlatformGauges(registry, {
    db,
    temporal: () => (worker?.connection?.workflowService as TaskQueueDescriber | undefined) ?? null,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    refreshIntervalMs: config.metrics.refreshIntervalMs,
  });

  let sdkWarned = false;
  async function readSdkMetrics(): Promise<string> {
    if (!sdkMetricsUrl) return '';
    try {
      // The Temporal SDK's own metrics endpoint on this machine, from the operator's configuration: no tenant input.
      // eslint-disable-next-line no-restricted-globals
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
