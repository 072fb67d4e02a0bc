import type { Context, Next } from 'koa';

/**
 * Headers every response carries, set before anything else runs so errors, "no route" answers, static pages and
 * metrics have them too:
 * - `X-Content-Type-Options: nosniff`: a browser never reinterprets a JSON error or an uploaded file as HTML/script.
 * - `Cache-Control: no-store` as the default: API answers hold tokens, keys shown once, secrets and tenant data that
 *   no shared or browser cache should keep. A route that may be cached sets its own Cache-Control (docs assets,
 *   content downloads, run pictures), which replaces this default.
 */
export function securityHeaders() {
  return async (ctx: Context, next: Next): Promise<void> => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'no-store');
    await next();
  };
}
