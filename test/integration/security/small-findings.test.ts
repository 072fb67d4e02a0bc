import { download, uploadContent, waitForProcessing } from '../../helpers/content';
import { waitForMail } from '../../helpers/mail';
import type { TestApi } from '../../helpers/stack';
import { addTestMember, createTestTenant, createTestUser, startApiWithTenant, type TestTenant } from '../../helpers/tenants';
import { createVectorStore } from '../../../lib/vectors';

/**
 * Issue 40, finding 11: the smaller ones, each against the real stack: password reset requests that answer the same
 * whether the address is known, provider endpoints vetted at save, bounded custom embedding models, quoted phrases
 * in keyword and hybrid search, content downloads with If-Range.
 */

let api: TestApi;
let tenant: TestTenant;

beforeAll(async () => {
  ({ api, tenant } = await startApiWithTenant());
});

afterAll(async () => {
  await api?.close();
});

describe('If-Range (RFC 9110 §13.1.5)', () => {
  test("a resumed download naming an older version's ETag gets the whole new version (200), never a range of it", async () => {
    const first = Buffer.from('first version: the start of a long file');
    const second = Buffer.from('SECOND VERSION, different bytes of another length');
    const v1 = await uploadContent(api, tenant.owner.token, { bytes: first, filename: 'resume.txt', type: 'text/plain' });
    expect(v1.status).toBe(201);
    const path = `/api/v1/content/${v1.body.id as string}/download`;
    const begun = await download(api, tenant.owner.token, path, { range: 'bytes=0-9' });
    expect(begun.status).toBe(206);
    const oldTag = begun.headers.get('etag')!;
    expect(begun.bytes.toString()).toBe(first.subarray(0, 10).toString());

    const v2 = await uploadContent(api, tenant.owner.token, { bytes: second, filename: 'resume.txt', type: 'text/plain' }, `/api/v1/content/${v1.body.id as string}/versions`);
    expect(v2.status).toBe(201);

    // The client resumes where it stopped, naming what it began with: the file changed, so everything comes back.
    const resumed = await download(api, tenant.owner.token, path, { range: 'bytes=10-', 'if-range': oldTag });
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('content-range')).toBeNull();
    expect(resumed.bytes.equals(second)).toBe(true);
    const newTag = resumed.headers.get('etag')!;
    expect(newTag).not.toBe(oldTag);

    // A weak tag or a date never matches (strong comparison; there is no Last-Modified): the whole file too.
    for (const ifRange of [`W/${newTag}`, new Date().toUTCString()]) {
      const res = await download(api, tenant.owner.token, path, { range: 'bytes=10-', 'if-range': ifRange });
      expect(res.status).toBe(200);
      expect(res.bytes.equals(second)).toBe(true);
    }
    // Naming the current ETag, the range is served; without If-Range too.
    const ranged = await download(api, tenant.owner.token, path, { range: 'bytes=10-', 'if-range': newTag });
    expect(ranged.status).toBe(206);
    expect(ranged.bytes.equals(second.subarray(10))).toBe(true);
    expect((await download(api, tenant.owner.token, path, { range: 'bytes=10-' })).status).toBe(206);
    // An older version asked for by number keeps its own tag: resuming it still works.
    const old = await download(api, tenant.owner.token, `${path}?version=1`, { range: 'bytes=10-', 'if-range': oldTag });
    expect(old.status).toBe(206);
    expect(old.bytes.equals(first.subarray(10))).toBe(true);
  });
});

