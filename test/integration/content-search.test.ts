import { createServer, type Server } from 'node:http';
import { lexicalHashEmbedding } from '../../lib/embeddings';
import type { AddressInfo } from 'node:net';
import { createVectorStore } from '../../lib/vectors';
import { organizationCleaners } from '../../activities/organizations/cleaners';
import type { ActivityDeps } from '../../activities/deps';
import { uploadContent, waitForProcessing } from '../helpers/content';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';

/**
 * Embeddings (the offline semantic default, and an OpenAI-compatible endpoint stood up here), search modes,
 * similar content, tenant isolation, bring-your-own vectors and the metadata query.
 */
let api: TestApi;
let tenantA: TestTenant;
let tenantB: TestTenant;
const ids: Record<string, string> = {};

const DOCS: Record<string, { text: string; tags: string[]; metadata: Record<string, unknown> }> = {
  penguins: {
    text: 'Emperor penguins live in Antarctica. Penguin colonies huddle together through the polar winter and eat krill.',
    tags: ['animals', 'polar'],
    metadata: { author: 'Ann', year: 2021, review: { score: 4, at: '2021-05-01' } },
  },
  volcanoes: {
    text: 'Volcanoes erupt when magma rises from chambers beneath the crust. Lava and ash cover the slopes.',
    tags: ['geology'],
    metadata: { author: 'Bo', year: 2022, review: { score: 2, at: '2022-01-10' }, draft: true },
  },
  sourdough: {
    text: 'Baking sourdough bread needs a lively starter, flour, water and salt. The dough ferments slowly overnight.',
    tags: ['food'],
    metadata: { author: 'Ann', year: 2023 },
  },
  kingPenguins: {
    text: 'King penguins and emperor penguins breed in Antarctica; penguin chicks wait for krill in the colonies.',
    tags: ['animals'],
    metadata: { author: 'Cy', year: 2024 },
  },
};

