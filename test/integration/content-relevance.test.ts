import { uploadContent, waitForProcessing } from '../helpers/content';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';
import { evaluateRelevance, RELEVANCE_DOCUMENTS, type ModeScore, type SearchMode } from '../fixtures/relevance/set';

/**
 * Search quality of the two offline models on our labelled set (test/fixtures/relevance), through the real
 * pipeline: upload, processing (extract, chunk, embed), LanceDB, POST /content/search. One organization on the
 * default (the semantic word-vector model), one that chose the lexical model in its integration settings.
 */
let api: TestApi;
const tenants: Record<'semantic' | 'lexical', { tenant: TestTenant; keyOf: Map<string, string>; scores: ModeScore[] }> = {} as never;

async function search(tenant: TestTenant, query: string, mode: SearchMode, extra: Record<string, unknown> = {}) {
  const res = await api.request('POST', '/api/v1/content/search', { token: tenant.owner.token, body: { query, mode, limit: 10, ...extra } });
  expect(res.status).toBe(200);
  return res.body as { model: string; data: { score: number; content: { id: string } }[] };
}

async function loadSet(model: 'semantic' | 'lexical') {
  const tenant = await createTestTenant(api);
  if (model === 'lexical') {
    const settings = { integration: { thirdParty: { embeddings: { enabled: true, config: { provider: 'lexical' } } } } };
    const res = await api.request('PUT', `/api/v1/organizations/${tenant.organizationId}/settings`, { token: tenant.owner.token, body: settings });
    expect(res.status).toBe(200);
  }
  const keyOf = new Map<string, string>();
  for (const doc of RELEVANCE_DOCUMENTS) {
    const res = await uploadContent(api, tenant.owner.token, { bytes: Buffer.from(doc.text), filename: `${doc.key}.txt`, type: 'text/plain', title: doc.title });
    expect(res.status).toBe(201);
    keyOf.set(res.body.id, doc.key);
  }
  for (const id of keyOf.keys()) expect((await waitForProcessing(api, tenant.owner.token, id)).body.job.status).toBe('succeeded');
  const scores = await evaluateRelevance(async (query, mode) => (await search(tenant, query, mode)).data.map((r) => keyOf.get(r.content.id)!));
  // The numbers docs/content.md quotes.
  console.log(
    scores
      .map((s) => `${model} ${s.mode}: nDCG@10 ${s.ndcg10.toFixed(3)}, hits@3 ${s.hits3.toFixed(2)} (no shared stem: ${s.synonymNdcg10.toFixed(3)}, ${s.synonymHits3.toFixed(2)})`)
      .join('\n'),
  );
  tenants[model] = { tenant, keyOf, scores };
}

beforeAll(async () => {
  api = await startApi();
  await Promise.all([loadSet('semantic'), loadSet('lexical')]);
}, 240_000);
afterAll(() => api.close());

const byMode = (model: 'semantic' | 'lexical') => Object.fromEntries(tenants[model].scores.map((s) => [s.mode, s]));

describe('the default: the semantic word-vector model', () => {
  test('new organizations embed with wink-sg-100d-sif-v1', async () => {
    expect((await search(tenants.semantic.tenant, 'zebra', 'semantic')).model).toBe('wink-sg-100d-sif-v1');
  });

  test('finds answers that share no word stem with the query', async () => {
    const { semantic, hybrid, keyword } = byMode('semantic');
    expect(semantic!.synonymHits3).toBeGreaterThanOrEqual(0.8);
    expect(semantic!.synonymNdcg10).toBeGreaterThanOrEqual(0.7);
    expect(hybrid!.synonymHits3).toBeGreaterThanOrEqual(0.8);
    // The keyword index cannot, by construction.
    expect(keyword!.synonymHits3).toBeLessThanOrEqual(0.2);
    const { tenant, keyOf } = tenants.semantic;
    const keys = async (mode: SearchMode) => (await search(tenant, 'fixing a flat tyre on my bike', mode)).data.map((r) => keyOf.get(r.content.id));
    expect((await keys('semantic'))[0]).toBe('puncture');
    // Hybrid: the keyword half ranks the car text first ("check the tyre pressure"); the answer stays in the top 3.
    expect((await keys('hybrid')).slice(0, 3)).toContain('puncture');
  });

  test('keeps the lexical queries: nDCG@10 and hits@3 per mode', () => {
    const { semantic, hybrid } = byMode('semantic');
    expect(semantic!.ndcg10).toBeGreaterThanOrEqual(0.8);
    expect(hybrid!.ndcg10).toBeGreaterThanOrEqual(0.8);
    // The typo query is the semantic model's miss; the keyword half of hybrid search finds it.
    expect(hybrid!.hits3).toBeGreaterThanOrEqual(0.9);
  });

  test('its floor leaves unrelated texts out of semantic results', async () => {
    const { tenant, keyOf } = tenants.semantic;
    const keys = (await search(tenant, 'espresso', 'semantic')).data.map((r) => keyOf.get(r.content.id));
    expect(keys[0]).toBe('coffee');
    expect(keys).not.toContain('kubernetes');
    expect(keys.length).toBeLessThan(RELEVANCE_DOCUMENTS.length / 2);
  });
});

describe('the lexical model, chosen in the integration settings', () => {
  test('"zebras migrating": the zebra migration first, and no document without a shared stem (its floor)', async () => {
    const { tenant, keyOf } = tenants.lexical;
    const semantic = await search(tenant, 'zebras migrating', 'semantic');
    expect(semantic.model).toBe('lexical-hash-384-v2');
    const keys = semantic.data.map((r) => keyOf.get(r.content.id));
    expect(keys[0]).toBe('zebra');
    // Only texts sharing "zebra" or "migrat" pass the 0.2 floor.
    expect(keys.every((k) => /zebra|migrat/i.test(RELEVANCE_DOCUMENTS.find((d) => d.key === k)!.text))).toBe(true);
    expect(semantic.data.every((r) => r.score >= 0.2)).toBe(true);
    // Keyword search stems too: both texts with "migrat" and the one with "zebra", nothing else.
    const keyword = (await search(tenant, 'zebras migrating', 'keyword')).data.map((r) => keyOf.get(r.content.id)).sort();
    expect(keyword).toEqual(['dbmigration', 'zebra']);
    // minScore 0 lifts the floor: then every embedded document comes back.
    expect((await search(tenant, 'zebras migrating', 'semantic', { minScore: 0 })).data.length).toBe(10);
  });

  test('nDCG@10 per mode, and what it cannot find: synonyms without a shared word', () => {
    const { semantic, keyword, hybrid } = byMode('lexical');
    expect(semantic!.ndcg10).toBeGreaterThanOrEqual(0.8);
    expect(keyword!.ndcg10).toBeGreaterThanOrEqual(0.75);
    expect(hybrid!.ndcg10).toBeGreaterThanOrEqual(0.8);
    expect(keyword!.perQuery.find((q) => q.query === 'espresso')!.top).toEqual([]);
    for (const s of tenants.lexical.scores) expect(s.synonymNdcg10).toBeLessThan(0.5);
    expect(byMode('semantic').semantic!.synonymNdcg10).toBeGreaterThan(semantic!.synonymNdcg10 + 0.3);
  });
});
