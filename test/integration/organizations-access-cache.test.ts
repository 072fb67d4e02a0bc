import type { Knex } from 'knex';
import { useCachedReplicas, writeUnnoticed } from '../helpers/cachedReplicas';
import { probeUntil } from '../helpers/probe';
import type { TestApi } from '../helpers/stack';
import { addTestMember, createTestTenant, createTestUser, type TestTenant, type TestUser } from '../helpers/tenants';

/**
 * The organization access check's memory (api/organizations/access.ts, migration 1090), seen from two replicas and a
 * third connection (test/helpers/cachedReplicas.ts). Unnoticed writes show that an answer came from memory.
 */
let a: TestApi;
let b: TestApi;
let sql: Knex;
useCachedReplicas((replicas) => ({ a, b, sql } = replicas));

/** Needs `settings:read`: 200 for a member, 403 for a viewer, 404 for someone outside the organization. */
const settings = (api: TestApi, tenant: TestTenant, user: TestUser) =>
  api.request('GET', `/api/v1/organizations/${tenant.organizationId}/settings`, { token: user.token });

const membership = (tenant: TestTenant, user: TestUser) => ({ organization_id: tenant.organizationId, user_id: user.userId });

/**
 * Makes `api` remember the member's access row: a silent demotion is not seen (the answer comes from memory), then
 * the role is put back silently, so memory and database agree again.
 */
async function remembered(api: TestApi, tenant: TestTenant, user: TestUser): Promise<void> {
  const status = await probeUntil(
    3000,
    async () => {
      await sql('memberships').where(membership(tenant, user)).update({ role: 'member' }); // a notice evicts any copy
      await new Promise((r) => setTimeout(r, 20));
      await settings(api, tenant, user); // read and kept
      await writeUnnoticed(sql, (trx) => trx('memberships').where(membership(tenant, user)).update({ role: 'viewer' }));
      return (await settings(api, tenant, user)).status;
    },
    (s) => s === 200,
  );
  expect(status).toBe(200);
  await writeUnnoticed(sql, (trx) => trx('memberships').where(membership(tenant, user)).update({ role: 'member' }));
}

test('a demotion by another writer reaches an instance that remembered the member, within a second', async () => {
  const tenant = await createTestTenant(a);
  const member = await addTestMember(a, tenant, 'member');
  await remembered(b, tenant, member);
  await sql('memberships').where(membership(tenant, member)).update({ role: 'viewer' });
  const refused = await probeUntil(1000, () => settings(b, tenant, member), (r) => r.status === 403);
  expect(refused.status).toBe(403);
});

test('a removal, and a new membership, by another writer', async () => {
  const tenant = await createTestTenant(a);
  const member = await addTestMember(a, tenant, 'member');
  await remembered(b, tenant, member);
  await sql('memberships').where(membership(tenant, member)).delete();
  expect((await probeUntil(1000, () => settings(b, tenant, member), (r) => r.status === 404)).status).toBe(404);
  // The outsider's answer was remembered too: joining must not wait for it to grow old.
  await settings(b, tenant, member);
  await sql('memberships').insert({ ...membership(tenant, member), role: 'member' });
  expect((await probeUntil(1000, () => settings(b, tenant, member), (r) => r.status === 200)).status).toBe(200);
});

test("an organization's security settings and a two-factor enrolment by another writer", async () => {
  const tenant = await createTestTenant(a);
  const member = await addTestMember(a, tenant, 'member');
  await remembered(b, tenant, member);
  await sql('organizations')
    .where({ id: tenant.organizationId })
    .update({ settings: sql.raw(`jsonb_set(settings, '{security}', coalesce(settings->'security', '{}') || '{"requireTwoFactor": true}')`) });
  const required = await probeUntil(1000, () => settings(b, tenant, member), (r) => r.status === 403);
  expect(required.body.error.code).toBe('TWO_FACTOR_REQUIRED');
  await sql('user_two_factor').insert({ user_id: member.userId, secret_enc: 'sealed elsewhere', enabled_at: new Date() });
  expect((await probeUntil(1000, () => settings(b, tenant, member), (r) => r.status === 200)).status).toBe(200);
  await sql('organizations').where({ id: tenant.organizationId }).update({ status: 'deleting' });
  expect((await probeUntil(1000, () => settings(b, tenant, member), (r) => r.status === 404)).status).toBe(404);
});

test("an instance's own demotion through the API is seen by its very next request", async () => {
  const tenant = await createTestTenant(a);
  const member = await addTestMember(a, tenant, 'member');
  await remembered(a, tenant, member);
  const demoted = await a.request('PUT', `/api/v1/organizations/${tenant.organizationId}/members/${member.userId}`, {
    token: tenant.owner.token,
    body: { role: 'viewer' },
  });
  expect(demoted.status).toBe(200);
  expect((await settings(a, tenant, member)).status).toBe(403);
});

test("an instance's own writes evict before any notice: a membership and a two-factor enrolment", async () => {
  const tenant = await createTestTenant(a);
  const member = await addTestMember(a, tenant, 'member');
  // Through a's own database handle with notices switched off: only the eviction before the write can tell.
  await remembered(a, tenant, member);
  await writeUnnoticed(a.deps.db, (trx) => trx('memberships').where(membership(tenant, member)).update({ role: 'viewer' }));
  expect((await settings(a, tenant, member)).status).toBe(403);

  await writeUnnoticed(a.deps.db, (trx) => trx('memberships').where(membership(tenant, member)).update({ role: 'member' }));
  await sql('organizations')
    .where({ id: tenant.organizationId })
    .update({ settings: sql.raw(`jsonb_set(settings, '{security}', coalesce(settings->'security', '{}') || '{"requireTwoFactor": true}')`) });
  expect((await probeUntil(1000, () => settings(a, tenant, member), (r) => r.status === 403)).body.error.code).toBe('TWO_FACTOR_REQUIRED');
  await writeUnnoticed(a.deps.db, (trx) => trx('user_two_factor').insert({ user_id: member.userId, secret_enc: 'sealed elsewhere', enabled_at: new Date() }));
  expect((await settings(a, tenant, member)).status).toBe(200);
});

test('API keys and users of other organizations are remembered apart', async () => {
  const tenant = await createTestTenant(a);
  const other = await createTestTenant(a);
  const member = await addTestMember(a, tenant, 'member');
  const outsider = await createTestUser(a, tenant.organizationId);
  await remembered(b, tenant, member);
  expect((await settings(b, tenant, outsider)).status).toBe(404);
  expect((await settings(b, other, member)).status).toBe(404);
  expect((await settings(b, tenant, member)).status).toBe(200);
});