async function put(api: TestApi, tenant: TestTenant, name: string, text: string, extra: { tags?: string[]; metadata?: Record<string, unknown> } = {}) {
  const res = await uploadContent(api, tenant.owner.token, { bytes: Buffer.from(text), filename: `${name}.txt`, title: name, ...extra });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

beforeAll(async () => {
  // The embedding stand-in below listens on 127.0.0.3, the address the test worker also allows (globalSetup).
  api = await startApi({ TOOLS_HTTP_ALLOWED_HOSTS: '127.0.0.3' });
  tenantA = await createTestTenant(api);
  tenantB = await createTestTenant(api);
  for (const [name, doc] of Object.entries(DOCS)) ids[name] = await put(api, tenantA, name, doc.text, doc);
  ids.secret = await put(api, tenantB, 'secret', 'Penguins of tenant B: secret emperor penguin colony notes from Antarctica.');
  for (const [name, id] of Object.entries(ids)) {
    const status = await waitForProcessing(api, name === 'secret' ? tenantB.owner.token : tenantA.owner.token, id);
    expect(status.body.job.status).toBe('succeeded');
  }
});
afterAll(async () => {
  await api.close();
});

const search = (tenant: TestTenant, body: unknown) => api.request('POST', '/api/v1/content/search', { token: tenant.owner.token, body });
const titles = (res: { body: { data: { content: { title: string } }[] } }) => res.body.data.map((d) => d.content.title);

describe('offline embeddings (the default: wink-sg-100d-sif-v1)', () => {
  test('the embedding carries its model and dimension and is unit length', async () => {
    const res = await api.request('GET', `/api/v1/content/${ids.penguins}/embedding`, { token: tenantA.owner.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ contentId: ids.penguins, model: 'wink-sg-100d-sif-v1', dimensions: 100, source: 'computed', version: 1 });
    expect(res.body.chunks).toBeGreaterThan(0);
    const norm = Math.sqrt((res.body.vector as number[]).reduce((s, v) => s + v * v, 0));
    expect(norm).toBeCloseTo(1, 4);
    const detail = await api.request('GET', `/api/v1/content/${ids.penguins}`, { token: tenantA.owner.token });
    expect(detail.body.embedding).toMatchObject({ model: 'wink-sg-100d-sif-v1', dimensions: 100 });
  });

  test('semantic, keyword and hybrid search find the expected documents, best first, with scores', async () => {
    const semantic = await search(tenantA, { query: 'penguin colonies in Antarctica', mode: 'semantic', limit: 4 });
    expect(semantic.status).toBe(200);
    expect(semantic.body).toMatchObject({ model: 'wink-sg-100d-sif-v1', models: ['wink-sg-100d-sif-v1'] });
    expect(titles(semantic).slice(0, 2).sort()).toEqual(['kingPenguins', 'penguins']);
    expect(semantic.body.data[0].score).toBeGreaterThan(semantic.body.data[semantic.body.data.length - 1].score);
    expect(semantic.body.data[0].scores.semantic).toBeGreaterThan(0);

    const keyword = await search(tenantA, { query: 'magma lava', mode: 'keyword' });
    expect(titles(keyword)).toEqual(['volcanoes']);
    expect(keyword.body.data[0].scores.keyword).toBeGreaterThan(0);
    expect(keyword.body.data[0].highlights[0].text).toContain('magma');

    const hybrid = await search(tenantA, { query: 'sourdough starter', mode: 'hybrid', limit: 3 });
    expect(titles(hybrid)[0]).toBe('sourdough');
    expect(hybrid.body.data[0].scores).toEqual({ semantic: expect.any(Number), keyword: expect.any(Number) });

    const byDefault = await search(tenantA, { query: 'volcano eruption' });
    expect(byDefault.body.mode).toBe('hybrid');
    expect(titles(byDefault)[0]).toBe('volcanoes');
  });

  test('filters narrow search results (tags, metadata, type)', async () => {
    // minScore 0: the sourdough text shares no word with "penguins" (below the default floor); this checks the filter.
    const food = await search(tenantA, { query: 'penguins', mode: 'semantic', filters: { tags: ['food'] }, minScore: 0 });
    expect((await search(tenantA, { query: 'penguins', mode: 'semantic', filters: { tags: ['food'] } })).body.data).toEqual([]);
    expect(titles(food)).toEqual(['sourdough']);
    const ann = await search(tenantA, { query: 'penguins krill', mode: 'hybrid', filters: { metadata: { author: 'Ann' } } });
    expect(titles(ann)).not.toContain('kingPenguins');
    expect(titles(ann)[0]).toBe('penguins');
    const images = await search(tenantA, { query: 'penguins', filters: { type: 'image' } });
    expect(images.body.data).toEqual([]);
    const bad = await search(tenantA, { query: '' });
    expect(bad.status).toBe(400);
  });

  test('similar content: nearest documents of the same organization', async () => {
    const res = await api.request('GET', `/api/v1/content/similar/${ids.penguins}?limit=3`, { token: tenantA.owner.token });
    expect(res.status).toBe(200);
    expect(res.body.data[0].content.title).toBe('kingPenguins');
    expect(res.body.data.map((d: { content: { id: string } }) => d.content.id)).not.toContain(ids.penguins);
    expect(res.body.minScore).toBe(0.5);
  });

  test('similar content has a floor: a text on its own topic has no similar content, not the nearest noise', async () => {
    const alone = await api.request('GET', `/api/v1/content/similar/${ids.sourdough}`, { token: tenantA.owner.token });
    expect(alone.status).toBe(200);
    expect(alone.body).toMatchObject({ model: 'wink-sg-100d-sif-v1', minScore: 0.5, data: [] });
    const everything = await api.request('GET', `/api/v1/content/similar/${ids.sourdough}?minScore=0`, { token: tenantA.owner.token });
    expect(everything.body.data.length).toBeGreaterThanOrEqual(3);
    expect(everything.body.data.every((d: { score: number }) => d.score < 0.5)).toBe(true);
    const bad = await api.request('GET', `/api/v1/content/similar/${ids.sourdough}?minScore=2`, { token: tenantA.owner.token });
    expect(bad.status).toBe(400);
  });

  test('tenants never see each other in search or similar', async () => {
    const a = await search(tenantA, { query: 'secret emperor penguin colony tenant B', mode: 'hybrid', limit: 100 });
    expect(a.body.data.map((d: { content: { id: string } }) => d.content.id)).not.toContain(ids.secret);
    for (const mode of ['semantic', 'keyword']) {
      const b = await search(tenantB, { query: 'penguins Antarctica krill', mode, limit: 100 });
      expect(b.body.data.map((d: { content: { organizationID: string } }) => d.content.organizationID)).toEqual(
        b.body.data.map(() => tenantB.organizationId),
      );
      expect(titles(b)).toEqual(['secret']);
    }
    const similarB = await api.request('GET', `/api/v1/content/similar/${ids.secret}`, { token: tenantB.owner.token });
    expect(similarB.body.data).toEqual([]);
    const crossed = await api.request('GET', `/api/v1/content/similar/${ids.secret}`, { token: tenantA.owner.token });
    expect(crossed.status).toBe(404);
    const similarA = await api.request('GET', `/api/v1/content/similar/${ids.kingPenguins}?limit=100`, { token: tenantA.owner.token });
    expect(similarA.body.data.map((d: { content: { id: string } }) => d.content.id)).not.toContain(ids.secret);
  });

  test('bring your own vector: dimension checked, source recorded', async () => {
    const id = ids.volcanoes;
    const wrong = await api.request('PUT', `/api/v1/content/${id}/embedding`, { token: tenantA.owner.token, body: { vector: [1, 2, 3] } });
    expect(wrong.status).toBe(422);
    const vector = Array.from({ length: 100 }, (_, i) => Math.sin(i + 1));
    const ok = await api.request('PUT', `/api/v1/content/${id}/embedding`, { token: tenantA.owner.token, body: { vector } });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ model: 'wink-sg-100d-sif-v1', dimensions: 100, source: 'provided' });
    const custom = await api.request('PUT', `/api/v1/content/${ids.sourdough}/embedding`, {
      token: tenantA.owner.token,
      body: { vector: [0.1, 0.2, 0.3], model: 'my-model' },
    });
    expect(custom.status).toBe(200);
    expect(custom.body).toMatchObject({ model: 'my-model', dimensions: 3 });
    const clash = await api.request('PUT', `/api/v1/content/${ids.penguins}/embedding`, {
      token: tenantA.owner.token,
      body: { vector: [0.1, 0.2, 0.3, 0.4], model: 'my-model' },
    });
    expect(clash.status).toBe(422);
    const zero = await api.request('PUT', `/api/v1/content/${id}/embedding`, { token: tenantA.owner.token, body: { vector: new Array(100).fill(0) } });
    expect(zero.status).toBe(400);
  });

  test('POST /embed runs extraction, chunking and embedding', async () => {
    const id = await put(api, tenantA, 'walrus', 'Walruses haul out on sea ice.');
    await waitForProcessing(api, tenantA.owner.token, id);
    const res = await api.request('POST', `/api/v1/content/${id}/embed`, { token: tenantA.owner.token, body: {} });
    expect(res.status).toBe(202);
    expect(res.body.job.trigger).toBe('embed');
    expect(res.body.job.steps.map((s: { name: string }) => s.name)).toEqual(['extract_text', 'chunk', 'embed']);
    const done = await waitForProcessing(api, tenantA.owner.token, id);
    expect(done.body.job.status).toBe('succeeded');
    expect((await api.request('GET', `/api/v1/content/${id}/embedding`, { token: tenantA.owner.token })).body.source).toBe('computed');
  });
});

