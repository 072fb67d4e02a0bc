/**
 * Keyword queries with quoted phrases (`"sourdough loaf" rye`), lib/vectors/search.ts: a phrase query on the
 * positional full-text index (stemmed like the index), joined with a search for all of the phrase's words (BM25,
 * AND) whose hits are kept when their text holds the words in that order, next to each other (compared without
 * case, accents and punctuation). The second finds what the first cannot: rows written since the index was last
 * built (LanceDB's phrase queries skip them) and tables whose index predates positions (rebuilt in the background,
 * lib/vectors/indexes.ts). An unmatched quote is an ordinary character.
 */
export interface KeywordQuery {
  /** The quoted phrases, as written. */
  phrases: string[];
  /** Everything outside the quotes (ranking only when there are phrases). */
  words: string;
}

export function parseKeywordQuery(query: string): KeywordQuery {
  const phrases: string[] = [];
  const outside: string[] = [];
  const parts = query.split('"');
  // An odd number of quotes leaves the last one unmatched: its text is plain words.
  const closed = parts.length % 2 === 1 ? parts.length : parts.length - 1;
  parts.forEach((part, i) => {
    if (i % 2 === 1 && i < closed) {
      if (normalizeForPhrase(part)) phrases.push(part.trim());
    } else outside.push(part);
  });
  return { phrases, words: outside.join(' ').replace(/\s+/g, ' ').trim() };
}

/** Lower case, accents and punctuation gone, one space between words. */
export function normalizeForPhrase(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Whether `text` holds the phrase's words in order, next to each other. */
export function containsPhrase(text: string, phrase: string): boolean {
  return ` ${normalizeForPhrase(text)} `.includes(` ${normalizeForPhrase(phrase)} `);
}