describe('password reset request', () => {
  test("the answer does not wait for a known address's code and mail: they are made after it", async () => {
    const user = await createTestUser(api);
    const ask = () => api.request('POST', '/api/auth/password-reset/request', { body: { email: user.email } });
    expect((await ask()).status).toBe(202);
    await waitForMail(user.email, /Reset your Loom password/);
    await fetch(`http://127.0.0.1:8025/api/messages?to=${encodeURIComponent(user.email)}`, { method: 'DELETE' });

    // Hold the user's stored code: replacing it (the known path's extra work) now waits for this transaction. The
    // answer must come all the same; before the fix it waited, so the deadline below is only a hang detector.
    const trx = await api.deps.db.transaction();
    try {
      const held = await trx('auth_tokens').where({ user_id: user.userId, purpose: 'password_reset' }).forUpdate().select('user_id');
      expect(held).toHaveLength(1);
      const answered = await Promise.race([ask(), new Promise<'waited'>((resolve) => setTimeout(() => resolve('waited'), 20_000))]);
      expect(answered === 'waited' ? answered : answered.status).toBe(202);
      const unknown = await api.request('POST', '/api/auth/password-reset/request', { body: { email: `nobody-${user.userId}@example.com` } });
      expect(answered !== 'waited' && answered.text).toBe(unknown.text);
    } finally {
      await trx.rollback();
    }
    // Released, the code is replaced and mailed.
    const mail = await waitForMail(user.email, /Reset your Loom password/, 20_000);
    const code = /Reset code: (\S+)/.exec(mail.text ?? '')![1]!;
    const stored = await api.deps.db('auth_tokens').where({ user_id: user.userId, purpose: 'password_reset' }).select('token_hash');
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).not.toBe(code);
  });
});

describe('provider endpoints are vetted at save', () => {
  const settings = (body: unknown) => api.request('PUT', `/api/v1/organizations/${tenant.organizationId}/settings`, { token: tenant.owner.token, body });
  const thirdParty = (name: string, config: Record<string, string>) => ({ integration: { thirdParty: { [name]: { enabled: true, config } } } });

  test('an LLM or embedding base URL the outbound policy refuses answers 422 naming the field, and nothing is stored', async () => {
    const before = (await api.deps.db('organizations').where({ id: tenant.organizationId }).first('settings')).settings;
    const refused: [string, Record<string, string>, string][] = [
      ['llm', { baseUrl: 'http://10.0.0.7/v1', model: 'm' }, 'baseUrl'],
      ['llm', { baseUrl: 'http://169.254.169.254/latest', model: 'm' }, 'baseUrl'],
      ['embeddings', { provider: 'openai', baseUrl: 'http://[::1]:11434/v1', model: 'e' }, 'baseUrl'],
      // The platform's own database: refused whatever an allow-list says.
      ['embeddings', { provider: 'openai', baseUrl: `http://127.0.0.1:${new URL(api.config.database.url).port || 5432}/`, model: 'e' }, 'baseUrl'],
      ['classify', { endpointUrl: 'http://192.168.1.1/' }, 'endpointUrl'],
    ];
    for (const [name, config, field] of refused) {
      const res = await settings(thirdParty(name, config));
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('UNPROCESSABLE');
      expect(res.body.error.details).toEqual([{ path: `body.integration.thirdParty.${name}.config.${field}`, problem: expect.any(String) }]);
    }
    expect((await api.deps.db('organizations').where({ id: tenant.organizationId }).first('settings')).settings).toEqual(before);
    // A public address is stored.
    expect((await settings(thirdParty('llm', { baseUrl: 'https://1.1.1.1/v1', model: 'm' }))).status).toBe(200);
  });
});

