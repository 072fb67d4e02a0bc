import type { components } from './generated/schema';

/** The error codes the API documents (`lib/errors.ts` on the server). */
export type LoomErrorCode = components['schemas']['Error']['error']['code'];

export type LoomErrorDetail = { path: string; problem: string };

/**
 * A failed answer of the API, from its error envelope `{ "error": { code, message, details?, request_id? } }`.
 * `code` is typed with the documented codes, yet stays a string: a newer server may answer codes this client does
 * not know, and an answer that is not an envelope (a proxy's 502 page) gets `HTTP_<status>`.
 */
export class LoomApiError extends Error {
  override readonly name = 'LoomApiError';
  readonly status: number;
  // `string & Record<never, never>` keeps the documented codes as suggestions without refusing other strings.
  readonly code: LoomErrorCode | (string & Record<never, never>);
  /** The answer's X-Request-Id: quote it when reporting a problem. */
  readonly requestId: string | undefined;
  readonly details: LoomErrorDetail[] | undefined;

  constructor(init: { status: number; code: string; message: string; requestId?: string; details?: LoomErrorDetail[] }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
  }

  /** Reads the envelope `body` (already parsed, or text) of a failed `response`. */
  static fromResponse(response: Response, body: unknown): LoomApiError {
    const envelope = errorEnvelopeOf(body);
    const requestId = envelope?.request_id ?? response.headers.get('x-request-id') ?? undefined;
    if (envelope) {
      return new LoomApiError({
        status: response.status,
        code: envelope.code,
        message: envelope.message,
        requestId,
        details: envelope.details,
      });
    }
    const text = typeof body === 'string' && body.trim() !== '' ? `: ${body.trim().slice(0, 200)}` : '';
    return new LoomApiError({
      status: response.status,
      code: `HTTP_${response.status}`,
      message: `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${text}`,
      requestId,
    });
  }
}

interface ErrorEnvelope {
  code: string;
  message: string;
  details?: LoomErrorDetail[];
  request_id?: string;
}

/** The `error` member of an error envelope, or null when `body` is something else. */
export function errorEnvelopeOf(body: unknown): ErrorEnvelope | null {
  if (typeof body !== 'object' || body === null) return null;
  const error = (body as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return null;
  const { code, message, details, request_id: requestId } = error as Record<string, unknown>;
  if (typeof code !== 'string' || typeof message !== 'string') return null;
  return {
    code,
    message,
    details: Array.isArray(details) ? (details as LoomErrorDetail[]) : undefined,
    request_id: typeof requestId === 'string' ? requestId : undefined,
  };
}

/**
 * The data of a call's answer, or a thrown `LoomApiError`. openapi-fetch answers `{ data, error, response }`
 * instead of throwing; most code wants the value or an exception:
 *
 *   const workflow = unwrap(await loom.POST('/api/v1/workflows', { body }));
 */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  // A failed answer with an empty body has neither data nor error: the status alone says it failed.
  if (result.error !== undefined || !result.response.ok) throw LoomApiError.fromResponse(result.response, result.error);
  return result.data as T;
}

/** Thrown by `waitForRun` when the run is still open at the deadline; `run` is the run as last seen. */
export class RunWaitTimeoutError extends Error {
  override readonly name = 'RunWaitTimeoutError';
  readonly run: components['schemas']['Run'];
  readonly timeoutMs: number;

  constructor(run: components['schemas']['Run'], timeoutMs: number) {
    super(`run ${run.id} is still ${run.status} after ${timeoutMs} ms`);
    this.run = run;
    this.timeoutMs = timeoutMs;
  }
}
