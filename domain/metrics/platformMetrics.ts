import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../../db/knex';
import { countQuarantinedEvents } from '../events/queries';

/**
 * Gauges of the platform's state, shared by the API's and the worker's /metrics: runs by status (PostgreSQL
 * `workflow_runs`), quarantined events (`outbox_events`, docs/events.md#quarantine) and the task queue backlog
 * (Temporal). Read when scraped, at most once per `refreshIntervalMs`,
 * so a busy scraper never loads PostgreSQL or Temporal; a failed read leaves the gauge empty rather than failing
 * the scrape.
 */

/** The part of Temporal's WorkflowService these gauges use (the client's and the worker's connections have it). */
export interface TaskQueueDescriber {
  describeTaskQueue(request: {
    namespace: string;
    taskQueue: { name: string };
    taskQueueType: number;
    reportStats: boolean;
  }): Promise<{ stats?: { approximateBacklogCount?: unknown } | null }>;
}

export interface PlatformGaugeOptions {
  db: Db;
  /** Null while no connection exists yet (the worker's is made at start). */
  temporal: () => TaskQueueDescriber | null;
  namespace: string;
  taskQueue: string;
  refreshIntervalMs: number;
}

const RUN_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
// temporal.api.enums.v1.TaskQueueType (@temporalio/proto is not a direct dependency).
const TASK_QUEUE_TYPES = [
  ['workflow', 1],
  ['activity', 2],
] as const;

/** Caches an async read for `ttlMs`; a failed read yields null until the next attempt. */
export function cachedRead<T>(ttlMs: number, read: () => Promise<T>): () => Promise<T | null> {
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

export function registerPlatformGauges(registry: Registry, options: PlatformGaugeOptions): void {
  const readRunCounts = cachedRead(options.refreshIntervalMs, async () => {
    // The runs table belongs to the runs domain; without it there is simply nothing to report.
    if (!(await options.db.schema.hasTable('workflow_runs'))) return null;
    const rows = (await options.db('workflow_runs').select('status').count({ n: '*' }).groupBy('status')) as {
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

  const readQuarantined = cachedRead(options.refreshIntervalMs, async () => {
    if (!(await options.db.schema.hasColumn('outbox_events', 'quarantine_status'))) return null;
    return countQuarantinedEvents(options.db);
  });
  new Gauge({
    name: 'loom_events_quarantined',
    help: 'Events set aside after their last dispatch attempt, awaiting a replay or a discard (all organizations)',
    registers: [registry],
    async collect() {
      const n = await readQuarantined();
      this.reset();
      if (n !== null) this.set(n);
    },
  });

  const readBacklog = cachedRead(options.refreshIntervalMs, async () => {
    const service = options.temporal();
    if (!service) return null;
    const out: Record<string, number> = {};
    for (const [type, taskQueueType] of TASK_QUEUE_TYPES) {
      const res = await service.describeTaskQueue({
        namespace: options.namespace,
        taskQueue: { name: options.taskQueue },
        taskQueueType,
        reportStats: true,
      });
      out[type] = Number(res.stats?.approximateBacklogCount ?? 0);
    }
    return out;
  });
  new Gauge({
    name: 'loom_task_queue_backlog',
    help: 'Approximate number of tasks waiting in the task queue, by task type',
    labelNames: ['type', 'queue'] as const,
    registers: [registry],
    async collect() {
      const backlog = await readBacklog();
      this.reset();
      if (!backlog) return;
      for (const [type, n] of Object.entries(backlog)) this.set({ type, queue: options.taskQueue }, n);
    },
  });
}
