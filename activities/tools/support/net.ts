import type { Config } from '../../../lib/config';
import { guardedRequest, HttpClientError, type GuardedRequest, type GuardedResponse } from '../../../lib/net/httpClient';
import { outboundGuards } from '../../../lib/net/outbound';
import { SsrfRefusedError, type SsrfGuard } from '../../../lib/net/ssrfGuard';
import { NonRetryableToolError, type ToolContext } from '../types';

/** Network access of tools: the outbound policy's guards (lib/net/outbound.ts), errors mapped to retryable or not. */

export function toolGuard(deps: { config: Config }): SsrfGuard {
  return outboundGuards(deps.config).tools;
}

/** A retryable failure with a code (Temporal retries it; the code shows in run errors). */
export function retryable(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

export async function toolHttp(
  ctx: Pick<ToolContext, 'deps' | 'signal'>,
  request: Omit<GuardedRequest, 'timeoutMs' | 'maxResponseBytes' | 'maxRedirects'> &
    Partial<Pick<GuardedRequest, 'timeoutMs' | 'maxResponseBytes' | 'maxRedirects'>>,
  /** `operator`: a destination the operator configured (global LLM endpoint); tenant destinations use `tools`. */
  trust: 'tools' | 'operator' = 'tools',
): Promise<GuardedResponse> {
  const limits = ctx.deps.config.tools.http;
  try {
    return await guardedRequest(outboundGuards(ctx.deps.config)[trust], {
      ...request,
      timeoutMs: Math.min(request.timeoutMs ?? limits.timeoutMs, limits.timeoutMs),
      maxResponseBytes: Math.min(request.maxResponseBytes ?? limits.maxResponseBytes, limits.maxResponseBytes),
      maxRedirects: Math.min(request.maxRedirects ?? limits.maxRedirects, limits.maxRedirects),
      signal: ctx.signal,
    });
  } catch (err) {
    if (err instanceof SsrfRefusedError) throw new NonRetryableToolError('URL_REFUSED', err.message);
    if (err instanceof HttpClientError) {
      if (err.code === 'RESPONSE_TOO_LARGE' || err.code === 'TOO_MANY_REDIRECTS') {
        throw new NonRetryableToolError(err.code, err.message);
      }
      throw retryable(err.code === 'TIMEOUT' ? 'HTTP_TIMEOUT' : 'HTTP_CONNECTION_FAILED', err.message);
    }
    const e = err as { code?: string; message?: string };
    throw retryable(e.code === 'DNS_FAILED' ? 'DNS_FAILED' : 'HTTP_CONNECTION_FAILED', e.message ?? String(err));
  }
}

/** 5xx and 429 are worth retrying; other 4xx are not. */
export function failForStatus(status: number, body: string, what: string): void {
  if (status < 400) return;
  const snippet = body.length > 300 ? `${body.slice(0, 300)}...` : body;
  const message = `${what} answered ${status}: ${snippet}`;
  if (status >= 500 || status === 429 || status === 408) throw retryable(`HTTP_${status}`, message);
  throw new NonRetryableToolError(`HTTP_${status}`, message);
}
