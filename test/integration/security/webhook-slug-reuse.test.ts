import { randomUUID } from 'node:crypto';
import { startApi, type TestApi } from '../../helpers/stack';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';

/**
 * Issue 40, finding 9: webhook capture through slug reuse. Organization A renames its slug; B used to be able to
 * claim the old slug and add an unauthenticated hook at the same path, so a sender still posting to A's old URL
 * (with A's bearer secret) reached B's workflow. A slug now stays with the first organization that used it
 * (db/migrations/1160_organization_slug_history.ts): nobody else can take it, by any route or by SQL, and A's old
 * URLs keep reaching A.
 */

let api: TestApi;
let a: TestTenant;
let b: TestTenant;

const echo = { id: 'echo', type: 'tool', config: { tool: 'json_transform', config: { expression: '$' } } };
const slugOf = async (t: TestTenant): Promise<string> => (await api.deps.db('organizations').where({ id: t.organizationId }).first('slug')).slug as string;
const rename = (t: TestTenant, slug: string) => api.request('PUT', `/api/v1/organizations/${t.organizationId}`, { token: t.owner.token, body: { slug } });
const renameBySettings = (t: TestTenant, slug: string) =>
  api.request('PUT', `/api/v1/organizations/${t.organizationId}/settings`, { token: t.owner.token, body: { general: { slug } } });
const runsOf = async (workflowId: string): Promise<number> =>
  Number((await api.deps.db('workflow_runs').where({ workflow_id: workflowId }).count<{ n: string }[]>('* as n'))[0]!.n);

async function activeHook(t: TestTenant, authentication: 'bearer' | 'none'): Promise<string> {
  const created = await api.request('POST', '/api/v1/workflows', {
    token: t.owner.token,
    body: { name: `hook ${randomUUID().slice(0, 6)}`, dag: { nodes: [echo] }, triggers: [{ id: 'orders', type: 'webhook', config: { path: 'orders', authentication, ...(authentication === 'none' ? { allowUnauthenticated: true } : {}) } }] },
  });
  if (created.status !== 201) throw new Error(`workflow: ${created.status} ${created.text}`);
  const activated = await api.request('POST', `/api/v1/workflows/${created.body.id}/activate`, { token: t.owner.token });
  if (activated.status !== 200) throw new Error(`activate: ${activated.status} ${activated.text}`);
  return created.body.id as string;
}

beforeAll(async () => {
  api = await startApi();
  [a, b] = await Promise.all([createTestTenant(api), createTestTenant(api)]);
});

afterAll(async () => {
  await api?.close();
});

test("after A renames, B cannot claim A's old slug by any route, and A's old URL still reaches A, never B", async () => {
  const aWorkflow = await activeHook(a, 'bearer');
  const secretRes = await api.request('POST', `/api/v1/workflows/${aWorkflow}/triggers/orders/secret`, { token: a.owner.token });
  expect(secretRes.status).toBe(201);
  const auth = { authorization: `Bearer ${secretRes.body.secret as string}` };
  const oldSlug = await slugOf(a);
  const newSlug = `renamed-${randomUUID().slice(0, 8)}`;
  expect((await rename(a, newSlug)).status).toBe(200);

  // B tries every door to the old slug: the organization update, the settings update, a new organization.
  for (const attempt of [await rename(b, oldSlug), await renameBySettings(b, oldSlug)]) {
    expect(attempt.status).toBe(409);
    expect(attempt.body.error.code).toBe('SLUG_TAKEN');
  }
  const created = await api.request('POST', '/api/v1/organizations', { token: b.owner.token, body: { name: 'Squatter', slug: oldSlug } });
  expect(created.status).toBe(409);
  expect(created.body.error.code).toBe('SLUG_TAKEN');
  // Even a write that skips the services (an operator's SQL, a fixture) is refused by PostgreSQL.
  await expect(api.deps.db('organizations').where({ id: b.organizationId }).update({ slug: oldSlug })).rejects.toMatchObject({
    code: '23505',
    constraint: 'organizations_slug_unique',
  });
  expect(await slugOf(b)).not.toBe(oldSlug);

  // B's unauthenticated hook at the same path, under its own slug: A's senders on the old URL never reach it.
  const bWorkflow = await activeHook(b, 'none');
  const viaOld = await api.request('POST', `/api/hooks/${oldSlug}/orders`, { body: { x: 1 }, headers: auth });
  expect(viaOld.status).toBe(202);
  expect(viaOld.body.workflow_id).toBe(aWorkflow);
  const viaNew = await api.request('POST', `/api/hooks/${newSlug}/orders`, { body: { x: 2 }, headers: auth });
  expect(viaNew.status).toBe(202);
  expect(viaNew.body.workflow_id).toBe(aWorkflow);
  // Without A's secret the old URL is A's hook all the same: refused, not handed to B's open hook.
  expect((await api.request('POST', `/api/hooks/${oldSlug}/orders`, { body: {} })).status).toBe(404);
  expect(await runsOf(bWorkflow)).toBe(0);
  expect(await runsOf(aWorkflow)).toBe(2);

  // A may take its old slug back; its newer one stays reserved for it in turn.
  expect((await renameBySettings(a, oldSlug)).status).toBe(200);
  expect((await rename(b, newSlug)).status).toBe(409);
});

test('two organizations racing for one new slug: exactly one gets it', async () => {
  const [c, d] = await Promise.all([createTestTenant(api), createTestTenant(api)]);
  const slug = `race-${randomUUID().slice(0, 8)}`;
  const answers = await Promise.all([rename(c, slug), renameBySettings(d, slug), rename(c, slug), renameBySettings(d, slug)]);
  const who = [c, d, c, d];
  const winners = new Set(answers.flatMap((r, i) => (r.status === 200 ? [who[i]!.organizationId] : [])));
  expect(winners.size).toBe(1);
  expect(answers.every((r) => r.status === 200 || (r.status === 409 && r.body.error.code === 'SLUG_TAKEN'))).toBe(true);
  const holders = await api.deps.db('organizations').whereIn('id', [c.organizationId, d.organizationId]).andWhere({ slug }).select('id');
  expect(holders).toHaveLength(1);
});

test("a deleted organization's slugs stay retired: nobody takes over the URLs its senders may still call", async () => {
  const gone = await createTestTenant(api);
  const slug = await slugOf(gone);
  await api.deps.db.transaction(async (trx) => {
    await trx('memberships').where({ organization_id: gone.organizationId }).delete();
    await trx('organizations').where({ id: gone.organizationId }).delete();
  });
  const taken = await rename(b, slug);
  expect(taken.status).toBe(409);
  expect(taken.body.error.code).toBe('SLUG_TAKEN');
  expect((await api.request('POST', `/api/hooks/${slug}/orders`, { body: {} })).status).toBe(404);
});

test("a slug cannot be spelt like an organization id, and an id in a hook URL is only ever that organization's", async () => {
  for (const attempt of [await rename(b, a.organizationId), await renameBySettings(b, a.organizationId)]) {
    expect(attempt.status).toBe(400);
    expect(attempt.body.error.code).toBe('VALIDATION_ERROR');
  }
  const created = await api.request('POST', '/api/v1/organizations', { token: b.owner.token, body: { name: randomUUID() } });
  expect(created.status).toBe(201);
  expect(created.body.slug).toMatch(/^org-/);
});
