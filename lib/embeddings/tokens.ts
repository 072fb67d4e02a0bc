const WORD = /[\p{L}\p{N}]+/gu;
const WHOLE_WORD = /^[\p{L}\p{N}]+$/u;
/** Longer "words" are data (hashes, base64), not language. */
const MAX_WORD_LENGTH = 64;

/** Lower case, accents folded (café -> cafe), as the keyword index folds them. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').normalize('NFKC').toLowerCase();
}

/** The words of a text as every offline embedder sees them: runs of letters and digits, folded. */
export function tokenize(text: string): string[] {
  return (foldText(text).match(WORD) ?? []).filter((w) => w.length <= MAX_WORD_LENGTH);
}

/** Whether `word` (already folded) is one token of `tokenize`. */
export function isToken(word: string): boolean {
  return word.length <= MAX_WORD_LENGTH && WHOLE_WORD.test(word);
}
