import type { Domain } from '../domain';
import { createHttpMetrics, type HttpMetrics } from './httpMetrics';
import { metricsRoutes } from './routes';

export type { HttpMetrics };

export function createMetricsDomain(): Domain & { metrics: HttpMetrics } {
  const metrics = createHttpMetrics();
  return { metrics, routes: metricsRoutes(metrics) };
}
