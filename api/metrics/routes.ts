import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import { defineRoute, type RouteDef, type RouteResult } from '../http/route';
import type { HttpMetrics } from './httpMetrics';

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/**
 * The Prometheus page, behind SERVICE_METRICS_TOKEN when one is configured (compared in constant time, as digests so
 * the lengths match). Used by the public route and by the separate metrics listener alike.
 */
export function metricsPage(metrics: HttpMetrics, token: string | null): (ctx: Context) => Promise<RouteResult> {
  const expected = token === null ? null : digest(`Bearer ${token}`);
  return async (ctx) => {
    if (expected) {
      const given = ctx.get('authorization');
      if (!given) throw new AppError('UNAUTHORIZED', 'missing authorization');
      if (!timingSafeEqual(digest(given), expected)) throw new AppError('UNAUTHORIZED', 'invalid metrics token');
    }
    return {
      body: await metrics.registry.metrics(),
      headers: { 'Content-Type': metrics.registry.contentType, 'Cache-Control': 'no-store' },
    };
  };
}

export function metricsRoutes(metrics: HttpMetrics, token: string | null): RouteDef[] {
  const page = metricsPage(metrics, token);
  return [
    defineRoute({
      method: 'get',
      path: '/metrics',
      operationId: 'prometheusMetrics',
      summary: 'Prometheus metrics of this API process',
      description:
        'Prometheus text exposition: `loom_http_request_duration_seconds{method,route,status}`, `loom_runs{status}`, ' +
        '`loom_events_quarantined`, `loom_task_queue_backlog{type,queue}` and process metrics (`loom_api_*`). When SERVICE_METRICS_TOKEN is set, ' +
        'send `Authorization: Bearer <token>`; when SERVICE_METRICS_PORT is set, this page is served on that port ' +
        'instead of this one. The worker serves its own metrics (activity durations, worker state) on ' +
        'WORKER_METRICS_PORT (docs/operating.md).',
      tags: ['system'],
      auth: 'public',
      errors: ['UNAUTHORIZED'],
      responses: {
        200: { description: 'metrics', contentType: 'text/plain; version=0.0.4', schema: z.string() },
      },
      handler: ({ ctx }) => page(ctx),
    }),
  ];
}
