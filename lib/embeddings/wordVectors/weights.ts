import { foldText, isToken } from '../tokens';

/**
 * SIF's word weight a / (a + p(w)) (Arora et al., 2017): the commonest words ("the": ~0.01) count almost nothing,
 * words rarer than a count fully. The paper's range is 1e-4..1e-3; 1e-3 is kept because the estimate of p below
 * is coarse.
 */
export const SIF_A = 1e-3;

/**
 * p(w) estimated from the word's frequency rank alone (Zipf's law, p ∝ 1/rank, normalised over the source's
 * vocabulary): the package orders its words by frequency but does not give the counts.
 */
export function zipfProbability(rank: number, vocabularySize: number): number {
  const harmonic = Math.log(vocabularySize) + 0.5772156649;
  return 1 / ((rank + 1) * harmonic);
}

export function sifWeight(probability: number): number {
  return SIF_A / (SIF_A + probability);
}

/** A vocabulary word as the tokenizer would produce it (lower case, accents folded). */
export function foldWord(word: string): string {
  return foldText(word);
}

export function isIndexableWord(word: string): boolean {
  return isToken(word);
}
