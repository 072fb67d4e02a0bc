/**
 * The answer a `respond` node gives the sender of the webhook that started its run (zod-free: workflow code and
 * validation read it). The answer is served from the API's own origin, so what a tenant may put in it is narrow:
 * content types a browser never runs (no HTML, SVG, XML or script), and headers that cannot set cookies, redirect,
 * or loosen the origin's policies. The ingress adds `X-Content-Type-Options: nosniff` and a sandboxing CSP.
 */

export const RESPOND_CONTENT_TYPES = ['application/json', 'text/plain', 'text/csv'] as const;
export type RespondContentType = (typeof RESPOND_CONTENT_TYPES)[number];

/** Header names a respond node may set, besides `x-` headers that are not security headers. */
const NAMED_HEADERS = new Set(['cache-control', 'content-language', 'retry-after', 'etag', 'last-modified', 'expires', 'vary']);
const CUSTOM_HEADER = /^x-[a-z0-9][a-z0-9-]{0,62}$/;
const RESERVED_CUSTOM = new Set(['x-frame-options', 'x-content-type-options', 'x-xss-protection', 'x-request-id', 'x-loom-run-id', 'x-powered-by']);

export const MAX_RESPOND_HEADERS = 20;
export const MAX_RESPOND_HEADER_CHARS = 1000;

/** Why a header name is refused (null: allowed). Names are compared lower-cased. */
export function respondHeaderProblem(name: string): string | null {
  const lower = name.toLowerCase();
  if (NAMED_HEADERS.has(lower)) return null;
  if (CUSTOM_HEADER.test(lower) && !RESERVED_CUSTOM.has(lower)) return null;
  return `not a header a respond node may set: use x-<name> headers or one of ${[...NAMED_HEADERS].join(', ')} (the content type is content_type)`;
}

/** A header value as rendered: one line of visible text, bounded. */
export function respondHeaderValueProblem(value: unknown): string | null {
  if (typeof value !== 'string') return 'a header value is text';
  if (value.length > MAX_RESPOND_HEADER_CHARS) return `at most ${MAX_RESPOND_HEADER_CHARS} characters`;
  if (/[\r\n\0]/.test(value) || /[^\t\x20-\x7e\x80-\uffff]/.test(value)) return 'one line of text: no line breaks or control characters';
  return null;
}

export interface WebhookResponse {
  status: number;
  contentType: RespondContentType;
  headers: Record<string, string>;
  /** The body as sent: JSON for application/json, else text. */
  body: unknown;
}
