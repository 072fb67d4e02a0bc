import { spawn } from 'node:child_process';
import path from 'node:path';
import { createEmbeddingProvider, type EmbeddingProvider } from '../../lib/embeddings';
import { evaluateRelevance, RELEVANCE_DOCUMENTS, RELEVANCE_QUERIES, type ModeScore } from '../../test/fixtures/relevance/set';
import { call, registerTenant, type ApiSession } from '../lib/api';
import type { BenchContext } from '../lib/context';
import { round } from '../lib/stats';

type OfflineModel = 'semantic' | 'lexical';

/**
 * Search quality and cost of the two offline models, each beside the other in the same run:
 *  - search_ndcg / search_synonyms: our labelled set (test/fixtures/relevance/set.ts) through the API, one
 *    organization per model (chosen in its integration settings): each text uploaded and embedded by the workers
 *    (POST /{id}/embed), then every query in each mode. nDCG@10 and hits@3, apart for the queries that share no
 *    word stem with their answer. Quality, not speed: the same in smoke and full runs.
 *  - embed_throughput: texts per second of one process embedding 1,000-character chunks (the default chunk size).
 *  - embed_memory: resident memory of a fresh Node process after it loaded the model and embedded one text.
 */
export async function relevanceScenario(ctx: BenchContext): Promise<void> {
  const scores = {} as Record<OfflineModel, ModeScore[]>;
  for (const model of ['semantic', 'lexical'] as const) scores[model] = await scoreModel(ctx, model);
  const mode = (model: OfflineModel, name: string) => scores[model].find((s) => s.mode === name)!;
  const notes = (model: OfflineModel) =>
    scores[model].map((s) => `${model} ${s.mode} ${round(s.ndcg10, 3)}/${round(s.hits3, 2)} (no shared stem ${round(s.synonymNdcg10, 3)}/${round(s.synonymHits3, 2)})`).join('; ');
  const details = Object.fromEntries(
    (['semantic', 'lexical'] as const).map((m) => [m, Object.fromEntries(scores[m].map((s) => [s.mode, { ndcg10: s.ndcg10, hits3: s.hits3, synonymNdcg10: s.synonymNdcg10, synonymHits3: s.synonymHits3, perQuery: s.perQuery }]))]),
  );
  const set = `${RELEVANCE_DOCUMENTS.length} texts, ${RELEVANCE_QUERIES.length} queries`;
  const hybrid = mode('semantic', 'hybrid');
  ctx.addRow({
    id: 'search_ndcg',
    path: `Search quality of the offline default (semantic word vectors): nDCG@10 of hybrid search on our labelled set (${set}), queries sharing a stem with their answer`,
    baseline: { label: 'the lexical model, same set', value: round(mode('lexical', 'hybrid').ndcg10, 3), unit: 'nDCG@10' },
    ours: { value: round(hybrid.ndcg10, 3), unit: 'nDCG@10' },
    ratio: round(hybrid.ndcg10 / mode('lexical', 'hybrid').ndcg10, 3),
    goal: '>= 0.8 in semantic and hybrid mode (nDCG@10 / hits@3 per mode in the notes)',
    met: mode('semantic', 'semantic').ndcg10 >= 0.8 && hybrid.ndcg10 >= 0.8,
    notes: `${notes('semantic')}; ${notes('lexical')}`,
    details,
  });
  ctx.addRow({
    id: 'search_synonyms',
    path: `Search quality of the offline default: hits@3 of hybrid search on the queries that share no word stem with their answer (${RELEVANCE_QUERIES.filter((q) => q.kind === 'synonym').length} of ${RELEVANCE_QUERIES.length})`,
    // The lexical model finds none of them (0): the baseline is every answer found, the lexical figure is in the notes.
    baseline: { label: 'every answer in the top 3', value: 1, unit: 'hits@3' },
    ours: { value: round(hybrid.synonymHits3, 2), unit: 'hits@3' },
    ratio: round(hybrid.synonymHits3, 2),
    goal: '>= 0.8 in semantic and hybrid mode',
    met: mode('semantic', 'semantic').synonymHits3 >= 0.8 && hybrid.synonymHits3 >= 0.8,
    notes: `the lexical model, same queries: hybrid ${round(mode('lexical', 'hybrid').synonymHits3, 2)}, semantic mode ${round(mode('lexical', 'semantic').synonymHits3, 2)}; ours in semantic mode ${round(mode('semantic', 'semantic').synonymHits3, 2)}; nDCG@10 hybrid ${round(hybrid.synonymNdcg10, 3)} (lexical ${round(mode('lexical', 'hybrid').synonymNdcg10, 3)})`,
  });

  const throughput = await embeddingThroughput();
  ctx.addRow({
    id: 'embed_throughput',
    path: 'Embedding throughput of one process: 1,000-character chunks per second (the default chunk size)',
    baseline: { label: 'the lexical model, same texts', value: round(throughput.lexical, 0), unit: 'texts/s' },
    ours: { value: round(throughput.semantic, 0), unit: 'texts/s' },
    ratio: round(throughput.semantic / throughput.lexical, 2),
    goal: '>= 1,000 texts/s (a 100 MB file is ~100k chunks: under 2 minutes of one core)',
    met: throughput.semantic >= 1000,
  });
  const memory = { semantic: await residentMegabytes('semantic'), lexical: await residentMegabytes('lexical') };
  ctx.addRow({
    id: 'embed_memory',
    path: 'Resident memory of a process that loaded the model and embedded one text (the API and each worker hold one copy)',
    baseline: { label: 'the lexical model (no data)', value: round(memory.lexical, 1), unit: 'MB' },
    ours: { value: round(memory.semantic, 1), unit: 'MB' },
    ratio: round(memory.semantic / memory.lexical, 2),
    goal: '<= 64 MB above the lexical model\'s process (the word-vector file is ~41 MB, used in place)',
    met: memory.semantic - memory.lexical <= 64,
    notes: `+${round(memory.semantic - memory.lexical, 1)} MB`,
  });
}