describe('quoted phrases in keyword and hybrid search', () => {
  test('a quoted phrase finds the document holding it, not the one with the same words apart (no 500)', async () => {
    const searcher = await createTestTenant(api);
    const put = async (title: string, text: string) => {
      const res = await uploadContent(api, searcher.owner.token, { bytes: Buffer.from(text), filename: `${title}.txt`, title, type: 'text/plain' });
      expect(res.status).toBe(201);
      expect((await waitForProcessing(api, searcher.owner.token, res.body.id as string)).body.job.status).toBe('succeeded');
    };
    await put('loaf', 'Baking notes: a sourdough loaf wants a long, cold proof and a very hot oven.');
    await put('apart', 'A loaf of rye bread, and separately a jar of sourdough starter kept in the fridge.');
    const search = (body: unknown) => api.request('POST', '/api/v1/content/search', { token: searcher.owner.token, body });
    const titles = (res: { body: { data: { content: { title: string } }[] } }) => res.body.data.map((d) => d.content.title);

    const keyword = await search({ query: '"sourdough loaf"', mode: 'keyword' });
    expect(keyword.status).toBe(200);
    expect(titles(keyword)).toEqual(['loaf']);
    const mixed = await search({ query: 'oven "Sourdough, LOAF"', mode: 'keyword' });
    expect(titles(mixed)).toEqual(['loaf']);
    const hybrid = await search({ query: '"sourdough loaf"', mode: 'hybrid' });
    expect(hybrid.status).toBe(200);
    expect(titles(hybrid)[0]).toBe('loaf');
    // Without quotes both match; an unmatched quote is an ordinary character.
    expect(titles(await search({ query: 'sourdough loaf', mode: 'keyword' })).sort()).toEqual(['apart', 'loaf']);
    const unmatched = await search({ query: '"sourdough loaf', mode: 'keyword' });
    expect(unmatched.status).toBe(200);
    expect(titles(unmatched).sort()).toEqual(['apart', 'loaf']);
  });
});

describe('custom embedding models are bounded', () => {
  test('at most CONTENT_EMBEDDING_MODELS_MAX (10) per organization, parallel or implicit; admins register; deleting removes the vectors', async () => {
    const t = await createTestTenant(api);
    const member = await addTestMember(api, t, 'member');
    const register = (token: string, name: string) => api.request('POST', '/api/v1/embedding-models', { token, body: { name, dimensions: 3 } });
    const refusedByMember = await register(member.token, 'members-model');
    expect(refusedByMember.status).toBe(403);

    // 15 at once: exactly 10 get in, the others are told the limit.
    const answers = await Promise.all(Array.from({ length: 15 }, (_, i) => register(t.owner.token, `model-${i}`)));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(10);
    for (const r of answers.filter((x) => x.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body.error.message).toContain('CONTENT_EMBEDDING_MODELS_MAX');
    }
    const content = await uploadContent(api, t.owner.token, { bytes: Buffer.from('vectors'), filename: 'v.txt', type: 'text/plain' });
    expect(content.status).toBe(201);
    const contentId = content.body.id as string;
    // Processed first: its job replaces the content's vectors, which would race the vector written below.
    await waitForProcessing(api, t.owner.token, contentId);
    const putVector = (token: string, model: string) =>
      api.request('PUT', `/api/v1/content/${contentId}/embedding`, { token, body: { model, vector: [0.1, 0.2, 0.3] } });
    // A first vector of a new name registers it: within the limit only.
    const implicit = await putVector(t.owner.token, 'eleventh');
    expect(implicit.status).toBe(409);
    expect((await api.request('GET', '/api/v1/embedding-models', { token: t.owner.token })).body.data).toHaveLength(10);

    // A registered model's vectors go when the model goes (here: left behind after the content moved on).
    const kept = answers.find((r) => r.status === 201)!.body.name as string;
    expect((await putVector(t.owner.token, kept)).status).toBe(200);
    const store = createVectorStore(api.config.content, api.config.minio);
    try {
      // The content's own processing embedded it with the default model too: those rows stay.
      const before = await store.countRows(t.organizationId, contentId);
      expect(before).toBeGreaterThan(0);
      await api.deps.db('content').where({ id: contentId }).update({ embedding_model: null });
      expect((await api.request('DELETE', `/api/v1/embedding-models/${kept}`, { token: t.owner.token })).status).toBe(204);
      expect(await store.countRows(t.organizationId, contentId)).toBe(before - 1);
    } finally {
      await store.close();
    }
    // Its place counts again.
    expect((await register(t.owner.token, 'after-delete')).status).toBe(201);
  });
});
