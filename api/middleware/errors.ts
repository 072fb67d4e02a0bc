import type { Context, Next } from 'koa';
import { AppError, envelope } from '../../lib/errors';
import { isUnavailableError } from '../../lib/unavailable';
import { requestIdOf } from '../http/requestLog';

/**
 * First in the chain: every failure leaves as the error envelope. Known errors keep their code; HTTP errors thrown
 * by Koa or its parsers are mapped by status; backing services that are down give 503; anything else is a 500 with
 * a generic message (the details go to the log, never to the client).
 */
/**
 * PostgreSQL's refusals of a value for its column: too long (22001), out of range (22003, 22008, 22009: a time zone
 * offset), not of the type (22007, 22P02). Schemas and checks refuse such input first with a precise message; this is the net under them, so
 * a check that is missing answers 400 and not 500. Each one caught here is logged as a gap to close.
 */
const VALUE_REFUSED_BY_COLUMN = new Set(['22001', '22003', '22007', '22008', '22009', '22P02']);

function pgCodeOf(err: unknown): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isUnavailableError(err)) {
    return new AppError('SERVICE_UNAVAILABLE', 'a backing service is unavailable, retry shortly');
  }
  // PostgreSQL refuses NUL characters in text (22021) and jsonb (22P05): the client's input, not a server fault.
  const pgCode = pgCodeOf(err);
  if (pgCode === '22021' || pgCode === '22P05') {
    return new AppError('VALIDATION_ERROR', 'text may not contain NUL (\\u0000) characters');
  }
  if (pgCode !== null && VALUE_REFUSED_BY_COLUMN.has(pgCode)) {
    return new AppError('VALIDATION_ERROR', 'a value in the request does not fit its field (too long, out of range or malformed)');
  }
  const status = (err as { status?: unknown; statusCode?: unknown })?.status ?? (err as { statusCode?: unknown })?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) return new AppError('PAYLOAD_TOO_LARGE', 'request body too large');
    if (status === 415) return new AppError('UNSUPPORTED_MEDIA_TYPE', 'unsupported content type');
    if (status === 404) return new AppError('NOT_FOUND', 'not found');
    if (status === 405) return new AppError('METHOD_NOT_ALLOWED', 'method not allowed');
    if (status === 401) return new AppError('UNAUTHORIZED', 'missing authorization');
    if (status === 403) return new AppError('FORBIDDEN', 'forbidden');
    const message = (err as { expose?: boolean; message?: string }).expose ? String((err as Error).message) : 'bad request';
    return new AppError('VALIDATION_ERROR', message);
  }
  return new AppError('INTERNAL_ERROR', 'internal error');
}

/**
 * RFC 6750 challenge for a 401: which scheme to use, and `error="invalid_token"` when the caller sent a credential
 * that failed (`invalid_request` when the Authorization header is not `Bearer <token>`), so clients know to refresh
 * or re-authenticate instead of retrying.
 */
export function bearerChallenge(ctx: Context): string {
  const authorization = ctx.get('authorization');
  if (authorization) {
    return /^Bearer [^\s]+$/.test(authorization)
      ? 'Bearer realm="loom", error="invalid_token"'
      : 'Bearer realm="loom", error="invalid_request"';
  }
  if (ctx.get('x-api-key')) return 'Bearer realm="loom", error="invalid_token"';
  return 'Bearer realm="loom"';
}

/** A path that exists, asked with a method it does not answer: 405 with Allow (when known). */
export function methodNotAllowedError(method: string, path: string, allow: string): AppError {
  return new AppError(
    'METHOD_NOT_ALLOWED',
    `${method} is not allowed on ${path}${allow ? `; allowed: ${allow}` : ''}`,
    undefined,
    allow ? { Allow: allow } : undefined,
  );
}

/** The router answered 405 (or 501 for a method it does not know) for a path that exists: say so, with Allow. */
function methodNotAllowed(ctx: Context): AppError {
  return methodNotAllowedError(ctx.method, ctx.path, ctx.response.get('Allow'));
}

export function errorMiddleware() {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        if (ctx.status === 404) throw new AppError('NOT_FOUND', `no route for ${ctx.method} ${ctx.path}`);
        if (ctx.status === 405 || ctx.status === 501) throw methodNotAllowed(ctx);
      }
    } catch (err) {
      const appError = toAppError(err);
      if (appError.status >= 500) {
        ctx.state.log?.error({ err }, 'request failed');
      } else if (VALUE_REFUSED_BY_COLUMN.has(pgCodeOf(err) ?? '')) {
        ctx.state.log?.warn({ err }, 'a value reached the database unchecked (answered 400): add a check for it');
      }
      ctx.status = appError.status;
      if (appError.headers) ctx.set(appError.headers);
      if (appError.status === 401 && !ctx.response.get('WWW-Authenticate')) {
        ctx.set('WWW-Authenticate', bearerChallenge(ctx));
      }
      ctx.body = envelope(appError, requestIdOf(ctx));
    }
  };
}
