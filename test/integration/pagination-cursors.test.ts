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

test('every list endpoint refuses a foreign cursor alike', async () => {
  const workflowId = await createWorkflowFixture(api, tenant, { nodes: [toolNode('echo', 'json_transform', { expression: '$' })] });
  const uploaded = await uploadContent(api, token, { bytes: Buffer.from('hello'), filename: 'a.txt', type: 'text/plain' });
  expect(uploaded.status).toBe(201);
  const contentId = (uploaded.body as { id: string }).id;
  const org = `/api/v1/organizations/${tenant.organizationId}`;
  const lists = [
    '/api/auth/security-events',
    `${org}/audit-logs`,
    '/api/v1/organizations',
    `${org}/members`,
    `${org}/invitations`,
    `${org}/api-keys`,
    '/api/v1/workflows',
    `/api/v1/workflows/${workflowId}/versions`,
    `/api/v1/workflows/${workflowId}/runs`,
    '/api/v1/dead-letters',
    `/api/v1/content/${contentId}/versions`,
  ];
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
