import type { Context } from 'koa';
import type { RequestMeta } from '../../domain/principals';

/** The request's client address and user agent, the plain value services take instead of `ctx`. */
export function requestMetaOf(ctx: Context): RequestMeta {
  return { ip: ctx.ip, userAgent: ctx.get('user-agent') || null };
}
