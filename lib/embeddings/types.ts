/**
 * One interface for every embedding provider. A provider names its model and declares its dimension; that pair
 * travels with every vector it makes, and a query is embedded by the provider whose model made the vectors.
 */
export type EmbeddingPurpose = 'document' | 'query';

export interface EmbeddingProvider {
  /** The model identifier stored with each vector (e.g. `lexical-hash-384-v2`, `text-embedding-3-small`). */
  readonly model: string;
  readonly dimensions: number;
  /** `semantic` (built in, offline word vectors), `lexical` (built in, offline hashing), `openai` or `cohere` (any endpoint speaking that protocol). */
  readonly kind: EmbeddingProviderKind;
  embed(texts: string[], purpose: EmbeddingPurpose): Promise<number[][]>;
}

export type EmbeddingProviderKind = 'semantic' | 'lexical' | 'openai' | 'cohere';

/** How to build a provider: from the global configuration or an organization's integration settings. */
export interface EmbeddingProviderSpec {
  provider: EmbeddingProviderKind;
  baseUrl?: string;
  model?: string;
  dimensions?: number;
  apiKey?: string;
}

/** An external endpoint failed or answered something unusable; the message is safe to show to the caller. */
export class EmbeddingProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EmbeddingProviderError';
  }
}
