import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { createVectorStore, type VectorStore } from '../../lib/vectors';
import { download, uploadContent, waitForProcessing } from '../helpers/content';
import { startApi, type TestApi } from '../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant } from '../helpers/tenants';

let api: TestApi;
let tenant: TestTenant;
let vectors: VectorStore;

beforeAll(async () => {
  api = await startApi();
  tenant = await createTestTenant(api);
  vectors = createVectorStore(api.config.content, api.config.minio);
});
afterAll(async () => {
  await vectors.close();
  await api.close();
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

async function objectNames(prefix: string): Promise<string[]> {
  const names: string[] = [];
  for await (const item of api.deps.storage.listObjectsV2(api.config.minio.bucket, prefix, true)) if (item.name) names.push(item.name);
  return names;
}

describe('upload and download', () => {
  test('a text file round-trips with sniffed type, hash, fields and download headers', async () => {
    const bytes = Buffer.from('# Notes\n\nHello world, this is Markdown.\n');
    const res = await uploadContent(api, tenant.owner.token, {
      bytes,
      filename: 'notes.md',
      type: 'application/octet-stream',
      title: 'My notes',
      tags: ['a', 'b'],
      metadata: { author: 'Ann', n: 1 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'My notes',
      filename: 'notes.md',
      mimeType: 'text/markdown',
      mediaType: 'document',
      size: bytes.length,
      sha256: sha256(bytes),
      tags: ['a', 'b'],
      metadata: { author: 'Ann', n: 1 },
      version: 1,
      organizationID: tenant.organizationId,
    });
    const file = await download(api, tenant.owner.token, `/api/v1/content/${res.body.id}/download`);
    expect(file.status).toBe(200);
    expect(file.bytes.equals(bytes)).toBe(true);
    expect(file.headers.get('content-type')).toBe('text/markdown');
    expect(file.headers.get('etag')).toBe(`"${sha256(bytes)}"`);
    expect(file.headers.get('content-disposition')).toContain('attachment; filename="notes.md"');
    expect(file.headers.get('accept-ranges')).toBe('bytes');
    expect(file.headers.get('content-security-policy')).toContain('sandbox');
    const again = await download(api, tenant.owner.token, `/api/v1/content/${res.body.id}/download`, { 'if-none-match': `"${sha256(bytes)}"` });
    expect(again.status).toBe(304);
  });

  test('the sniffed type wins over the client claim', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const res = await uploadContent(api, tenant.owner.token, { bytes: png, filename: 'pic.txt', type: 'text/plain' });
    expect(res.status).toBe(201);
    expect(res.body.mimeType).toBe('image/png');
    expect(res.body.currentVersion.declaredMimeType).toBe('text/plain');
  });

  test('a multi-MB file is streamed (multipart parts) and comes back byte-identical, with ranges', async () => {
    const bytes = randomBytes(19 * 1024 * 1024 + 123);
    const res = await uploadContent(api, tenant.owner.token, { bytes, filename: 'big.bin' });
    expect(res.status).toBe(201);
    expect(res.body.size).toBe(bytes.length);
    expect(res.body.sha256).toBe(sha256(bytes));
    expect(res.body.mimeType).toBe('application/octet-stream');
    const id = res.body.id as string;
    const file = await download(api, tenant.owner.token, `/api/v1/content/${id}/download`);
    expect(file.bytes.length).toBe(bytes.length);
    expect(sha256(file.bytes)).toBe(sha256(bytes));

    const part = await download(api, tenant.owner.token, `/api/v1/content/${id}/download`, { range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`);
    expect(part.bytes.equals(bytes.subarray(100, 200))).toBe(true);
    const tail = await download(api, tenant.owner.token, `/api/v1/content/${id}/download`, { range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(tail.bytes.equals(bytes.subarray(bytes.length - 10))).toBe(true);
    const open = await download(api, tenant.owner.token, `/api/v1/content/${id}/download`, { range: `bytes=${bytes.length - 5}-` });
    expect(open.bytes.equals(bytes.subarray(bytes.length - 5))).toBe(true);
    const bad = await download(api, tenant.owner.token, `/api/v1/content/${id}/download`, { range: `bytes=${bytes.length}-` });
    expect(bad.status).toBe(416);
    expect(bad.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
  });

  test('bad uploads answer 4xx in the envelope', async () => {
    const noFile = await api.request('POST', '/api/v1/content', { token: tenant.owner.token, body: { a: 1 } });
    expect(noFile.status).toBe(415);
    const form = new FormData();
    form.append('title', 'x');
    const missing = await fetch(`${api.baseUrl}/api/v1/content`, { method: 'POST', headers: { authorization: `Bearer ${tenant.owner.token}` }, body: form });
    expect(missing.status).toBe(400);
    const badMeta = await uploadContent(api, tenant.owner.token, { bytes: Buffer.from('x'), filename: 'x.txt' });
    expect(badMeta.status).toBe(201);
    const form2 = new FormData();
    form2.append('metadata', '{not json');
    form2.append('file', new Blob([Buffer.from('hi')]), 'a.txt');
    const res = await fetch(`${api.baseUrl}/api/v1/content`, { method: 'POST', headers: { authorization: `Bearer ${tenant.owner.token}` }, body: form2 });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
  });
});

describe('metadata, versions and roles', () => {
  test('update, new versions, version list and download of any version', async () => {
    const v1 = await uploadContent(api, tenant.owner.token, { bytes: Buffer.from('version one'), filename: 'doc.txt', title: 'Doc' });
    const id = v1.body.id as string;
    const put = await api.request('PUT', `/api/v1/content/${id}`, { token: tenant.owner.token, body: { tags: ['x'], metadata: { k: 'v' } } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ title: 'Doc', tags: ['x'], metadata: { k: 'v' } });
    const empty = await api.request('PUT', `/api/v1/content/${id}`, { token: tenant.owner.token, body: {} });
    expect(empty.status).toBe(400);
    const unknown = await api.request('PUT', `/api/v1/content/${id}`, { token: tenant.owner.token, body: { size: 3 } });
    expect(unknown.status).toBe(400);

    const v2 = await uploadContent(api, tenant.owner.token, { bytes: Buffer.from('version two!'), filename: 'doc2.txt' }, `/api/v1/content/${id}/versions`);
    expect(v2.status).toBe(201);
    expect(v2.body).toMatchObject({ version: 2, filename: 'doc2.txt', title: 'Doc', size: 12 });
    const list = await api.request('GET', `/api/v1/content/${id}/versions?limit=1`, { token: tenant.owner.token });
    expect(list.body.data.map((v: { version: number }) => v.version)).toEqual([2]);
    const next = await api.request('GET', `/api/v1/content/${id}/versions?limit=1&cursor=${list.body.nextCursor}`, { token: tenant.owner.token });
    expect(next.body.data.map((v: { version: number }) => v.version)).toEqual([1]);
    expect(next.body.nextCursor).toBeNull();
    const old = await download(api, tenant.owner.token, `/api/v1/content/${id}/download?version=1`);
    expect(old.bytes.toString()).toBe('version one');
    const cur = await download(api, tenant.owner.token, `/api/v1/content/${id}/download`);
    expect(cur.bytes.toString()).toBe('version two!');
    const none = await api.request('GET', `/api/v1/content/${id}/download?version=9`, { token: tenant.owner.token });
    expect(none.status).toBe(404);
  });

  test('viewers read, members change only their own content, admins any', async () => {
    const viewer = await addTestMember(api, tenant, 'viewer');
    const member = await addTestMember(api, tenant, 'member');
    const admin = await addTestMember(api, tenant, 'admin');
    const owned = await uploadContent(api, tenant.owner.token, { bytes: Buffer.from('owner file'), filename: 'o.txt' });
    const id = owned.body.id as string;
    expect((await api.request('GET', `/api/v1/content/${id}`, { token: viewer.token })).status).toBe(200);
    expect((await uploadContent(api, viewer.token, { bytes: Buffer.from('v'), filename: 'v.txt' })).status).toBe(403);
    expect((await api.request('PUT', `/api/v1/content/${id}`, { token: member.token, body: { title: 'no' } })).status).toBe(403);
    expect((await api.request('DELETE', `/api/v1/content/${id}`, { token: member.token })).status).toBe(403);
    const mine = await uploadContent(api, member.token, { bytes: Buffer.from('member file'), filename: 'm.txt' });
    expect((await api.request('PUT', `/api/v1/content/${mine.body.id}`, { token: member.token, body: { title: 'mine' } })).status).toBe(200);
    expect((await api.request('PUT', `/api/v1/content/${mine.body.id}`, { token: admin.token, body: { title: 'admin' } })).status).toBe(200);
  });

  test("another tenant's content is a 404 everywhere", async () => {
    const other = await createTestTenant(api);
    const res = await uploadContent(api, other.owner.token, { bytes: Buffer.from('secret'), filename: 's.txt' });
    const id = res.body.id as string;
    for (const [method, p] of [
      ['GET', `/api/v1/content/${id}`],
      ['GET', `/api/v1/content/${id}/download`],
      ['GET', `/api/v1/content/${id}/versions`],
      ['GET', `/api/v1/content/${id}/status`],
      ['DELETE', `/api/v1/content/${id}`],
      ['GET', `/api/v1/content/${id}/embedding`],
    ] as const) {
      const r = await api.request(method, p, { token: tenant.owner.token });
      expect([p, r.status]).toEqual([p, 404]);
    }
  });
});

describe('limits', () => {
  test('past the upload limit: 413, and nothing is left in PostgreSQL or MinIO', async () => {
    const small = await startApi({ CONTENT_MAX_UPLOAD_BYTES: String(1024 * 1024) });
    try {
      const t = await createTestTenant(small);
      const res = await uploadContent(small, t.owner.token, { bytes: randomBytes(3 * 1024 * 1024), filename: 'huge.bin' });
      expect(res.status).toBe(413);
      expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
      expect(await small.deps.db('content').where({ organization_id: t.organizationId }).count({ n: '*' }).first()).toEqual({ n: '0' });
      expect(await objectNames(`org/${t.organizationId}/`)).toEqual([]);
    } finally {
      await small.close();
    }
  });

  test('past the storage quota of the plan: 429 QUOTA_EXCEEDED, nothing kept', async () => {
    const tiny = await startApi({ CONTENT_QUOTA_FREE_BYTES: '100000', CONTENT_PROCESS_ON_UPLOAD: 'false' });
    try {
      const t = await createTestTenant(tiny, 'free');
      expect((await uploadContent(tiny, t.owner.token, { bytes: randomBytes(60_000), filename: 'a.bin' })).status).toBe(201);
      const over = await uploadContent(tiny, t.owner.token, { bytes: randomBytes(60_000), filename: 'b.bin' });
      expect(over.status).toBe(429);
      expect(over.body.error.code).toBe('QUOTA_EXCEEDED');
      expect(await objectNames(`org/${t.organizationId}/`)).toHaveLength(1);
      // Pro has its own (default, large) quota.
      const pro = await createTestTenant(tiny, 'pro');
      expect((await uploadContent(tiny, pro.owner.token, { bytes: randomBytes(120_000), filename: 'c.bin' })).status).toBe(201);
    } finally {
      await tiny.close();
    }
  });
});

describe('deletion', () => {
  test('removes the record at once, then objects, derived files and vectors through the workflow', async () => {
    const res = await uploadContent(api, tenant.owner.token, {
      bytes: Buffer.from('Deletion test document about penguins and glaciers. '.repeat(20)),
      filename: 'del.txt',
    });
    const id = res.body.id as string;
    const done = await waitForProcessing(api, tenant.owner.token, id);
    expect(done.body.job.status).toBe('succeeded');
    const prefix = `org/${tenant.organizationId}/content/${id}/`;
    expect((await objectNames(prefix)).length).toBeGreaterThan(1);
    expect(await vectors.countRows(tenant.organizationId, id)).toBeGreaterThan(0);

    const del = await api.request('DELETE', `/api/v1/content/${id}`, { token: tenant.owner.token });
    expect(del.status).toBe(202);
    expect((await api.request('GET', `/api/v1/content/${id}`, { token: tenant.owner.token })).status).toBe(404);
    await api.deps.temporal.workflow.getHandle(del.body.cleanup.workflowId).result();
    for (const table of ['content', 'content_versions', 'content_processing_jobs']) {
      const column = table === 'content' ? 'id' : 'content_id';
      expect(await api.deps.db(table).where({ [column]: id }).count({ n: '*' }).first()).toEqual({ n: '0' });
    }
    expect(await objectNames(prefix)).toEqual([]);
    expect(await vectors.countRows(tenant.organizationId, id)).toBe(0);
    const events = await api.deps.db('outbox_events').whereRaw("payload->>'contentId' = ?", [id]).orderBy('created_at');
    expect(events.map((e: { type: string }) => e.type)).toEqual(['content.uploaded', 'content.processed', 'content.deleted']);
    expect(events[2]!.payload.bucket).toBe(api.config.minio.bucket);
  });
});

void path;
