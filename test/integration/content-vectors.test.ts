import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as lancedb from '@lancedb/lancedb';
import { loadConfig } from '../../lib/config';
import { createVectorStore, tableNameFor, type VectorRow } from '../../lib/vectors';

/** The vector store on its own: the ANN index appears past the threshold (built in the background), tenants stay
 * apart, deletes are exact. */
const base = loadConfig(process.env);
const dir = path.join(process.env.LOOM_TEST_DIR!, `vectors-${randomUUID().slice(0, 8)}`);
const config = { ...base.content, vectorUri: path.join(dir, 'db'), vectorScratchDir: path.join(dir, 'tmp'), vectorIndexThreshold: 2000 };
const store = createVectorStore(config, base.minio);
afterAll(async () => {
  await store.close();
});

function unit(seed: number, dims: number): number[] {
  // Deterministic pseudo-random unit vectors.
  let x = seed * 2654435761;
  const v = Array.from({ length: dims }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31 - 0.5;
  });
  const n = Math.sqrt(v.reduce((s, a) => s + a * a, 0));
  return v.map((a) => a / n);
}

function rows(organizationId: string, contentId: string, count: number, offset: number, dims: number): VectorRow[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${contentId}:${i}`,
    organization_id: organizationId,
    content_id: contentId,
    version: 1,
    kind: 'chunk',
    source: 'computed',
    chunk_index: i,
    text: `chunk ${i} of ${contentId}`,
    model: 'test-model',
    vector: unit(offset + i, dims),
  }));
}

test('an IVF_FLAT index is built once a table passes the threshold; searches stay filtered by organization', async () => {
  const dims = 32;
  const orgA = randomUUID();
  const orgB = randomUUID();
  await store.replaceContent('test-model', dims, orgA, 'a1', rows(orgA, 'a1', 1200, 0, dims));
  await store.settled();
  const db = await lancedb.connect(config.vectorUri, { readConsistencyInterval: 0 });
  const table = await db.openTable(tableNameFor('test-model', dims));
  expect((await table.listIndices()).map((i) => i.indexType).sort()).toEqual(['Bitmap', 'Bitmap', 'FTS']);
  await store.replaceContent('test-model', dims, orgB, 'b1', rows(orgB, 'b1', 1200, 5000, dims));
  await store.settled();
  const indices = await table.listIndices();
  expect(indices.find((i) => i.columns.includes('vector'))?.indexType).toBe('IvfFlat');
  // The scratch folder for the build is removed afterwards.
  expect(existsSync(config.vectorScratchDir) ? readdirSync(config.vectorScratchDir) : []).toEqual([]);

  // Recall@10 of the indexed search against exact search, within one organization.
  let found = 0;
  for (let q = 0; q < 20; q += 1) {
    const query = unit(100_000 + q, dims);
    const ann = await store.searchVector('test-model', dims, query, { organizationId: orgA, kind: 'chunk', limit: 10 });
    expect(ann.every((h) => h.contentId === 'a1')).toBe(true);
    const exact = (await table
      .vectorSearch(query)
      .distanceType('cosine')
      .where(`organization_id = '${orgA}'`)
      .bypassVectorIndex()
      .limit(10)
      .toArray()) as { chunk_index: number }[];
    const truth = new Set(exact.map((r) => r.chunk_index));
    found += ann.filter((h) => truth.has(h.chunkIndex)).length;
  }
  expect(found / 200).toBeGreaterThanOrEqual(0.95);

  await store.deleteContent(orgA, 'a1');
  expect(await store.countRows(orgA)).toBe(0);
  expect(await store.countRows(orgB)).toBe(1200);
  await store.deleteOrganization(orgB);
  expect(await store.countRows(orgB)).toBe(0);
});

test('a small organization in a large indexed table still gets all the rows it asks for', async () => {
  // With 256 partitions a query probes 100 first; a narrow filter leaves too few of its rows in those, and the
  // store must widen the probe rather than answer short.
  const dims = 16;
  let seed = 7;
  const random = () => {
    // mulberry32: well spread vectors, so KMeans fills every partition.
    seed = (seed + 0x6d2b79f5) >>> 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
  const spread = (organizationId: string, contentId: string, count: number): VectorRow[] =>
    rows(organizationId, contentId, count, 0, dims).map((row) => ({ ...row, vector: Array.from({ length: dims }, random) }));
  const small = randomUUID();
  const large = randomUUID();
  await store.replaceContent('narrow-model', dims, small, 's1', spread(small, 's1', 30));
  await store.replaceContent('narrow-model', dims, large, 'l1', spread(large, 'l1', 70_000));
  await store.settled();
  const db = await lancedb.connect(config.vectorUri, { readConsistencyInterval: 0 });
  const table = await db.openTable(tableNameFor('narrow-model', dims));
  expect((await table.listIndices()).find((i) => i.columns.includes('vector'))?.indexType).toBe('IvfFlat');
  for (let q = 0; q < 10; q += 1) {
    const query = Array.from({ length: dims }, random);
    const hits = await store.searchVector('narrow-model', dims, query, { organizationId: small, kind: 'chunk', limit: 20 });
    expect(hits).toHaveLength(20);
    expect(hits.every((h) => h.contentId === 's1')).toBe(true);
  }
});

test('the store works on MinIO (s3://) as well, for deployments with several hosts', async () => {
  const s3 = createVectorStore({ ...config, vectorUri: `s3://${base.minio.bucket}/lancedb-${randomUUID().slice(0, 8)}` }, base.minio);
  try {
    const org = randomUUID();
    await s3.replaceContent('test-model', 8, org, 'c1', rows(org, 'c1', 20, 0, 8));
    const hits = await s3.searchVector('test-model', 8, unit(3, 8), { organizationId: org, kind: 'chunk', limit: 1 });
    expect(hits[0]).toMatchObject({ contentId: 'c1', chunkIndex: 3 });
    expect((await s3.searchText('test-model', 8, 'chunk', { organizationId: org, kind: 'chunk', limit: 5 })).length).toBe(5);
    await s3.deleteOrganization(org);
    expect(await s3.countRows(org)).toBe(0);
  } finally {
    await s3.close();
  }
});

