import { z } from 'zod';
import { encodeBase64 } from '../../lib/largeBytes';
import type { SerializedJson } from '../../lib/serializedJson';
import { failForStatus, toolHttp } from './support/net';
import { parseForTool } from './support/parsing';
import { defineTool, NonRetryableToolError } from './types';

/**
 * HTTP request to a public address (SSRF guard: private, loopback, link-local, metadata and similar addresses are
 * refused unless allowlisted in TOOLS_HTTP_ALLOWED_HOSTS; redirects are re-checked). Timeout and response size are
 * capped by configuration. Non-GET requests carry `Idempotency-Key: <run>:<node>` so a retried attempt can be
 * recognised by services that support it.
 */
export default defineTool({
  id: 'http_request',
  name: 'HTTP request',
  category: 'http',
  description:
    'Sends an HTTP request. Objects in `body` are sent as JSON. The response `body` is parsed as JSON when the ' +
    'content type says so (`response_type` auto), else text (or base64). 5xx/429 fail retryably, other 4xx fail ' +
    'without retry, unless `fail_on_error_status` is false. Private and metadata addresses are refused.',
  input: z.strictObject({
    url: z.string().min(1).max(8192),
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).optional(),
    headers: z.record(z.string(), z.string()).optional(),
    query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    body: z.unknown().optional(),
    timeout_ms: z.int().min(100).max(600_000).optional(),
    response_type: z.enum(['auto', 'json', 'text', 'base64']).optional(),
    fail_on_error_status: z.boolean().optional(),
    idempotency_key: z.boolean().optional(),
  }),
  output: z.object({ status: z.int(), headers: z.record(z.string(), z.string()), body: z.unknown(), url: z.string() }),
  sideEffect: 'idempotent',
  // Credentials go in headers (the outbound policy refuses a URL with user information); never in the body, the
  // path or the query, which servers and the output's `url` echo.
  secretFields: ['headers.*'],
  async execute(input, ctx) {
    const method = input.method ?? (input.body === undefined ? 'GET' : 'POST');
    let url: URL;
    try {
      url = new URL(input.url);
    } catch {
      throw new NonRetryableToolError('INVALID_URL', `not a URL: ${input.url.slice(0, 200)}`);
    }
    for (const [k, v] of Object.entries(input.query ?? {})) url.searchParams.append(k, String(v));
    const headers: Record<string, string> = { ...(input.headers ?? {}) };
    const lower = new Set(Object.keys(headers).map((h) => h.toLowerCase()));
    let body: string | Buffer | undefined;
    if (input.body !== undefined && input.body !== null && method !== 'GET' && method !== 'HEAD') {
      if (typeof input.body === 'string') body = input.body;
      else {
        body = JSON.stringify(input.body);
        if (!lower.has('content-type')) headers['content-type'] = 'application/json';
      }
    }
    if (method !== 'GET' && method !== 'HEAD' && input.idempotency_key !== false && !lower.has('idempotency-key')) {
      headers['idempotency-key'] = ctx.idempotencyKey;
    }
    const res = await toolHttp(ctx, { url: url.toString(), method, headers, body, timeoutMs: input.timeout_ms });
    const text = res.body.toString('utf8');
    if (input.fail_on_error_status !== false) failForStatus(res.status, text, url.host);
    const contentType = String(res.headers['content-type'] ?? '');
    const kind = input.response_type ?? 'auto';
    const flatHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flatHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
    const output = (body: unknown) => ({ status: res.status, headers: flatHeaders, body, url: res.url });
    if (kind === 'base64') return output(await encodeBase64(res.body));
    if (kind === 'json' || (kind === 'auto' && /\bjson\b/i.test(contentType))) {
      if (!text) return output(null);
      try {
        // A large body (5 MB of JSON: 100-200 ms of JSON.parse) is parsed off the worker's event loop.
        return (await parseForTool({ format: 'json', text: res.body, options: {} }, ctx.organizationId, {
          wrap: 'body',
          around: { status: res.status, headers: flatHeaders, url: res.url },
        })) as ReturnType<typeof output> | SerializedJson;
      } catch (err) {
        if (!(err instanceof NonRetryableToolError && err.code === 'INVALID_JSON')) throw err;
        // Not JSON after all: the text, as before.
      }
    }
    return output(text);
  },
});
