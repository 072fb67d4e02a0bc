import { containsPhrase, parseKeywordQuery } from '../../lib/vectors/keywordQuery';

describe('keyword queries with quoted phrases (lib/vectors/keywordQuery.ts)', () => {
  test('phrases and the other words are split; unmatched or empty quotes are plain text', () => {
    expect(parseKeywordQuery('"sourdough loaf"')).toEqual({ phrases: ['sourdough loaf'], words: '' });
    expect(parseKeywordQuery('rye "sourdough loaf" oven')).toEqual({ phrases: ['sourdough loaf'], words: 'rye oven' });
    expect(parseKeywordQuery('"a b" x "c d')).toEqual({ phrases: ['a b'], words: 'x c d' });
    expect(parseKeywordQuery('"unclosed')).toEqual({ phrases: [], words: 'unclosed' });
    expect(parseKeywordQuery('"" "  " plain')).toEqual({ phrases: [], words: 'plain' });
  });

  test('a phrase matches its words in order and adjacent, without case, accents or punctuation', () => {
    expect(containsPhrase('A Sourdough loaf, baked', 'sourdough loaf')).toBe(true);
    expect(containsPhrase('a sourdough-loaf', 'Sourdough, LOAF')).toBe(true);
    expect(containsPhrase('Crème brûlée tonight', 'creme brulee')).toBe(true);
    expect(containsPhrase('loaf of sourdough', 'sourdough loaf')).toBe(false);
    expect(containsPhrase('sourdough loaves', 'sourdough loaf')).toBe(false);
    expect(containsPhrase('sourdoughloaf', 'sourdough loaf')).toBe(false);
  });
});
