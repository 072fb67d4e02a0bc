// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- the package ships no types, and workflows/tsconfig.json (which reaches this file through type imports) must see them too
/// <reference path="./wink-porter2-stemmer.d.ts" />
import stemWord from 'wink-porter2-stemmer';
import { fnv1a } from './hashing';
import { tokenize } from './tokens';
import type { EmbeddingProvider } from './types';

/**
 * The built-in offline embedder. It is LEXICAL, not semantic: it stems words with the Porter2 (Snowball English)
 * algorithm (`wink-porter2-stemmer`, the same algorithm LanceDB's full-text index uses for keyword search), then hashes
 * stem unigrams, stem bigrams and character n-grams of the stems (4 and 5 characters) into a fixed number of signed
 * buckets (the "hashing trick"), weights term frequencies sub-linearly (1 + ln tf) and L2-normalises the result.
 * Cosine similarity between two vectors then measures shared vocabulary: inflections of a word ("zebras",
 * "zebra"; "migrating", "migration") share their stem, and the n-grams tolerate small typos; it knows nothing
 * about synonyms or meaning. It needs no network and no model weights, is deterministic (same text, same vector,
 * on every machine), and so lets a fresh installation embed and search out of the box. Hosted or self-hosted
 * models (OpenAI-/Cohere-compatible) give real semantic search.
 *
 * Versioned: `lexical-hash-<dims>-v2`. Version 1 (`lexical-hash-<dims>`, no stemming, n-grams of the raw words) made
 * other vectors for the same text; a query is only ever compared with vectors of its own model name, so vectors of
 * version 1 are not searched until their content is re-embedded (docs/content.md#embeddings).
 */
export const LEXICAL_HASH_VERSION = 2;
export const DEFAULT_LEXICAL_DIMENSIONS = 384;

// The commonest English function words carry no topic; leaving them out keeps vectors about what a text is about.
const STOP_WORDS = new Set(
  (
    'a an and are as at be but by for from has have he her his i in is it its of on or our she so that the their ' +
    'them there these they this to was we were what when which who will with you your'
  ).split(' '),
);

const WEIGHT_UNIGRAM = 1;
const WEIGHT_BIGRAM = 0.5;
const WEIGHT_CHAR_NGRAMS = 0.8;

function addFeature(counts: Map<string, number>, feature: string, weight: number): void {
  counts.set(feature, (counts.get(feature) ?? 0) + weight);
}

/** The Porter2 stem of a lower-case word; words with digits or non-Latin letters are kept as they are. */
export function stem(word: string): string {
  return /^[a-z']+$/.test(word) ? stemWord(word) : word;
}

/** Content words of a text, stemmed: what the embedder counts. */
export function stemmedTerms(text: string): string[] {
  return tokenize(text)
    .filter((w) => !STOP_WORDS.has(w))
    .map(stem);
}

/** The weighted features of a text (exported for tests and for explaining scores). */
export function lexicalFeatures(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const content = stemmedTerms(text);
  for (const word of content) {
    addFeature(counts, `w:${word}`, 1);
    // Character 4- and 5-grams of the stem with boundary marks: a misspelt word still shares most of them (trigrams
    // matched too many unrelated words).
    const marked = `<${word}>`;
    const grams: string[] = [];
    for (let n = 4; n <= 5; n += 1) {
      for (let i = 0; i + n <= marked.length; i += 1) grams.push(marked.slice(i, i + n));
    }
    // 1/sqrt(n) per gram gives each word's n-gram block a norm of 1, comparable with its unigram, whatever its length.
    for (const gram of grams) addFeature(counts, `c:${gram}`, 1 / Math.sqrt(grams.length));
  }
  for (let i = 0; i + 1 < content.length; i += 1) addFeature(counts, `b:${content[i]} ${content[i + 1]}`, 1);
  return counts;
}

function weightOf(feature: string): number {
  if (feature.startsWith('w:')) return WEIGHT_UNIGRAM;
  if (feature.startsWith('b:')) return WEIGHT_BIGRAM;
  return WEIGHT_CHAR_NGRAMS;
}

export function lexicalHashEmbedding(text: string, dimensions = DEFAULT_LEXICAL_DIMENSIONS): number[] {
  const vector = new Float64Array(dimensions);
  for (const [feature, tf] of lexicalFeatures(text)) {
    // Sub-linear term frequency: the tenth repetition of a word adds far less than the first.
    const weight = weightOf(feature) * (feature.startsWith('c:') ? tf : 1 + Math.log(tf));
    const hash = fnv1a(feature);
    // A second, independent hash picks the sign, so collisions cancel out on average instead of piling up.
    const sign = fnv1a(feature, 0x9747b28c) & 1 ? 1 : -1;
    vector[hash % dimensions] += sign * weight;
  }
  let norm = 0;
  for (const v of vector) norm += v * v;
  norm = Math.sqrt(norm);
  return Array.from(vector, (v) => (norm > 0 ? v / norm : 0));
}

/** The model name of the lexical embedder's vectors: the dimension and the algorithm's version. */
export function lexicalHashModel(dimensions = DEFAULT_LEXICAL_DIMENSIONS): string {
  return `lexical-hash-${dimensions}-v${LEXICAL_HASH_VERSION}`;
}

export function createLexicalHashProvider(dimensions = DEFAULT_LEXICAL_DIMENSIONS): EmbeddingProvider {
  return {
    kind: 'lexical',
    model: lexicalHashModel(dimensions),
    dimensions,
    async embed(texts) {
      return texts.map((text) => lexicalHashEmbedding(text, dimensions));
    },
  };
}
