import { evaluateRelevance, RELEVANCE_DOCUMENTS, RELEVANCE_QUERIES } from '../../test/fixtures/relevance/set';
import { call } from '../lib/api';
import type { BenchContext } from '../lib/context';
import { round } from '../lib/stats';

/**
 * Row search_ndcg: search quality of the offline default on our labelled set (test/fixtures/relevance/set.ts),
 * through the API: each text is uploaded, embedded by the workers (POST /{id}/embed: extract, chunk, embed), then
 * every query runs in each mode and nDCG@10 is computed per mode. Synonym queries (no shared word) are reported
 * apart: the lexical default is not expected to answer them. Quality, not speed: the same in smoke and full runs.
 */
export async function relevanceScenario(ctx: BenchContext): Promise<void> {
  const { apiUrl } = ctx.stack;
  const token = ctx.session.token;
  const keyOf = new Map<string, string>();
  for (const doc of RELEVANCE_DOCUMENTS) {
    const form = new FormData();
    form.append('title', doc.title);
    form.append('file', new Blob([doc.text], { type: 'text/plain' }), `${doc.key}.txt`);
    const res = await fetch(`${apiUrl}/api/v1/content`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    if (res.status !== 201) throw new Error(`relevance upload answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    const id = ((await res.json()) as { id: string }).id;
    keyOf.set(id, doc.key);
    await call(apiUrl, 'POST', `/api/v1/content/${id}/embed`, { token, expect: 202 });
  }
  const deadline = Date.now() + 120_000;
  for (const id of keyOf.keys()) {
    for (;;) {
      const status = await call<{ job?: { status: string } }>(apiUrl, 'GET', `/api/v1/content/${id}/status`, { token });
      if (status.job?.status === 'succeeded') break;
      if (status.job?.status === 'failed' || Date.now() > deadline) throw new Error(`embedding ${keyOf.get(id)} did not succeed (${status.job?.status})`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  // Only this set's contents count: the organization may hold the bench's other content.
  const scores = await evaluateRelevance(async (query, mode) => {
    const body = await call<{ data: { content: { id: string } }[] }>(apiUrl, 'POST', '/api/v1/content/search', {
      token,
      body: { query, mode, limit: 100, filters: { ids: [...keyOf.keys()] } },
      expect: 200,
    });
    return body.data.map((r) => keyOf.get(r.content.id)!).slice(0, 10);
  });
  const byMode = Object.fromEntries(scores.map((s) => [s.mode, s]));
  const hybrid = byMode.hybrid!;
  ctx.addRow({
    id: 'search_ndcg',
    path: `Search quality of the offline default: nDCG@10 on our labelled set (${RELEVANCE_DOCUMENTS.length} texts, ${RELEVANCE_QUERIES.length} queries), hybrid`,
    baseline: { label: 'ideal ranking', value: 1, unit: 'nDCG@10' },
    ours: { value: round(hybrid.ndcg10, 3), unit: 'nDCG@10' },
    ratio: round(hybrid.ndcg10, 3),
    goal: '>= 0.8 in semantic and hybrid mode (queries sharing a stem with their answer)',
    met: byMode.semantic!.ndcg10 >= 0.8 && hybrid.ndcg10 >= 0.8,
    notes: scores.map((s) => `${s.mode} ${round(s.ndcg10, 3)} (synonyms ${round(s.synonymNdcg10, 3)})`).join('; '),
    details: Object.fromEntries(scores.map((s) => [s.mode, { ndcg10: s.ndcg10, synonymNdcg10: s.synonymNdcg10, perQuery: s.perQuery }])),
  });
}
