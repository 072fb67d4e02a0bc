import { guardedRequest, HttpClientError } from '../net/httpClient';
import { SsrfRefusedError, type SsrfGuard } from '../net/ssrfGuard';
import { EmbeddingProviderError } from './types';

const TIMEOUT_MS = 30_000;
/** A batch of 96 vectors of 8,192 floats as JSON stays well under this. */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** How a provider reaches its endpoint: POST JSON, answer parsed JSON, or throw EmbeddingProviderError. */
export type EmbeddingTransport = (url: string, body: unknown, apiKey: string | undefined) => Promise<unknown>;

/**
 * The transport of every network provider: through the outbound guard (lib/net/outbound.ts picks the guard:
 * tenant-configured endpoints get the tenant policy, the operator's global endpoint the operator's), connected to
 * the vetted address, no redirects, capped answer. Errors say what failed without the upstream's body or the
 * addresses a name resolved to, since search errors reach any member.
 */
export function guardedTransport(guard: SsrfGuard): EmbeddingTransport {
  return async (url, body, apiKey) => {
    let response: Awaited<ReturnType<typeof guardedRequest>>;
    try {
      response = await guardedRequest(guard, {
        url,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
        },
        body: JSON.stringify(body),
        timeoutMs: TIMEOUT_MS,
        maxResponseBytes: MAX_RESPONSE_BYTES,
        maxRedirects: 0,
      });
    } catch (err) {
      if (err instanceof SsrfRefusedError) throw new EmbeddingProviderError(`embedding endpoint refused: ${err.message}`);
      const why = err instanceof HttpClientError ? err.code.toLowerCase().replace(/_/g, ' ') : 'unreachable';
      throw new EmbeddingProviderError(`embedding endpoint ${displayUrl(url)} failed: ${why}`);
    }
    if (response.status >= 300) {
      throw new EmbeddingProviderError(`embedding endpoint ${displayUrl(url)} answered HTTP ${response.status}`);
    }
    try {
      return JSON.parse(response.body.toString('utf8')) as unknown;
    } catch {
      throw new EmbeddingProviderError(`embedding endpoint ${displayUrl(url)} answered non-JSON`);
    }
  };
}

/** A transport for specs that name no network provider: reaching it is a programming error. */
export const noTransport: EmbeddingTransport = async () => {
  throw new EmbeddingProviderError('this embedding provider has no network transport configured');
};

/** The URL without query or userinfo, for messages. */
function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return 'URL';
  }
}

export function checkVectors(vectors: unknown, count: number, dimensions: number, url: string): number[][] {
  const where = displayUrl(url);
  if (!Array.isArray(vectors) || vectors.length !== count) {
    throw new EmbeddingProviderError(`embedding endpoint ${where} returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${count} inputs`);
  }
  for (const vector of vectors) {
    if (!Array.isArray(vector) || !vector.every((v) => typeof v === 'number' && Number.isFinite(v))) {
      throw new EmbeddingProviderError(`embedding endpoint ${where} returned a malformed vector`);
    }
    if (vector.length !== dimensions) {
      throw new EmbeddingProviderError(
        `embedding endpoint ${where} returned ${vector.length} dimensions, ${dimensions} declared for the model`,
      );
    }
  }
  return vectors as number[][];
}

export function batches<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
