import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import { runWithLogContext } from '../../lib/logContext';
import type { Logger } from '../../lib/logger';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Gives each request an id (the caller's X-Request-Id when it is sane) and a log context: every line logged while
 * the request is handled, by any logger, carries `requestId`, and the organization and user once authentication
 * has resolved them (lib/logContext.ts, api/http/requestLog.ts). Logs one line per request with status and latency.
 */
export function requestContext(logger: Logger, onDone?: (ctx: Context, ms: number) => void) {
  // The request line holds only the scalars written below (never a header, body or token), so it skips the
  // logger's redaction pass, which costs more than the rest of the line (docs/benchmarks.md, auth path). Every
  // other line, including handlers' through ctx.state.log, keeps it.
  const requestLog = logger.child({}, { redact: { paths: [] } });
  return async (ctx: Context, next: Next): Promise<void> => {
    const given = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = logger;
    ctx.set('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    await runWithLogContext({ requestId }, async () => {
      try {
        await next();
      } finally {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        // organizationId, userId / apiKeyId come from the log context once authentication has set them.
        requestLog.info(
          {
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
    });
  };
}
