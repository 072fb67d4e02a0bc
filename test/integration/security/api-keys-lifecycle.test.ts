import { createTestApiKey } from '../../helpers/organizations';
import { startApi, type TestApi } from '../../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant } from '../../helpers/tenants';

/**
 * An API key never outlives the standing of the person who created it (docs/organizations.md#api-keys). The attack
 * of issue 18: a removed admin's key still listed members, minted a new admin key and re-invited its creator.
 */

let api: TestApi;
let tenant: TestTenant;
const UA = 'lifecycle-test-agent/1.0';

beforeAll(async () => {
  api = await startApi();
  tenant = await createTestTenant(api);
});
afterAll(() => api.close());

const orgPath = (rest = '') => `/api/v1/organizations/${tenant.organizationId}${rest}`;
const withKey = (key: string, method: string, path: string, body?: unknown) =>
  api.request(method, path, { headers: { 'x-api-key': key, 'user-agent': UA }, body });

async function auditEntries(action: string, targetId: string) {
  const res = await api.request('GET', orgPath(`/audit-logs?action=${action}&limit=100`), { token: tenant.owner.token });
  expect(res.status).toBe(200);
  return (res.body.data as { target: { id: string } | null }[]).filter((e) => e.target?.id === targetId);
}

test('a removed admin: every key they created stops working (401), keys minted by those keys too, each revocation audited', async () => {
  const admin = await addTestMember(api, tenant, 'admin');
  const adminKey = await createTestApiKey(api, tenant.organizationId, admin.token, 'admin');
  // The attack's second step: the admin's key mints another key (an admin key only a person may mint: step-up.test.ts).
  const minted = await withKey(adminKey.key, 'POST', orgPath('/api-keys'), { name: 'minted', role: 'member' });
  expect(minted.status).toBe(201);
  const otherAdmin = await addTestMember(api, tenant, 'admin');
  const keptKey = await createTestApiKey(api, tenant.organizationId, otherAdmin.token, 'admin');

  const removed = await api.request('DELETE', orgPath(`/members/${admin.userId}`), { token: tenant.owner.token });
  expect(removed.status).toBe(204);

  for (const key of [adminKey.key, minted.body.key as string]) {
    const res = await withKey(key, 'GET', orgPath('/members'));
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_TOKEN');
    const invite = await withKey(key, 'POST', orgPath('/invitations'), { email: admin.email, role: 'admin' });
    expect(invite.status).toBe(401);
  }
  // A remaining admin's key keeps working.
  expect((await withKey(keptKey.key, 'GET', orgPath('/members'))).status).toBe(200);

  for (const id of [adminKey.id, minted.body.id as string]) {
    const [entry] = await auditEntries('api_key.revoked', id);
    expect(entry).toMatchObject({
      actor: { type: 'user', id: tenant.owner.userId },
      changes: { after: { reason: 'creator_removed', creator: admin.userId } },
    });
  }
  // The use of the revoked key is in the log, with the key as actor, its IP and user agent.
  const [rejected] = await auditEntries('api_key.rejected', adminKey.id);
  expect(rejected).toMatchObject({
    actor: { type: 'apiKey', id: adminKey.id },
    ip: expect.stringMatching(/127\.0\.0\.1/),
    userAgent: UA,
    changes: { after: { reason: 'revoked' } },
  });
  const keys = await api.request('GET', orgPath('/api-keys?limit=100'), { token: tenant.owner.token });
  const listed = (keys.body.data as { id: string }[]).map((k) => k.id);
  expect(listed).not.toContain(adminKey.id);
  expect(listed).toContain(keptKey.id);
});

test('a demoted admin: their admin keys are revoked, their keys within the new role keep working', async () => {
  const admin = await addTestMember(api, tenant, 'admin');
  const adminKey = await createTestApiKey(api, tenant.organizationId, admin.token, 'admin');
  const memberKey = await createTestApiKey(api, tenant.organizationId, admin.token, 'member');

  const demoted = await api.request('PUT', orgPath(`/members/${admin.userId}`), { token: tenant.owner.token, body: { role: 'member' } });
  expect(demoted.status).toBe(200);

  expect((await withKey(adminKey.key, 'GET', orgPath('/members'))).status).toBe(401);
  expect((await withKey(memberKey.key, 'GET', orgPath('/members'))).status).toBe(200);
  const [entry] = await auditEntries('api_key.revoked', adminKey.id);
  expect(entry).toMatchObject({ changes: { after: { reason: 'creator_demoted', creatorRole: 'member' } } });
  expect(await auditEntries('api_key.revoked', memberKey.id)).toHaveLength(0);
});

test('an admin who leaves: their keys go with them', async () => {
  const admin = await addTestMember(api, tenant, 'admin');
  const key = await createTestApiKey(api, tenant.organizationId, admin.token, 'viewer');
  expect((await api.request('DELETE', orgPath(`/members/${admin.userId}`), { token: admin.token })).status).toBe(204);
  expect((await withKey(key.key, 'GET', orgPath('/members'))).status).toBe(401);
  const [entry] = await auditEntries('api_key.revoked', key.id);
  expect(entry).toMatchObject({ actor: { type: 'user', id: admin.userId }, changes: { after: { reason: 'creator_left' } } });
});

test('a deleted account: the database revokes its keys, whatever deletes the row', async () => {
  const admin = await addTestMember(api, tenant, 'admin');
  const key = await createTestApiKey(api, tenant.organizationId, admin.token, 'member');
  await api.deps.db('users').where({ id: admin.userId }).delete();
  expect((await withKey(key.key, 'GET', orgPath('/members'))).status).toBe(401);
  const [entry] = await auditEntries('api_key.revoked', key.id);
  expect(entry).toMatchObject({ actor: { type: 'system', id: null }, changes: { after: { reason: 'creator_deleted' } } });
});
