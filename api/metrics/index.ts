import type Koa from 'koa';
import type { Domain } from '../domain';
import type { AppDeps } from '../../domain/deps';
import { createHttpMetrics, type HttpMetrics } from './httpMetrics';
import { createMetricsListener } from './listener';
import { metricsRoutes } from './routes';

export type { HttpMetrics };

/**
 * `listener` is the Koa app to serve on SERVICE_METRICS_PORT when metrics live off the public port (then `routes`
 * is empty, so the public port and its OpenAPI document have no /metrics); null when they are on the public port.
 */
export function createMetricsDomain(deps: AppDeps): Domain & { metrics: HttpMetrics; listener: Koa | null } {
  const metrics = createHttpMetrics(deps);
  const { api, apiToken } = deps.config.metrics;
  return {
    metrics,
    routes: api ? [] : metricsRoutes(metrics, apiToken),
    listener: api ? createMetricsListener(metrics, apiToken) : null,
  };
}
