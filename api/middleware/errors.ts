import type { Context, Next } from 'koa';
import { AppError, envelope } from '../../lib/errors';
import { isUnavailableError } from '../../lib/unavailable';

/**
 * First in the chain: every failure leaves as the error envelope. Known errors keep their code; HTTP errors thrown
 * by Koa or its parsers are mapped by status; backing services that are down give 503; anything else is a 500 with
 * a generic message (the details go to the log, never to the client).
 */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isUnavailableError(err)) {
    return new AppError('SERVICE_UNAVAILABLE', 'a backing service is unavailable, retry shortly');
  }
  // PostgreSQL refuses NUL characters in text (22021) and jsonb (22P05): the client's input, not a server fault.
  const pgCode = (err as { code?: unknown } | null)?.code;
  if (pgCode === '22021' || pgCode === '22P05') {
    return new AppError('VALIDATION_ERROR', 'text may not contain NUL (\\u0000) characters');
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

export function errorMiddleware() {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError('NOT_FOUND', `no route for ${ctx.method} ${ctx.path}`);
      }
    } catch (err) {
      const appError = toAppError(err);
      if (appError.status >= 500) {
        ctx.state.log?.error({ err }, 'request failed');
      }
      ctx.status = appError.status;
      if (appError.headers) ctx.set(appError.headers);
      ctx.body = envelope(appError);
    }
  };
}
