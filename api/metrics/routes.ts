import { z } from 'zod';
import { defineRoute, type RouteDef } from '../http/route';
import type { HttpMetrics } from './httpMetrics';

export function metricsRoutes(metrics: HttpMetrics): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/metrics',
      operationId: 'prometheusMetrics',
      summary: 'Prometheus metrics of this API process',
      description:
        'Prometheus text exposition: `loom_http_request_duration_seconds{method,route,status}`, `loom_runs{status}`, ' +
        '`loom_task_queue_backlog{type,queue}` and process metrics (`loom_api_*`). The worker serves its own metrics ' +
        '(activity durations, worker state) on WORKER_METRICS_PORT (docs/operating.md).',
      tags: ['system'],
      auth: 'public',
      responses: {
        200: { description: 'metrics', contentType: 'text/plain; version=0.0.4', schema: z.string() },
      },
      handler: async () => ({
        body: await metrics.registry.metrics(),
        headers: { 'Content-Type': metrics.registry.contentType, 'Cache-Control': 'no-store' },
      }),
    }),
  ];
}
