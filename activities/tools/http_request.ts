import { failForStatus, toolHttp } from './support/net';
import { defineTool, NonRetryableToolError } from './types';

interface HttpInput {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  headers?: Record<string, string>;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  timeout_ms?: number;
  response_type?: 'auto' | 'json' | 'text' | 'base64';
  fail_on_error_status?: boolean;
  idempotency_key?: boolean;
}

/**
 * HTTP request to a public address (SSRF guard: private, loopback, link-local, metadata and similar addresses are
 * refused unless allowlisted in TOOLS_HTTP_ALLOWED_HOSTS; redirects are re-checked). Timeout and response size are
 * capped by configuration. Non-GET requests carry `Idempotency-Key: <run>:<node>` so a retried attempt can be
 * recognised by services that support it.
 */
export default defineTool<HttpInput, { status: number; headers: Record<string, string>; body: unknown; url: string }>({
  id: 'http_request',
  name: 'HTTP request',
  category: 'http',
  description:
    'Sends an HTTP request. Objects in `body` are sent as JSON. The response `body` is parsed as JSON when the ' +
    'content type says so (`response_type` auto), else text (or base64). 5xx/429 fail retryably, other 4xx fail ' +
    'without retry, unless `fail_on_error_status` is false. Private and metadata addresses are refused.',
  inputSchema: {
    type: 'object',
    required: ['url'],
    additionalProperties: false,
    properties: {
      url: { type: 'string', minLength: 1, maxLength: 8192 },
      method: { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] },
      headers: { type: 'object', additionalProperties: { type: 'string' } },
      query: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
      body: {},
      timeout_ms: { type: 'integer', minimum: 100, maximum: 600_000 },
      response_type: { enum: ['auto', 'json', 'text', 'base64'] },
      fail_on_error_status: { type: 'boolean' },
      idempotency_key: { type: 'boolean' },
    },
  },
  outputSchema: {
    type: 'object',
    required: ['status', 'headers', 'body', 'url'],
    properties: { status: { type: 'integer' }, headers: { type: 'object' }, body: {}, url: { type: 'string' } },
  },
  sideEffect: 'idempotent',
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
    let parsed: unknown = text;
    if (kind === 'base64') parsed = res.body.toString('base64');
    else if (kind === 'json' || (kind === 'auto' && /\bjson\b/i.test(contentType))) {
      try {
        parsed = text ? (JSON.parse(text) as unknown) : null;
      } catch {
        parsed = text;
      }
    }
    const flatHeaders: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flatHeaders[k] = Array.isArray(v) ? v.join(', ') : v;
    return { status: res.status, headers: flatHeaders, body: parsed, url: res.url };
  },
});
