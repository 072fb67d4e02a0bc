import { EmbeddingProviderError } from './types';

const TIMEOUT_MS = 30_000;

/** POSTs JSON to an embedding endpoint; every failure becomes an EmbeddingProviderError with a useful message. */
export async function postJson(url: string, body: unknown, apiKey: string | undefined): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (err) {
    throw new EmbeddingProviderError(`embedding endpoint ${url} unreachable: ${(err as Error).message}`);
  }
  const text = await response.text();
  if (!response.ok) {
    throw new EmbeddingProviderError(`embedding endpoint ${url} answered ${response.status}: ${text.slice(0, 300)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new EmbeddingProviderError(`embedding endpoint ${url} answered non-JSON`);
  }
}

export function checkVectors(vectors: unknown, count: number, dimensions: number, url: string): number[][] {
  if (!Array.isArray(vectors) || vectors.length !== count) {
    throw new EmbeddingProviderError(`embedding endpoint ${url} returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${count} inputs`);
  }
  for (const vector of vectors) {
    if (!Array.isArray(vector) || !vector.every((v) => typeof v === 'number' && Number.isFinite(v))) {
      throw new EmbeddingProviderError(`embedding endpoint ${url} returned a malformed vector`);
    }
    if (vector.length !== dimensions) {
      throw new EmbeddingProviderError(
        `embedding endpoint ${url} returned ${vector.length} dimensions, ${dimensions} declared for the model`,
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
