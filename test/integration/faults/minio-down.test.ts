import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../../lib/config';
import { createStorage, ensureBucket } from '../../../lib/storage';
import { download, uploadContent } from '../../helpers/content';
import { privateMinio, type PrivateMinio } from '../../helpers/faults';
import { startApi, type TestApi } from '../../helpers/stack';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';

/**
 * MinIO faults with a real process: a private MinIO serves an API; it is killed (SIGKILL): uploads and downloads
 * answer 503 in the envelope, readiness goes red, and a failed upload leaves no content record. MinIO is started
 * again on the same data directory and the same API instance recovers by itself.
 */

let minio: PrivateMinio;
let dir: string;
let api: TestApi;
let tenant: TestTenant;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'loom-fault-minio-'));
  const base = loadConfig(process.env).minio;
  minio = await privateMinio(dir, { accessKey: base.accessKey, secretKey: base.secretKey });
  await minio.start();
  await ensureBucket(createStorage({ ...base, port: minio.port }), base.bucket, base.region);
  api = await startApi({ MINIO_PORT: String(minio.port) });
  tenant = await createTestTenant(api);
}, 60_000);

afterAll(async () => {
  await api?.close();
  await minio?.kill();
  rmSync(dir, { recursive: true, force: true });
});

const file = (text: string) => ({ bytes: Buffer.from(text), filename: 'f.txt', type: 'text/plain' });

test('503 while MinIO is down, no half-written record, recovery by itself', async () => {
  const first = await uploadContent(api, tenant.owner.token, file('before the fault'));
  expect(first.status).toBe(201);
  expect((await api.request('GET', '/readyz')).status).toBe(200);
  const countRows = async () => Number((await api.deps.db('content').where({ organization_id: tenant.organizationId }).count<{ count: string }[]>('id as count'))[0]!.count);
  const rowsBefore = await countRows();

  await minio.kill();
  const upload = await uploadContent(api, tenant.owner.token, file('during the fault'));
  expect(upload.status).toBe(503);
  expect(upload.body.error.code).toBe('SERVICE_UNAVAILABLE');
  const get = await download(api, tenant.owner.token, `/api/v1/content/${first.body.id}/download`);
  expect(get.status).toBe(503);
  expect((await api.request('GET', '/readyz')).status).toBe(503);
  // Metadata reads that need no object still work.
  expect((await api.request('GET', `/api/v1/content/${first.body.id}`, { token: tenant.owner.token })).status).toBe(200);
  expect(await countRows()).toBe(rowsBefore);

  await minio.start();
  const deadline = Date.now() + 30_000;
  let status = 0;
  while (Date.now() < deadline && status !== 200) {
    status = (await download(api, tenant.owner.token, `/api/v1/content/${first.body.id}/download`)).status;
    if (status !== 200) await new Promise((r) => setTimeout(r, 250));
  }
  expect(status).toBe(200);
  expect((await uploadContent(api, tenant.owner.token, file('after the fault'))).status).toBe(201);
  expect((await api.request('GET', '/readyz')).status).toBe(200);
}, 90_000);
