/**
 * Recognises errors that mean "a backing service (PostgreSQL, Temporal, MinIO, SMTP) cannot be reached right now",
 * so the API can answer 503 instead of 500.
 */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

export class ServiceUnavailableError extends Error {
  constructor(
    readonly service: string,
    message: string,
  ) {
    super(message);
    this.name = 'ServiceUnavailableError';
  }
}

export function isUnavailableError(err: unknown): boolean {
  if (err instanceof ServiceUnavailableError) return true;
  if (!err || typeof err !== 'object') return false;
  const e = err as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string') {
    if (NETWORK_CODES.has(e.code)) return true;
    // PostgreSQL: connection exceptions (08xxx), shutdown (57P0x), too many connections (53300).
    if (/^08/.test(e.code) || /^57P0/.test(e.code) || e.code === '53300') return true;
  }
  if (e.name === 'KnexTimeoutError') return true;
  if (e.name === 'ServiceError' || e.name === 'ConnectionError') return true; // Temporal client, gRPC unavailable
  if (typeof e.message === 'string' && /Connection terminated|connect ECONNREFUSED|UNAVAILABLE/.test(e.message)) {
    return true;
  }
  if (Array.isArray(e.errors) && e.errors.some(isUnavailableError)) return true; // AggregateError from net
  return e.cause !== undefined && e.cause !== err && isUnavailableError(e.cause);
}
