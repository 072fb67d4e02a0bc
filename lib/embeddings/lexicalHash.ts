import type { EmbeddingProvider } from './types';

/**
 * The built-in offline embedder. It is LEXICAL, not semantic: it hashes word unigrams, word bigrams and character
 * n-grams (4 and 5 characters, within words) into a fixed number of signed buckets (the "hashing trick"), weights term
 * frequencies sub-linearly (1 + ln tf) and L2-normalises the result. Cosine similarity between two vectors then
 * measures shared vocabulary and spelling, with some tolerance for inflections and typos through the character
 * n-grams; it knows nothing about synonyms or meaning. It needs no network and no model weights, is deterministic
 * (same text, same vector, on every machine), and so lets a fresh installation embed and search out of the box.
 * Hosted or self-hosted models (OpenAI-/Cohere-compatible) give real semantic search.
 */
export const DEFAULT_LEXICAL_DIMENSIONS = 384;

const WORD = /[\p{L}\p{N}]+/gu;

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

/** 32-bit FNV-1a: fast, deterministic, good enough spread for feature hashing. */
function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function addFeature(counts: Map<string, number>, feature: string, weight: number): void {
  counts.set(feature, (counts.get(feature) ?? 0) + weight);
}

export function tokenize(text: string): string[] {
  return (text.normalize('NFKC').toLowerCase().match(WORD) ?? []).filter((w) => w.length <= 64);
}

/** The weighted features of a text (exported for tests and for explaining scores). */
export function lexicalFeatures(text: string): Map<string, number> {
  const words = tokenize(text);
  const counts = new Map<string, number>();
  const content = words.filter((w) => !STOP_WORDS.has(w));
  for (const word of content) {
    addFeature(counts, `w:${word}`, 1);
    // Character 4- and 5-grams of the word with boundary marks, so "embedding" and "embeddings" share most features
    // (trigrams matched too many unrelated words).
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

export function createLexicalHashProvider(dimensions = DEFAULT_LEXICAL_DIMENSIONS): EmbeddingProvider {
  return {
    kind: 'lexical',
    model: `lexical-hash-${dimensions}`,
    dimensions,
    async embed(texts) {
      return texts.map((text) => lexicalHashEmbedding(text, dimensions));
    },
  };
}
