import { batches, checkVectors, type EmbeddingTransport } from './http';
import type { EmbeddingProvider } from './types';

/**
 * Endpoints speaking Cohere's embed protocol: `POST {baseUrl}/embed` with `texts`, `input_type` and
 * `embedding_types`. Both answer shapes are read: v2 (`embeddings.float`) and v1 (`embeddings` as a list).
 */
export const COHERE_DEFAULTS = { baseUrl: 'https://api.cohere.com/v2', model: 'embed-english-v3.0', dimensions: 1024 };
const BATCH = 96;

export function createCohereCompatibleProvider(options: {
  baseUrl?: string;
  model?: string;
  dimensions?: number;
  apiKey?: string;
  transport: EmbeddingTransport;
}): EmbeddingProvider {
  const baseUrl = (options.baseUrl ?? COHERE_DEFAULTS.baseUrl).replace(/\/+$/, '');
  const model = options.model ?? COHERE_DEFAULTS.model;
  const dimensions = options.dimensions ?? COHERE_DEFAULTS.dimensions;
  const url = `${baseUrl}/embed`;
  return {
    kind: 'cohere',
    model,
    dimensions,
    async embed(texts, purpose) {
      const out: number[][] = [];
      for (const batch of batches(texts, BATCH)) {
        const answer = (await options.transport(
          url,
          {
            model,
            texts: batch,
            input_type: purpose === 'query' ? 'search_query' : 'search_document',
            embedding_types: ['float'],
          },
          options.apiKey,
        )) as { embeddings?: unknown };
        const embeddings = answer?.embeddings;
        const vectors = Array.isArray(embeddings) ? embeddings : (embeddings as { float?: unknown } | undefined)?.float;
        out.push(...checkVectors(vectors, batch.length, dimensions, url));
      }
      return out;
    },
  };
}
