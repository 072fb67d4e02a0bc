import { batches, checkVectors, type EmbeddingTransport } from './http';
import type { EmbeddingProvider } from './types';

/**
 * Any endpoint speaking OpenAI's `POST {baseUrl}/embeddings` (OpenAI itself, Azure-style proxies, Ollama's /v1,
 * vLLM, text-embeddings-inference). The declared dimension is checked against every answer.
 */
export const OPENAI_DEFAULTS = { baseUrl: 'https://api.openai.com/v1', model: 'text-embedding-3-small', dimensions: 1536 };
const BATCH = 64;

export function createOpenAiCompatibleProvider(options: {
  baseUrl?: string;
  model?: string;
  dimensions?: number;
  apiKey?: string;
  transport: EmbeddingTransport;
}): EmbeddingProvider {
  const baseUrl = (options.baseUrl ?? OPENAI_DEFAULTS.baseUrl).replace(/\/+$/, '');
  const model = options.model ?? OPENAI_DEFAULTS.model;
  const dimensions = options.dimensions ?? OPENAI_DEFAULTS.dimensions;
  const url = `${baseUrl}/embeddings`;
  return {
    kind: 'openai',
    model,
    dimensions,
    async embed(texts) {
      const out: number[][] = [];
      for (const batch of batches(texts, BATCH)) {
        const answer = (await options.transport(url, { model, input: batch, encoding_format: 'float' }, options.apiKey)) as {
          data?: { index?: number; embedding?: unknown }[];
        };
        const data = Array.isArray(answer?.data) ? [...answer.data] : [];
        // The protocol returns an index per item; order by it rather than trusting the array order.
        data.sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
        out.push(...checkVectors(data.map((d) => d.embedding), batch.length, dimensions, url));
      }
      return out;
    },
  };
}
