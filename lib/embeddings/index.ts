import { z } from 'zod';
import { createCohereCompatibleProvider } from './cohereCompatible';
import { createLexicalHashProvider, DEFAULT_LEXICAL_DIMENSIONS } from './lexicalHash';
import { createOpenAiCompatibleProvider } from './openaiCompatible';
import type { EmbeddingProvider, EmbeddingProviderSpec } from './types';

export * from './types';
export { createLexicalHashProvider, lexicalHashEmbedding, DEFAULT_LEXICAL_DIMENSIONS } from './lexicalHash';

/**
 * The provider an organization uses: its own choice in `settings.integration.embeddings` when present and valid,
 * else the global configuration. See docs/content.md.
 */
export const embeddingSettingsSchema = z.object({
  provider: z.enum(['lexical', 'openai', 'cohere']),
  baseUrl: z.string().url().optional(),
  model: z.string().min(1).max(200).optional(),
  dimensions: z.number().int().min(1).max(8192).optional(),
  apiKey: z.string().optional(),
});

export function createEmbeddingProvider(spec: EmbeddingProviderSpec): EmbeddingProvider {
  switch (spec.provider) {
    case 'openai':
      return createOpenAiCompatibleProvider(spec);
    case 'cohere':
      return createCohereCompatibleProvider(spec);
    case 'lexical':
    default:
      return createLexicalHashProvider(spec.dimensions ?? DEFAULT_LEXICAL_DIMENSIONS);
  }
}

/** Reads an organization's settings object (jsonb) for its embedding choice; falls back to the global spec. */
export function resolveEmbeddingSpec(globalSpec: EmbeddingProviderSpec, organizationSettings: unknown): EmbeddingProviderSpec {
  const candidate = (organizationSettings as { integration?: { embeddings?: unknown } } | null)?.integration?.embeddings;
  const parsed = embeddingSettingsSchema.safeParse(candidate);
  return parsed.success ? parsed.data : globalSpec;
}
