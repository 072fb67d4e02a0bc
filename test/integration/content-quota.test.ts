import { randomBytes } from 'node:crypto';
import { uploadContent } from '../helpers/content';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';

/**
 * One truth on the storage quota: the upload and a new version are refused past it (429 QUOTA_EXCEEDED with the
 * numbers), and GET /organizations/{id}/usage reports exactly the figures the upload checks.
 */
const LIMIT = 100_000;
let api: TestApi;
let tenant: TestTenant;

beforeAll(async () => {
  api = await startApi({ CONTENT_QUOTA_FREE_BYTES: String(LIMIT), CONTENT_PROCESS_ON_UPLOAD: 'false' });
  tenant = await createTestTenant(api, 'free');
});
afterAll(() => api.close());

async function usage(): Promise<{ used: number; limit: number | null }> {
  const res = await api.request('GET', `/api/v1/organizations/${tenant.organizationId}/usage`, { token: tenant.owner.token });
  expect(res.status).toBe(200);
  return res.body.storage;
}

function detail(body: { error: { details?: { path: string; problem: string }[] } }, path: string): string | undefined {
  return body.error.details?.find((d) => d.path === path)?.problem;
}

test('upload and new versions are refused past the configured quota, with the numbers; usage agrees', async () => {
  expect(await usage()).toEqual({ used: 0, limit: LIMIT });

  const first = await uploadContent(api, tenant.owner.token, { bytes: randomBytes(40_000), filename: 'a.bin' });
  expect(first.status).toBe(201);
  expect(await usage()).toEqual({ used: 40_000, limit: LIMIT });

  // A new version counts too: 40,000 + 50,000 fits, then 90,000 + 20,000 does not.
  const id = first.body.id as string;
  const v2 = await uploadContent(api, tenant.owner.token, { bytes: randomBytes(50_000), filename: 'a2.bin' }, `/api/v1/content/${id}/versions`);
  expect(v2.status).toBe(201);
  expect(await usage()).toEqual({ used: 90_000, limit: LIMIT });

  const v3 = await uploadContent(api, tenant.owner.token, { bytes: randomBytes(20_000), filename: 'a3.bin' }, `/api/v1/content/${id}/versions`);
  expect(v3.status).toBe(429);
  expect(v3.body.error.code).toBe('QUOTA_EXCEEDED');
  expect(v3.body.error.message).toContain(`90000 of ${LIMIT} bytes are stored`);
  expect(detail(v3.body, 'storage.limitBytes')).toBe(String(LIMIT));
  expect(detail(v3.body, 'storage.usedBytes')).toBe('90000');

  const upload = await uploadContent(api, tenant.owner.token, { bytes: randomBytes(20_000), filename: 'b.bin' });
  expect(upload.status).toBe(429);
  expect(upload.body.error.code).toBe('QUOTA_EXCEEDED');
  expect(detail(upload.body, 'storage.usedBytes')).toBe('90000');

  // Refusals store nothing: the figures are unchanged, and exactly the quota still fits.
  expect(await usage()).toEqual({ used: 90_000, limit: LIMIT });
  const exact = await uploadContent(api, tenant.owner.token, { bytes: randomBytes(10_000), filename: 'c.bin' });
  expect(exact.status).toBe(201);
  expect(await usage()).toEqual({ used: LIMIT, limit: LIMIT });

  // Full: refused before a byte is read, with the numbers too.
  const full = await uploadContent(api, tenant.owner.token, { bytes: Buffer.from('x'), filename: 'd.txt' });
  expect(full.status).toBe(429);
  expect(full.body.error.message).toContain(`${LIMIT} of ${LIMIT} bytes are stored`);
});
