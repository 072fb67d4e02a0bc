import { stemmedTerms } from '../../lib/embeddings/lexicalHash';
import { RELEVANCE_DOCUMENTS, RELEVANCE_QUERIES } from '../fixtures/relevance/set';

/** Keeps the labelled set honest: a "synonym" query shares no word stem with its answer, title included. */
test('synonym queries share no Porter2 stem with their graded-2 answers', () => {
  const synonyms = RELEVANCE_QUERIES.filter((q) => q.kind === 'synonym');
  expect(synonyms.length).toBeGreaterThanOrEqual(10);
  for (const q of synonyms) {
    const queryStems = new Set(stemmedTerms(q.query));
    for (const [key, grade] of Object.entries(q.relevant)) {
      if (grade !== 2) continue;
      const doc = RELEVANCE_DOCUMENTS.find((d) => d.key === key)!;
      const shared = stemmedTerms(`${doc.title} ${doc.text}`).filter((stem) => queryStems.has(stem));
      expect({ query: q.query, answer: key, shared }).toEqual({ query: q.query, answer: key, shared: [] });
    }
  }
});

test('every labelled key is a document of the set', () => {
  const keys = new Set(RELEVANCE_DOCUMENTS.map((d) => d.key));
  for (const q of RELEVANCE_QUERIES) for (const key of Object.keys(q.relevant)) expect(keys.has(key)).toBe(true);
});
