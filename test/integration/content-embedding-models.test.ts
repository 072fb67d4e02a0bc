import { uploadContent } from '../helpers/content';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';

/**
 * Custom embedding models are registered per organization: the same name in two organizations is two models, and
 * nothing one organization does with a name shows in the other's answers (issue 25: B's 422 used to name A's
 * dimension, read from the vector table all organizations share).
 */
let api: TestApi;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  api = await startApi({ CONTENT_PROCESS_ON_UPLOAD: 'false' });
  [a, b] = await Promise.all([createTestTenant(api), createTestTenant(api)]);
});
afterAll(() => api.close());

async function newContent(t: TestTenant): Promise<string> {
  const res = await uploadContent(api, t.owner.token, { bytes: Buffer.from('some text'), filename: 'a.txt', type: 'text/plain' });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

const putVector = (t: TestTenant, id: string, model: string, n: number) =>
  api.request('PUT', `/api/v1/content/${id}/embedding`, { token: t.owner.token, body: { model, vector: Array.from({ length: n }, (_, i) => i + 1) } });

const models = async (t: TestTenant) => {
  const res = await api.request('GET', '/api/v1/embedding-models', { token: t.owner.token });
  expect(res.status).toBe(200);
  return (res.body.data as { name: string; dimensions: number; provider: string }[]).map(({ name, dimensions, provider }) => ({ name, dimensions, provider }));
};

test('the same model name in two organizations: two models, neither visible to the other', async () => {
  const [contentA, contentB] = [await newContent(a), await newContent(b)];
  expect((await putVector(a, contentA, 'my-model', 4)).status).toBe(200);

  // B's first vector under the same name registers B's own model, with B's dimension.
  const first = await putVector(b, contentB, 'my-model', 5);
  expect(first.status).toBe(200);
  expect(first.body).toMatchObject({ model: 'my-model', dimensions: 5 });
  expect(await models(a)).toEqual([{ name: 'my-model', dimensions: 4, provider: 'custom' }]);
  expect(await models(b)).toEqual([{ name: 'my-model', dimensions: 5, provider: 'custom' }]);

  // Each organization is held to its own dimension, and the refusal names only that one.
  const wrongB = await putVector(b, contentB, 'my-model', 4);
  expect(wrongB.status).toBe(422);
  expect(wrongB.body.error.message).toBe('model my-model has 5 dimensions, the vector has 4');
  const wrongA = await putVector(a, contentA, 'my-model', 5);
  expect(wrongA.status).toBe(422);
  expect(wrongA.body.error.message).toBe('model my-model has 4 dimensions, the vector has 5');

  // Each reads back its own vector.
  const back = await api.request('GET', `/api/v1/content/${contentB}/embedding`, { token: b.owner.token });
  expect(back.body).toMatchObject({ model: 'my-model', dimensions: 5, vector: [1, 2, 3, 4, 5] });
});

test('explicit registration: per organization, 409 on a taken or reserved name, refusals say nothing of others', async () => {
  const register = (t: TestTenant, body: Record<string, unknown>) => api.request('POST', '/api/v1/embedding-models', { token: t.owner.token, body });
  const created = await register(a, { name: 'BAAI/bge-small-en', dimensions: 384, provider: 'in-house' });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ name: 'BAAI/bge-small-en', dimensions: 384, provider: 'in-house' });
  // Taken in A: 409. Free in B, with another dimension.
  expect((await register(a, { name: 'BAAI/bge-small-en', dimensions: 384 })).status).toBe(409);
  const inB = await register(b, { name: 'BAAI/bge-small-en', dimensions: 768 });
  expect(inB.status).toBe(201);
  expect(JSON.stringify(inB.body)).not.toContain('384');

  // B's vectors under that name follow B's registration (768), not A's (384).
  const contentB = await newContent(b);
  const wrong = await putVector(b, contentB, 'BAAI/bge-small-en', 384);
  expect(wrong.status).toBe(422);
  expect(wrong.body.error.message).toContain('has 768 dimensions');

  // The provider's model is not a custom model; bad input is a 400.
  const search = await api.request('POST', '/api/v1/content/search', { token: a.owner.token, body: { query: 'x', mode: 'keyword' } });
  const reserved = await register(a, { name: search.body.model, dimensions: 3 });
  expect(reserved.status).toBe(409);
  expect((await register(a, { name: 'x', dimensions: 0 })).status).toBe(400);
  expect((await register(a, { name: 'x\u0000y', dimensions: 3 })).status).toBe(400);

  // Deleting: only one's own; refused while content uses the model.
  const encoded = encodeURIComponent('BAAI/bge-small-en');
  expect((await api.request('DELETE', `/api/v1/embedding-models/${encoded}`, { token: a.owner.token })).status).toBe(204);
  expect(await models(b)).toContainEqual({ name: 'BAAI/bge-small-en', dimensions: 768, provider: 'custom' });
  expect((await api.request('DELETE', `/api/v1/embedding-models/my-model`, { token: b.owner.token })).status).toBe(409);
  expect((await api.request('DELETE', `/api/v1/embedding-models/unknown-model`, { token: b.owner.token })).status).toBe(404);
});
