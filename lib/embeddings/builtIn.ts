import { createLexicalHashProvider, LEXICAL_HASH_VERSION } from './lexicalHash';
import type { EmbeddingProvider, EmbeddingProviderKind } from './types';
import { createWordVectorProvider, WORD_VECTOR_MODEL } from './wordVectorEmbedder';

/**
 * The built-in (offline) embedders by the model names they give their vectors. Kept apart from index.ts, which
 * also builds the network providers: the expression sandbox's data lane embeds large documents with these
 * (activities/content/offLoop.ts) and loads nothing else.
 */
const LEXICAL_MODEL = new RegExp(`^lexical-hash-(\\d{1,4})-v${LEXICAL_HASH_VERSION}$`);

/**
 * The built-in (offline) provider that made vectors of `model`, or null: a query can then be embedded for
 * vectors of that model whatever the organization's current provider is (search while content is re-embedded).
 */
export function builtInProviderOf(model: string): EmbeddingProvider | null {
  if (model === WORD_VECTOR_MODEL) return createWordVectorProvider();
  const lexical = LEXICAL_MODEL.exec(model);
  const dimensions = lexical ? Number(lexical[1]) : 0;
  return dimensions >= 1 && dimensions <= 8192 ? createLexicalHashProvider(dimensions) : null;
}

/** The kind of provider that makes vectors of `model`, where it can be told from the name (built-in models). */
export function kindOfModel(model: string): EmbeddingProviderKind | null {
  return builtInProviderOf(model)?.kind ?? null;
}
