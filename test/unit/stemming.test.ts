import * as lancedb from '@lancedb/lancedb';
import { lexicalHashEmbedding, lexicalHashModel } from '../../lib/embeddings';
import { stem, stemmedTerms } from '../../lib/embeddings/lexicalHash';
import { FTS_OPTIONS } from '../../lib/vectors/indexes';
import { RELEVANCE_DOCUMENTS, RELEVANCE_QUERIES } from '../fixtures/relevance/set';

const cosine = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i]!, 0);

describe('one stemmer for the embedder and the keyword index', () => {
  test("the embedder's stems are the keyword index's tokens, word for word, over the relevance set", async () => {
    const texts = [...RELEVANCE_DOCUMENTS.map((d) => `${d.title} ${d.text}`), ...RELEVANCE_QUERIES.map((q) => q.query)];
    const words = [...new Set(texts.flatMap((t) => t.toLowerCase().match(/[a-z]+/g) ?? []))];
    expect(words.length).toBeGreaterThan(250);
    const disagreements: string[] = [];
    for (const word of words) {
      const [token] = await lancedb.tokenize(word, { ...FTS_OPTIONS, removeStopWords: false });
      if (token?.text !== stem(word)) disagreements.push(`${word}: index ${token?.text}, embedder ${stem(word)}`);
    }
    expect(disagreements).toEqual([]);
  });

  test('inflections share their stem; accents fold as in the index', () => {
    expect(stemmedTerms('Zebras migrating')).toEqual(stemmedTerms('zebra migration'));
    expect(stemmedTerms('Café naïve')).toEqual(['cafe', 'naiv']);
  });

  test('the model name carries the version: vectors of version 1 are never compared with version 2 queries', () => {
    expect(lexicalHashModel(384)).toBe('lexical-hash-384-v2');
  });

  test('"zebras migrating" is closer to the zebra migration than to a text without either word', () => {
    const query = lexicalHashEmbedding('zebras migrating');
    const zebra = RELEVANCE_DOCUMENTS.find((d) => d.key === 'zebra')!;
    const others = RELEVANCE_DOCUMENTS.filter((d) => !/zebra|migrat/i.test(d.text));
    const best = Math.max(...others.map((d) => cosine(query, lexicalHashEmbedding(d.text))));
    expect(cosine(query, lexicalHashEmbedding(zebra.text))).toBeGreaterThan(best);
  });
});
