import { z } from 'zod';
import { createCohereCompatibleProvider } from './cohereCompatible';
import { createLexicalHashProvider, DEFAULT_LEXICAL_DIMENSIONS } from './lexicalHash';
import { createOpenAiCompatibleProvider } from './openaiCompatible';
import { noTransport, type EmbeddingTransport } from './http';
import type { EmbeddingProvider, EmbeddingProviderSpec } from './types';
import { createWordVectorProvider } from './wordVectorEmbedder';

export * from './types';
export { builtInProviderOf, kindOfModel } from './builtIn';
export { guardedTransport, type EmbeddingTransport } from './http';
export { createLexicalHashProvider, lexicalHashEmbedding, lexicalHashModel, DEFAULT_LEXICAL_DIMENSIONS } from './lexicalHash';
export { createWordVectorProvider, WORD_VECTOR_MODEL, WORD_VECTOR_DIMENSIONS } from './wordVectorEmbedder';

/**
 * The provider an organization uses: its third-party integration `embeddings` (organization settings,
 * `integration.thirdParty.embeddings`, set with PUT /api/v1/organizations/{id}/settings) when present and enabled,
 * else the global configuration. Its `config` holds `provider` (semantic | lexical | openai | cohere), `baseUrl`, `model` and
 * `dimensions` (strings, as the settings store them); its `secrets.apiKey` is the sealed API key.
 */
export const embeddingIntegrationSchema = z.object({
  enabled: z.boolean().optional(),
  config: z.object({
    provider: z.enum(['semantic', 'lexical', 'openai', 'cohere']),
    baseUrl: z.string().url().optional(),
    model: z.string().min(1).max(200).optional(),
    dimensions: z.coerce.number().int().min(1).max(8192).optional(),
  }),
  secrets: z.record(z.string(), z.unknown()).optional(),
});

/** `transport` carries network providers' requests (guardedTransport: through the outbound policy). */
export function createEmbeddingProvider(spec: EmbeddingProviderSpec, transport: EmbeddingTransport = noTransport): EmbeddingProvider {
  switch (spec.provider) {
    case 'openai':
      return createOpenAiCompatibleProvider({ ...spec, transport });
    case 'cohere':
      return createCohereCompatibleProvider({ ...spec, transport });
    case 'lexical':
      return createLexicalHashProvider(spec.dimensions ?? DEFAULT_LEXICAL_DIMENSIONS);
    case 'semantic':
      return createWordVectorProvider();
  }
}

/**
 * Reads an organization's settings (jsonb) for its embedding integration; falls back to the global spec.
 * `openSecret` turns the stored (sealed) API key into the plain value.
 */
export function resolveEmbeddingSpec(
  globalSpec: EmbeddingProviderSpec,
  organizationSettings: unknown,
  openSecret: (sealed: unknown) => string | undefined = () => undefined,
): EmbeddingProviderSpec {
  const candidate = (organizationSettings as { integration?: { thirdParty?: { embeddings?: unknown } } } | null)?.integration
    ?.thirdParty?.embeddings;
  const parsed = embeddingIntegrationSchema.safeParse(candidate);
  if (!parsed.success || parsed.data.enabled === false) return globalSpec;
  const apiKey = parsed.data.secrets?.apiKey;
  return { ...parsed.data.config, apiKey: apiKey === undefined ? undefined : openSecret(apiKey) };
}