async function scoreModel(ctx: BenchContext, model: OfflineModel): Promise<ModeScore[]> {
  const { apiUrl } = ctx.stack;
  const session: ApiSession = await registerTenant(apiUrl, ctx.scratch.dbUrl, `relevance-${model}`);
  const { token } = session;
  await call(apiUrl, 'PUT', `/api/v1/organizations/${session.organizationId}/settings`, {
    token,
    body: { integration: { thirdParty: { embeddings: { enabled: true, config: { provider: model } } } } },
    expect: 200,
  });
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
  return evaluateRelevance(async (query, mode) => {
    const body = await call<{ data: { content: { id: string } }[] }>(apiUrl, 'POST', '/api/v1/content/search', {
      token,
      body: { query, mode, limit: 10 },
      expect: 200,
    });
    return body.data.map((r) => keyOf.get(r.content.id)!);
  });
}

/** Chunks of the default size built from the set's texts, so both models see the same words. */
function chunks(count: number): string[] {
  return Array.from({ length: count }, (_, i) => {
    let text = '';
    for (let k = i; text.length < 1000; k += 1) text += `${RELEVANCE_DOCUMENTS[k % RELEVANCE_DOCUMENTS.length]!.text} `;
    return text.slice(0, 1000);
  });
}

async function textsPerSecond(provider: EmbeddingProvider, texts: string[]): Promise<number> {
  await provider.embed(texts.slice(0, 64), 'document'); // loads the model, warms the JIT
  const started = process.hrtime.bigint();
  for (let i = 0; i < texts.length; i += 64) await provider.embed(texts.slice(i, i + 64), 'document');
  return texts.length / (Number(process.hrtime.bigint() - started) / 1e9);
}

async function embeddingThroughput(): Promise<Record<OfflineModel, number>> {
  const texts = chunks(4000);
  const result = { semantic: 0, lexical: 0 };
  // Alternating rounds, best of each: the machine's noise hits both sides alike.
  for (let round = 0; round < 3; round += 1) {
    for (const model of ['lexical', 'semantic'] as const) {
      result[model] = Math.max(result[model], await textsPerSecond(createEmbeddingProvider({ provider: model }), texts));
    }
  }
  return result;
}

/** RSS of a fresh Node process (tsx) that embeds one text with the model, in MB. */
function residentMegabytes(model: OfflineModel): Promise<number> {
  const script = `
    const { createEmbeddingProvider } = require(${JSON.stringify(path.resolve(__dirname, '../../lib/embeddings'))});
    createEmbeddingProvider({ provider: ${JSON.stringify(model)} }).embed(['zebra migration'], 'query').then(() => {
      global.gc?.();
      process.stdout.write(String(process.memoryUsage().rss));
    });`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', require.resolve('tsx/cjs'), '--expose-gc', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(Number(out) / 1048576) : reject(new Error(`memory probe of ${model} exited ${code}`))));
  });
}