test('quoted phrases are phrase queries; an index built without positions is rebuilt with them, phrases working throughout', async () => {
  const dims = 8;
  const org = randomUUID();
  const texts = ['Walruses haul out on the sea ice in spring.', 'Ice forms on the sea when it is cold.', 'The sea of ice cream melted.', 'Seas and ices: walrus notes.'];
  const chunk = (i: number): VectorRow => ({ ...rows(org, `p${i}`, 1, 100 + i, dims)[0]!, text: texts[i]! });
  // A table as an earlier release left it: its full-text index has no token positions.
  const db = await lancedb.connect(config.vectorUri, { readConsistencyInterval: 0 });
  const old = await db.createTable(tableNameFor('phrase-model', dims), texts.map((_, i) => ({ ...chunk(i), model: 'phrase-model' })) as unknown as Record<string, unknown>[]);
  await old.createIndex('text', { config: lancedb.Index.fts({ language: 'English', stem: true, removeStopWords: true, asciiFolding: true, lowercase: true, withPosition: false }) });
  const phrase = async (query: string) =>
    (await store.searchText('phrase-model', dims, query, { organizationId: org, kind: 'chunk', limit: 10 })).map((h) => h.contentId).sort();
  // Before the rebuild: the words, then the order checked on the text.
  expect(await phrase('"sea ice"')).toEqual(['p0']);
  expect(await phrase('"sea of ice"')).toEqual(['p2']);
  // A write maintains the table: the index is rebuilt with positions in the background.
  await store.replaceContent('phrase-model', dims, org, 'p4', [{ ...chunk(0), id: 'p4:0', content_id: 'p4', text: 'Pack ice and sea ice differ.' }]);
  await store.settled();
  const details = (await old.listIndices()).find((i) => i.columns.includes('text')) as { indexDetails?: { with_position?: boolean } };
  expect(details.indexDetails?.with_position).toBe(true);
  await new Promise((r) => setTimeout(r, 10_100)); // what a process knows of an index without positions is rechecked after 10 s
  // Phrase queries now: stemmed like the index ("seas ices" is "sea ice"); a stop word keeps its place, and any
  // stop word fills it ("sea of ice" is not "sea ice", but is "seas and ices"), as in Lucene's phrase queries.
  expect(await phrase('"sea ice"')).toEqual(['p0', 'p4']);
  expect(await phrase('"seas ices"')).toEqual(['p0', 'p4']);
  expect(await phrase('"sea of ice"')).toEqual(['p2', 'p3']);
  expect(await phrase('"ice sea"')).toEqual([]);
  expect(await phrase('"sea ice" walrus')).toEqual(['p0', 'p4']);
  // A row written after the index was built is not in it yet (LanceDB's phrase queries skip such rows): still found.
  await old.add([{ ...chunk(0), id: 'p5:0', content_id: 'p5', text: 'Drifting sea ice, seen from the ship.', model: 'phrase-model' }] as unknown as Record<string, unknown>[]);
  expect(await phrase('"sea ice"')).toEqual(['p0', 'p4', 'p5']);
}, 60_000);