describe('POST /query over metadata in PostgreSQL', () => {
  test('filters, sorting and keyset pagination', async () => {
    const q = (body: unknown) => api.request('POST', '/api/v1/content/query', { token: tenantA.owner.token, body });
    const animals = await q({ filter: { tags: ['animals'] }, sort: { field: 'title', direction: 'asc' } });
    expect(animals.status).toBe(200);
    expect(animals.body.data.map((c: { title: string }) => c.title)).toEqual(['kingPenguins', 'penguins']);
    const any = await q({ filter: { tagsAny: ['food', 'geology'] }, sort: { field: 'title', direction: 'asc' } });
    expect(any.body.data.map((c: { title: string }) => c.title)).toEqual(['sourdough', 'volcanoes']);
    const ann = await q({ filter: { metadata: { author: 'Ann' }, type: ['document', 'text/*'] } });
    expect(ann.body.data.map((c: { title: string }) => c.title).sort()).toEqual(['penguins', 'sourdough']);
    const small = await q({ filter: { size: { lte: 100 } } });
    expect(small.body.data.every((c: { size: number }) => c.size <= 100)).toBe(true);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof q>> = await q({ sort: { field: 'size', direction: 'asc' }, limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...page.body.data.map((c: { id: string }) => c.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(5);
    expect(seen).not.toContain(ids.secret);
    const bad = await q({ cursor: 'nonsense' });
    expect(bad.status).toBe(400);
    const unknown = await q({ filter: { colour: 'red' } });
    expect(unknown.status).toBe(400);
  });
});

describe('metadata filters with operators (docs/content.md#filters)', () => {
  const titles = async (metadata: Record<string, unknown>, mode?: 'keyword') => {
    const res = mode
      ? await api.request('POST', '/api/v1/content/search', { token: tenantA.owner.token, body: { query: 'penguins volcanoes sourdough', mode, filters: { metadata } } })
      : await api.request('POST', '/api/v1/content/query', { token: tenantA.owner.token, body: { filter: { metadata }, sort: { field: 'title', direction: 'asc' } } });
    expect(res.status).toBe(200);
    return res.body.data.map((c: { title?: string; content?: { title: string } }) => c.title ?? c.content?.title).sort();
  };

  test('ranges, sets, existence and nested paths; containment as before', async () => {
    expect(await titles({ year: { $gt: 2022 } })).toEqual(['kingPenguins', 'sourdough']);
    expect(await titles({ year: { $gte: 2022, $lt: 2024 } })).toEqual(['sourdough', 'volcanoes']);
    expect(await titles({ author: { $in: ['Bo', 'Cy'] } })).toEqual(['kingPenguins', 'volcanoes']);
    expect(await titles({ author: { $nin: ['Ann'] }, year: { $lte: 2023 } })).toEqual(['volcanoes']);
    expect(await titles({ draft: { $exists: true } })).toEqual(['volcanoes']);
    expect(await titles({ 'review.score': { $gte: 3 } })).toEqual(['penguins']);
    expect(await titles({ 'review.at': { $lt: '2022-01-01' } })).toEqual(['penguins']);
    expect(await titles({ author: { $ne: 'Ann' }, year: { $exists: true } })).toEqual(['kingPenguins', 'volcanoes']);
    expect(await titles({ author: 'Ann' })).toEqual(['penguins', 'sourdough']);
    // A string bound compares as text only with strings: numbers are not matched by it (nor errors raised).
    expect(await titles({ year: { $gt: 'a' } })).toEqual([]);
    // Search applies the same filter.
    expect(await titles({ year: { $gt: 2022 } }, 'keyword')).toEqual(expect.arrayContaining(['sourdough']));
  });

  test('an unknown operator, a bad operand or operators mixed with values: 400 naming it, never a silent empty list', async () => {
    const q = (metadata: unknown) => api.request('POST', '/api/v1/content/query', { token: tenantA.owner.token, body: { filter: { metadata } } });
    const unknown = await q({ words: { $gt: 30, $near: 1 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toEqual([expect.objectContaining({ path: 'body.filter.metadata.words.$near', problem: expect.stringContaining('unknown operator') })]);
    for (const bad of [{ year: { $gt: true } }, { year: { $in: [] } }, { year: { $exists: 'yes' } }, { year: { $gt: 1, plain: 2 } }, { $gt: 1 }]) {
      expect((await q(bad)).status).toBe(400);
    }
  });
});

describe('an OpenAI-compatible embedding endpoint (local stand-in)', () => {
  let server: Server;
  const seen: { auth: string | undefined; model: string; inputs: number }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
          res.writeHead(404).end();
          return;
        }
        const body = JSON.parse(raw) as { model: string; input: string[] };
        seen.push({ auth: req.headers.authorization, model: body.model, inputs: body.input.length });
        const data = body.input.map((text, index) => ({ object: 'embedding', index, embedding: lexicalHashEmbedding(text, 64) }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data, model: body.model }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.3', r));
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  test('an organization configured for it embeds documents and queries with its model', async () => {
    const tenant = await createTestTenant(api);
    const { port } = server.address() as AddressInfo;
    const settings = {
      integration: {
        thirdParty: {
          embeddings: {
            enabled: true,
            config: { provider: 'openai', baseUrl: `http://127.0.0.3:${port}/v1`, model: 'test-embed-64', dimensions: '64' },
            secrets: { apiKey: 'sk-test-key-0123456789' },
          },
        },
      },
    };
    await api.deps.db('organizations').where({ id: tenant.organizationId }).update({ settings: JSON.stringify(settings) });
    const otters = await put(api, tenant, 'otters', 'Sea otters float on their backs and crack shells with stones.');
    const moss = await put(api, tenant, 'moss', 'Moss grows on the north side of damp stones in shaded forests.');
    for (const id of [otters, moss]) expect((await waitForProcessing(api, tenant.owner.token, id)).body.job.status).toBe('succeeded');

    const embedding = await api.request('GET', `/api/v1/content/${otters}/embedding`, { token: tenant.owner.token });
    expect(embedding.body).toMatchObject({ model: 'test-embed-64', dimensions: 64 });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]).toMatchObject({ auth: 'Bearer sk-test-key-0123456789', model: 'test-embed-64' });

    const before = seen.length;
    const res = await api.request('POST', '/api/v1/content/search', {
      token: tenant.owner.token,
      body: { query: 'sea otters crack shells', mode: 'semantic', limit: 2 },
    });
    expect(res.status).toBe(200);
    expect(res.body.model).toBe('test-embed-64');
    expect(res.body.data[0].content.id).toBe(otters);
    expect(seen.length).toBe(before + 1);

    // A broken endpoint is a 502 for queries, and a retried-then-failed step for processing.
    await new Promise((r) => server.close(r));
    const down = await api.request('POST', '/api/v1/content/search', { token: tenant.owner.token, body: { query: 'otters', mode: 'semantic' } });
    expect(down.status).toBe(502);
    expect(down.body.error.code).toBe('UPSTREAM_ERROR');
    // Processing retries the embed step (attempts visible at /status), then fails it with the provider's error.
    const late = await put(api, tenant, 'late', 'Written while the embedding endpoint is down.');
    const status = (await waitForProcessing(api, tenant.owner.token, late)).body;
    expect(status.job.status).toBe('failed');
    const embed = status.job.steps.find((s: { name: string }) => s.name === 'embed');
    expect(embed).toMatchObject({ state: 'failed', attempts: api.config.content.processingMaxAttempts });
    expect(embed.error).toMatch(/connection failed/);
    expect(status.job.steps.find((s: { name: string }) => s.name === 'chunk').state).toBe('succeeded');
    server = createServer();
    server.listen(0);
  });
});

describe('organization deletion', () => {
  test("the content cleaner removes the organization's vectors and only those", async () => {
    const cleaner = organizationCleaners.find((c) => c.name === 'content-vectors');
    expect(cleaner).toBeDefined();
    const vectors = createVectorStore(api.config.content, api.config.minio);
    try {
      expect(await vectors.countRows(tenantB.organizationId)).toBeGreaterThan(0);
      const before = await vectors.countRows(tenantA.organizationId);
      const deps: ActivityDeps = api.deps;
      await cleaner!.deleteAll(tenantB.organizationId, deps);
      expect(await vectors.countRows(tenantB.organizationId)).toBe(0);
      expect(await vectors.countRows(tenantA.organizationId)).toBe(before);
    } finally {
      await vectors.close();
    }
  });
});
