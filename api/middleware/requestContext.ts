import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../../lib/logger';
import { RequestLog, RequestState } from '../http/requestLog';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Gives each request an id (the caller's X-Request-Id when it is sane) and a log context: lines logged through
 * `ctx.state.log` carry `requestId`, and the organization and user once authentication has resolved them
 * (api/http/requestLog.ts). Logs one line per request with status and latency.
 */
export function requestContext(logger: Logger, onDone?: (ctx: Context, ms: number) => void) {
  // The request line holds only the scalars written below (never a header, body or token), so it skips the
  // logger's redaction pass, which costs more than the rest of the line (docs/benchmarks.md, auth path). Every
  // other line, including handlers' through ctx.state.log, keeps it.
  const requestLog = logger.child({}, { redact: { paths: [] } });
  return async (ctx: Context, next: Next): Promise<void> => {
    const given = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(given) ? given : randomUUID();
    const log = new RequestLog(logger, { requestId });
    ctx.state = new RequestState(log);
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      const { userId, apiKeyId, organizationId } = log.fields;
      requestLog.info(
        {
          requestId,
          userId,
          apiKeyId,
          organizationId,
          method: ctx.method,
          path: ctx.path,
          route: ctx._matchedRoute,
          status: ctx.status,
          ms: Math.round(ms * 100) / 100,
        },
        'request',
      );
      onDone?.(ctx, ms);
    }
  };
}
