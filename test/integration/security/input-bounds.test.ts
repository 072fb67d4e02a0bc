import { startApiWithTenant } from '../../helpers/tenants';
import { uploadContent } from '../../helpers/content';
import type { TestApi, TestResponse } from '../../helpers/stack';

/**
 * Values a client controls that reached PostgreSQL's casts, a varchar or a recursive walk unchecked: each answered
 * 500 INTERNAL_ERROR before (a review of 2026-11-27). Each must now be a 4xx in the envelope, with what was wrong.
 */

let api: TestApi;
let token: string;
let contentId: string;

beforeAll(async () => {
  ({ api, token } = await startApiWithTenant());
  const uploaded = await uploadContent(api, token, { bytes: Buffer.from('hello'), filename: 'a.txt', type: 'text/plain' });
  expect(uploaded.status).toBe(201);
  contentId = (uploaded.body as { id: string }).id;
});
afterAll(() => api.close());

/** The status and error of an answer, for one readable comparison. */
const outcome = (res: TestResponse) => ({ status: res.status, code: res.body?.error?.code, details: res.body?.error?.details });

/** `{"a":{"a":…1…}}`, `depth` objects deep. */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** A multipart upload built by hand: the file part's Content-Type and the metadata text exactly as given. */
async function rawUpload(fileType: string, metadata?: string): Promise<TestResponse> {
  const form = new FormData();
  if (metadata !== undefined) form.append('metadata', metadata);
  form.append('file', new Blob([Buffer.from('hello')], { type: fileType }), 'b.txt');
  const res = await fetch(`${api.baseUrl}/api/v1/content`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined, text };
}

test('a custom event type longer than the stored column (100) is a 400 naming the field', async () => {
  const type = `custom.${'a'.repeat(50)}.${'b'.repeat(50)}`; // 108 characters, words within the naming rule
  const res = await api.request('POST', '/api/v1/events', { token, body: { type, data: {} } });
  expect(outcome(res)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: 'body.type' })] });
});

test("an upload whose file part declares a Content-Type over 255 characters is a 400, and nothing is stored", async () => {
  const listed = async () => (await api.request('POST', '/api/v1/content/query', { token, body: { limit: 100 } })).body.data as unknown[];
  const before = await listed();
  const res = await rawUpload(`application/${'x'.repeat(300)}`);
  expect(outcome(res)).toEqual({ status: 400, code: 'VALIDATION_ERROR', details: [{ path: 'file', problem: "the part's Content-Type is longer than 255 characters" }] });
  expect(await listed()).toHaveLength(before.length);
});

test('metadata of an upload nested past 256 levels is a 400 (6,000 levels overflowed the stack)', async () => {
  expect(outcome(await rawUpload('text/plain', nested(6_000)))).toEqual({
    status: 400,
    code: 'VALIDATION_ERROR',
    details: [{ path: 'metadata', problem: 'nested deeper than 256 levels' }],
  });
  expect((await rawUpload('text/plain', nested(10))).status).toBe(201);
});

test('a JSON body nested past 256 levels is refused before anything walks it (the idempotency fingerprint overflowed)', async () => {
  const res = await api.request('POST', '/api/v1/events', {
    token,
    headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-body-1' },
    rawBody: `{"type":"custom.deep","data":${nested(2_400)}}`,
  });
  expect(outcome(res)).toMatchObject({ status: 400, code: 'INVALID_JSON' });
  expect(res.body.error.message).toBe('JSON body nested deeper than 256 levels');
});

test('a content version beyond any stored one (and beyond int4) is a 400 on download, process and extract', async () => {
  const version = 2_147_483_648;
  const cases = [
    await api.request('GET', `/api/v1/content/${contentId}/download?version=${version}`, { token }),
    await api.request('POST', `/api/v1/content/${contentId}/process`, { token, body: { version } }),
    await api.request('POST', `/api/v1/content/${contentId}/extract`, { token, body: { type: 'text', version } }),
  ];
  const paths = ['query.version', 'body.version', 'body.version'];
  cases.forEach((res, i) => expect(outcome(res)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: paths[i] })] }));
});

test('the year 0000 (which PostgreSQL does not have) is a 400 in run and content filters', async () => {
  const runs = await api.request('GET', '/api/v1/runs?created_after=0000-01-01T00:00:00Z', { token });
  expect(outcome(runs)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: [expect.objectContaining({ path: 'query.created_after' })] });
  const search = await api.request('POST', '/api/v1/content/search', {
    token,
    body: { query: 'hello', filters: { createdAt: { gte: '0000-01-01T00:00:00Z' } } },
  });
  expect(outcome(search)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  expect((await api.request('GET', '/api/v1/runs?created_after=0001-01-01T00:00:00Z', { token })).status).toBe(200);
  // An offset beyond PostgreSQL's ±15 h (zod's ISO check takes up to 23:59): 22009, a 500 before.
  const offset = await api.request('GET', `/api/v1/runs?created_after=${encodeURIComponent('2026-01-01T00:00:00+16:00')}`, { token });
  expect(outcome(offset)).toMatchObject({ status: 400, details: [expect.objectContaining({ path: 'query.created_after' })] });
  expect((await api.request('GET', `/api/v1/runs?created_after=${encodeURIComponent('2026-01-01T00:00:00+14:00')}`, { token })).status).toBe(200);
});
