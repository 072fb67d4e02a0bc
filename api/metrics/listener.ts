import Koa from 'koa';
import { AppError } from '../../lib/errors';
import { securityHeaders } from '../http/securityHeaders';
import { errorMiddleware } from '../middleware/errors';
import type { HttpMetrics } from './httpMetrics';
import { metricsPage } from './routes';

/**
 * The API's /metrics on a listener of its own (SERVICE_METRICS_PORT), so it can be bound to an address the public
 * never reaches. It answers /metrics only, in the same envelope and with the same headers as the public port.
 */
export function createMetricsListener(metrics: HttpMetrics, token: string | null): Koa {
  const page = metricsPage(metrics, token);
  const koa = new Koa();
  koa.use(securityHeaders());
  koa.use(errorMiddleware());
  koa.use(async (ctx) => {
    if (ctx.path !== '/metrics') throw new AppError('NOT_FOUND', `no route for ${ctx.method} ${ctx.path}`);
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      throw new AppError('METHOD_NOT_ALLOWED', `${ctx.method} is not allowed on /metrics; allowed: GET, HEAD`, undefined, {
        Allow: 'GET, HEAD',
      });
    }
    const result = await page(ctx);
    if (result.headers) ctx.set(result.headers);
    ctx.body = result.body;
  });
  return koa;
}
