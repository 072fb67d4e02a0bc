import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { SsrfGuard, VettedTarget } from './ssrfGuard';

/**
 * An HTTP client for requests made on behalf of users: every hop (redirects included) is vetted by the SSRF guard
 * and connected to the vetted address; the whole exchange has a deadline; response bodies are capped; redirects
 * are followed manually (limit, and 303 / 301-302 on POST turn into GET without a body). Throws HttpClientError.
 */

export class HttpClientError extends Error {
  constructor(
    readonly code: 'TIMEOUT' | 'RESPONSE_TOO_LARGE' | 'TOO_MANY_REDIRECTS' | 'CONNECTION_FAILED' | 'ABORTED',
    message: string,
  ) {
    super(message);
    this.name = 'HttpClientError';
  }
}

export interface GuardedRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
  maxResponseBytes: number;
  maxRedirects: number;
  signal?: AbortSignal;
}

export interface GuardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** the final URL after redirects */
  url: string;
  redirects: number;
}

/** A `lookup` that answers the vetted address whatever name is asked: no second DNS resolution. */
export function pinnedLookup(target: VettedTarget): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as unknown as LookupFunction;
}

function once(
  target: VettedTarget,
  req: { method: string; headers: Record<string, string>; body?: string | Buffer },
  maxBytes: number,
  signal: AbortSignal,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const transport = target.url.protocol === 'https:' ? https : http;
    const request = transport.request(
      target.url,
      {
        method: req.method,
        headers: req.headers,
        lookup: pinnedLookup(target),
        // Keep-alive agents could reuse a socket to a different vetted address.
        agent: false,
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const declared = Number(res.headers['content-length'] ?? 0);
        if (declared > maxBytes) {
          res.destroy();
          reject(new HttpClientError('RESPONSE_TOO_LARGE', `response larger than ${maxBytes} bytes`));
          return;
        }
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            res.destroy();
            reject(new HttpClientError('RESPONSE_TOO_LARGE', `response larger than ${maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', (err) => reject(err));
      },
    );
    request.on('error', (err) => reject(err));
    if (req.body !== undefined) request.write(req.body);
    request.end();
  });
}

export async function guardedRequest(guard: SsrfGuard, input: GuardedRequest): Promise<GuardedResponse> {
  const deadline = AbortSignal.timeout(input.timeoutMs);
  const signal = input.signal ? AbortSignal.any([deadline, input.signal]) : deadline;
  let url = input.url;
  let method = (input.method ?? 'GET').toUpperCase();
  let body = input.body;
  let headers = { ...(input.headers ?? {}) };
  for (let redirects = 0; ; redirects++) {
    const target = await guard.vet(url);
    let res: { status: number; headers: IncomingHttpHeaders; body: Buffer };
    try {
      res = await once(target, { method, headers, body }, input.maxResponseBytes, signal);
    } catch (err) {
      if (err instanceof HttpClientError) throw err;
      if (deadline.aborted) throw new HttpClientError('TIMEOUT', `no complete answer within ${input.timeoutMs} ms`);
      if (signal.aborted) throw new HttpClientError('ABORTED', 'request aborted');
      throw new HttpClientError('CONNECTION_FAILED', `${target.hostname}: ${(err as Error).message}`);
    }
    const location = res.headers.location;
    if (res.status >= 300 && res.status < 400 && res.status !== 304 && location) {
      if (redirects >= input.maxRedirects) {
        throw new HttpClientError('TOO_MANY_REDIRECTS', `more than ${input.maxRedirects} redirects`);
      }
      const next = new URL(location, target.url);
      if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !/^content-(type|length)$/i.test(k)));
      }
      // Credentials never follow a redirect to another origin.
      if (next.origin !== target.url.origin) {
        headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !/^(authorization|cookie)$/i.test(k)));
      }
      url = next.toString();
      continue;
    }
    return { ...res, url, redirects };
  }
}
