import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../../lib/logger';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Gives each request an id (the caller's X-Request-Id when it is sane) and a child logger; logs one line per
 * request with status and latency, and the organization and user once authentication has resolved them.
 */
export function requestContext(logger: Logger, onDone?: (ctx: Context, ms: number) => void) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const given = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    // Handlers get ctx.state.log, which authentication enriches with user and organization (api/http/requestLog.ts);
    // the request line below is written with this base logger and adds those fields itself.
    const log = logger.child({ requestId });
    ctx.state.log = log;
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const principal = ctx.state.principal as { userId?: string; apiKeyId?: string } | null | undefined;
      log.info(
        {
          method: ctx.method,
          path: ctx.path,
          route: ctx._matchedRoute,
          status: ctx.status,
          ms: Math.round(ms * 100) / 100,
          organizationId: ctx.state.organizationId ?? null,
          userId: principal?.userId ?? null,
          apiKeyId: principal?.apiKeyId ?? null,
        },
        'request',
      );
      onDone?.(ctx, ms);
    }
  };
}
