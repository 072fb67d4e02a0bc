import type { AppDeps, Domain } from '../domain';
import { createHttpMetrics, type HttpMetrics } from './httpMetrics';
import { metricsRoutes } from './routes';

export type { HttpMetrics };

export function createMetricsDomain(deps: AppDeps): Domain & { metrics: HttpMetrics } {
  const metrics = createHttpMetrics(deps);
  return { metrics, routes: metricsRoutes(metrics) };
}
