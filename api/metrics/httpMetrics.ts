import type { Context } from 'koa';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { registerPlatformGauges, type TaskQueueDescriber } from '../../domain/metrics/platformMetrics';
import type { AppDeps } from '../../domain/deps';

/**
 * The API's Prometheus registry. One registry per app (not prom-client's global one) so several apps in one process
 * (tests) never clash over metric names.
 *
 * Labels are bounded: the route *template* (`/api/v1/workflows/:id`), never the concrete path, so ids never become
 * label values; requests that matched no route share one label.
 */
export interface HttpMetrics {
  registry: Registry;
  observeRequest(ctx: Context, ms: number): void;
}

export const UNMATCHED_ROUTE = '(unmatched)';

export function createHttpMetrics(deps: Pick<AppDeps, 'db' | 'temporal' | 'config'>): HttpMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'api' });
  collectDefaultMetrics({ register: registry, prefix: 'loom_api_' });

  const duration = new Histogram({
    name: 'loom_http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });

  // Runs by status and the task queue backlog, as on the worker's page (scrape either).
  registerPlatformGauges(registry, {
    db: deps.db,
    temporal: () => deps.temporal.workflowService as unknown as TaskQueueDescriber,
    namespace: deps.config.temporal.namespace,
    taskQueue: deps.config.temporal.taskQueue,
    refreshIntervalMs: deps.config.metrics.refreshIntervalMs,
  });

  // One labelled child per method, route template and status, looked up by a string key: prom-client hashes the
  // label object on every observe otherwise. The set is bounded like the labels themselves.
  const series = new Map<string, { observe(seconds: number): void }>();
  return {
    registry,
    observeRequest(ctx, ms) {
      const route = typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : UNMATCHED_ROUTE;
      const key = `${ctx.method} ${ctx.status} ${route}`;
      let child = series.get(key);
      if (!child) {
        child = duration.labels({ method: ctx.method, route, status: String(ctx.status) });
        series.set(key, child);
      }
      child.observe(ms / 1000);
    },
  };
}
