import type { TestApi } from '../helpers/stack';
import { startApiWithTenant, type TestTenant } from '../helpers/tenants';
import { createWorkflowFixture, toolNode } from '../helpers/runs';
import { uploadContent } from '../helpers/content';

/** Every list answers a cursor it did not make with the same 400 (lib/pagination.ts invalidCursor). */

let api: TestApi;
let tenant: TestTenant;
let token: string;

beforeAll(async () => {
  ({ api, tenant, token } = await startApiWithTenant());
});
afterAll(() => api.close());

const refusal = (path: string) => ({
  error: { code: 'VALIDATION_ERROR', message: 'invalid cursor', details: [{ path, problem: 'not a cursor from this list' }], request_id: expect.any(String) },
});

/** A workflow and a content item of the tenant, and every list keyed by time (the version lists apart). */
async function listsOfTenant() {
  const workflowId = await createWorkflowFixture(api, tenant, { nodes: [toolNode('echo', 'json_transform', { expression: '$' })] });
  const uploaded = await uploadContent(api, token, { bytes: Buffer.from('hello'), filename: 'a.txt', type: 'text/plain' });
  expect(uploaded.status).toBe(201);
  const contentId = (uploaded.body as { id: string }).id;
  const org = `/api/v1/organizations/${tenant.organizationId}`;
  const byTime = [
    '/api/auth/security-events',
    `${org}/audit-logs`,
    '/api/v1/organizations',
    `${org}/members`,
    `${org}/invitations`,
    `${org}/api-keys`,
    '/api/v1/workflows',
    `/api/v1/workflows/${workflowId}/runs`,
    '/api/v1/runs',
    '/api/v1/dead-letters',
    '/api/v1/events/quarantine',
  ];
  return { byTime, byVersion: [`/api/v1/workflows/${workflowId}/versions`, `/api/v1/content/${contentId}/versions`] };
}

test('every list endpoint refuses a foreign cursor alike', async () => {
  const { byTime, byVersion } = await listsOfTenant();
  const lists = [...byTime, ...byVersion];
  for (const list of lists) {
    const res = await api.request('GET', `${list}?cursor=garbage`, { token });
    expect({ list, status: res.status, body: res.body }).toEqual({ list, status: 400, body: refusal('query.cursor') });
  }
  const query = (body: unknown) => api.request('POST', '/api/v1/content/query', { token, body });
  const garbage = await query({ cursor: 'garbage' });
  expect({ status: garbage.status, body: garbage.body }).toEqual({ status: 400, body: refusal('body.cursor') });
});

test('a content query cursor made for another sort is refused the same way', async () => {
  for (const title of ['first', 'second']) {
    expect((await uploadContent(api, token, { bytes: Buffer.from(title), filename: `${title}.txt`, type: 'text/plain', title })).status).toBe(201);
  }
  const query = (body: unknown) => api.request('POST', '/api/v1/content/query', { token, body });
  const byTitle = await query({ sort: { field: 'title', direction: 'asc' }, limit: 1 });
  expect(byTitle.status).toBe(200);
  const cursor = (byTitle.body as { nextCursor: string }).nextCursor;
  expect(cursor).toEqual(expect.any(String));
  const bySize = await query({ sort: { field: 'size', direction: 'asc' }, limit: 1, cursor });
  expect({ status: bySize.status, body: bySize.body }).toEqual({ status: 400, body: refusal('body.cursor') });
});

/** A cursor's own text as a client can craft it: base64url of any JSON pair. */
const crafted = (sort: string, id: string) => Buffer.from(JSON.stringify([sort, id])).toString('base64url');

test('crafted cursors whose values PostgreSQL cannot cast are refused as foreign, not failed (a 500 before)', async () => {
  const { byTime, byVersion } = await listsOfTenant();
  const uuid = '0b9e4d4c-5a55-4e0b-9a3e-2f6f3b1c8d11';
  for (const list of byTime) {
    for (const cursor of [crafted('x', 'y'), crafted('2026-01-01T00:00:00Z', 'y'), crafted('1', uuid), crafted('0000-01-01T00:00:00Z', uuid)]) {
      const res = await api.request('GET', `${list}?cursor=${cursor}`, { token });
      expect({ list, cursor, status: res.status, body: res.body }).toEqual({ list, cursor, status: 400, body: refusal('query.cursor') });
    }
  }
  for (const list of byVersion) {
    for (const cursor of [crafted('99999999999', uuid), crafted('2147483648', uuid), crafted('1', 'y')]) {
      const res = await api.request('GET', `${list}?cursor=${cursor}`, { token });
      expect({ list, cursor, status: res.status, body: res.body }).toEqual({ list, cursor, status: 400, body: refusal('query.cursor') });
    }
  }
  const query = await api.request('POST', '/api/v1/content/query', { token, body: { cursor: crafted('2026-01-01T00:00:00Z', 'y') } });
  expect({ status: query.status, body: query.body }).toEqual({ status: 400, body: refusal('body.cursor') });
});
