import { uploadContent, waitForProcessing } from '../helpers/content';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';
import { evaluateRelevance, RELEVANCE_DOCUMENTS, type ModeScore, type SearchMode } from '../fixtures/relevance/set';

/**
 * The offline default's search quality on our labelled set (test/fixtures/relevance), through the real pipeline:
 * upload, processing (extract, chunk, embed with lexical-hash-384-v2), LanceDB, POST /content/search.
 */
let api: TestApi;
let tenant: TestTenant;
const keyOf = new Map<string, string>();
let scores: ModeScore[];

async function search(query: string, mode: SearchMode, extra: Record<string, unknown> = {}) {
  const res = await api.request('POST', '/api/v1/content/search', { token: tenant.owner.token, body: { query, mode, limit: 10, ...extra } });
  expect(res.status).toBe(200);
  return res.body as { model: string; data: { score: number; content: { id: string } }[] };
}

beforeAll(async () => {
  api = await startApi();
  tenant = await createTestTenant(api);
  for (const doc of RELEVANCE_DOCUMENTS) {
    const res = await uploadContent(api, tenant.owner.token, { bytes: Buffer.from(doc.text), filename: `${doc.key}.txt`, type: 'text/plain', title: doc.title });
    expect(res.status).toBe(201);
    keyOf.set(res.body.id, doc.key);
  }
  for (const id of keyOf.keys()) expect((await waitForProcessing(api, tenant.owner.token, id)).body.job.status).toBe('succeeded');
  scores = await evaluateRelevance(async (query, mode) => (await search(query, mode)).data.map((r) => keyOf.get(r.content.id)!));
  // The numbers docs/content.md quotes.
  console.log(scores.map((s) => `${s.mode}: nDCG@10 ${s.ndcg10.toFixed(3)} (synonyms ${s.synonymNdcg10.toFixed(3)})`).join('\n'));
}, 180_000);
afterAll(() => api.close());

test('"zebras migrating": the zebra migration first, and no document without a shared stem (semantic floor)', async () => {
  const semantic = await search('zebras migrating', 'semantic');
  expect(semantic.model).toBe('lexical-hash-384-v2');
  const keys = semantic.data.map((r) => keyOf.get(r.content.id));
  expect(keys[0]).toBe('zebra');
  // Only texts sharing "zebra" or "migrat" pass the 0.2 floor: not every embedded document any more.
  expect(keys.every((k) => /zebra|migrat/i.test(RELEVANCE_DOCUMENTS.find((d) => d.key === k)!.text))).toBe(true);
  expect(semantic.data.every((r) => r.score >= 0.2)).toBe(true);
  // Keyword search stems too: both texts with "migrat" and the one with "zebra", nothing else (BM25 may rank the
  // database text first: its statistics are the shared table's, across organizations).
  const keyword = (await search('zebras migrating', 'keyword')).data.map((r) => keyOf.get(r.content.id)).sort();
  expect(keyword).toEqual(['dbmigration', 'zebra']);
  // minScore 0 lifts the floor: then every embedded document comes back, as before.
  expect((await search('zebras migrating', 'semantic', { minScore: 0 })).data.length).toBe(10);
});

test('nDCG@10 per mode on the labelled set', () => {
  const byMode = Object.fromEntries(scores.map((s) => [s.mode, s]));
  expect(byMode.semantic!.ndcg10).toBeGreaterThanOrEqual(0.8);
  expect(byMode.keyword!.ndcg10).toBeGreaterThanOrEqual(0.75);
  expect(byMode.hybrid!.ndcg10).toBeGreaterThanOrEqual(0.8);
});

test('what the default cannot find: synonyms without a shared word', () => {
  const keyword = scores.find((s) => s.mode === 'keyword')!;
  expect(keyword.perQuery.find((q) => q.query === 'espresso')!.top).toEqual([]);
  for (const s of scores) expect(s.synonymNdcg10).toBeLessThan(0.5);
});
