import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { createTestApiKey } from '../../helpers/organizations';
import { waitForRun } from '../../helpers/runs';
import { startApi, type TestApi } from '../../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant, type TestUser } from '../../helpers/tenants';

/**
 * Step-up for weakening security (issue 40, findings 7 and 8; docs/organizations.md#human-acts): API keys cannot
 * approve or reject runs, switch off two-factor or IP protections, lengthen the idle timeout or mint admin keys
 * (403 HUMAN_REQUIRED); a person without the two-factor sign-in the organization requires cannot either; a person
 * cannot require two-factor sign-in they do not have (422, not locked out); runs a key starts name the key's creator
 * as requester, so four eyes stay two people.
 */

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

const echo = { id: 'echo', type: 'tool', config: { tool: 'json_transform', config: { expression: '$' } } };
const withKey = (key: string, method: string, path: string, body?: unknown) => api.request(method, path, { headers: { 'x-api-key': key }, body });
const settingsPath = (t: TestTenant) => `/api/v1/organizations/${t.organizationId}/settings`;

/** Real enrolment through /api/auth/2fa: the user's other sessions end, the answer's token is the one to use. */
async function enrol(user: TestUser): Promise<TestUser> {
  const started = await api.request('POST', '/api/auth/2fa/enrolment', { token: user.token });
  expect(started.status).toBe(201);
  const code = new TOTP({ secret: Secret.fromBase32(started.body.secret) }).generate();
  const confirmed = await api.request('POST', '/api/auth/2fa/enrolment/confirm', { token: user.token, body: { code } });
  expect(confirmed.status).toBe(200);
  return { ...user, token: confirmed.body.tokens.accessToken, refreshToken: confirmed.body.tokens.refreshToken };
}

async function storedSecurity(t: TestTenant): Promise<Record<string, unknown>> {
  const row = await api.deps.db('organizations').where({ id: t.organizationId }).first('settings');
  return (row.settings?.security ?? {}) as Record<string, unknown>;
}

describe('four eyes with API keys (finding 7)', () => {
  let tenant: TestTenant;
  let admin: TestUser;
  let ownerKey: string;
  let ownerKeyId: string;

  beforeAll(async () => {
    tenant = await createTestTenant(api);
    admin = await addTestMember(api, tenant, 'admin');
    ({ key: ownerKey, id: ownerKeyId } = await createTestApiKey(api, tenant.organizationId, tenant.owner.token, 'admin'));
  });

  async function gatedWorkflow(): Promise<string> {
    const res = await api.request('POST', '/api/v1/workflows', {
      token: tenant.owner.token,
      body: {
        name: `gate ${randomUUID().slice(0, 6)}`,
        dag: { nodes: [echo] },
        triggers: [{ id: 'gate', type: 'manual', config: { requireApproval: true, approvers: ['owner', 'admin'], allowSelfApproval: false } }],
      },
    });
    expect(res.status).toBe(201);
    expect((await api.request('POST', `/api/v1/workflows/${res.body.id}/activate`, { token: tenant.owner.token })).status).toBe(200);
    return res.body.id as string;
  }
  const decidePath = (workflowId: string, runId: string, verb: 'approve' | 'reject') => `/api/v1/workflows/${workflowId}/runs/${runId}/${verb}`;

  test("the owner's admin key cannot approve (or reject) the owner's run; the owner cannot either; another admin can", async () => {
    const workflowId = await gatedWorkflow();
    const started = await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, { token: tenant.owner.token, body: { parameters: {} } });
    expect(started.status).toBe(201);
    const runId = started.body.id as string;

    const self = await api.request('POST', decidePath(workflowId, runId, 'approve'), { token: tenant.owner.token, body: {} });
    expect(self.status).toBe(403);
    expect(self.body.error.message).toMatch(/you requested this run/);
    for (const verb of ['approve', 'reject'] as const) {
      const byKey = await withKey(ownerKey, 'POST', decidePath(workflowId, runId, verb), { comment: 'by key' });
      expect(byKey.status).toBe(403);
      expect(byKey.body.error).toMatchObject({ code: 'HUMAN_REQUIRED', message: expect.stringContaining('API keys may not approve or reject runs') });
    }
    const waiting = await api.request('GET', `/api/v1/workflows/${workflowId}/runs/${runId}`, { token: admin.token });
    expect(waiting.body).toMatchObject({ status: 'pending', awaiting_approval: true, trigger: { approval: { status: 'pending' } } });

    const approved = await api.request('POST', decidePath(workflowId, runId, 'approve'), { token: admin.token, body: { comment: 'second pair of eyes' } });
    expect(approved.status).toBe(200);
    const run = await waitForRun(api, admin.token, workflowId, runId);
    expect(run.status).toBe('completed');
    expect(run.trigger.approval).toMatchObject({ status: 'approved', decidedBy: admin.userId, decidedByType: 'user' });
  });

  test("a run a key starts records the key's creator as requester: the key and its creator cannot approve it, another admin can", async () => {
    const workflowId = await gatedWorkflow();
    const started = await withKey(ownerKey, 'POST', `/api/v1/workflows/${workflowId}/runs`, { parameters: {} });
    expect(started.status).toBe(201);
    const runId = started.body.id as string;
    expect(started.body.created_by).toBe(tenant.owner.userId);
    expect(started.body.trigger).toMatchObject({ type: 'manual', userId: tenant.owner.userId, apiKeyId: ownerKeyId, approval: { requestedBy: tenant.owner.userId } });

    const sameKey = await withKey(ownerKey, 'POST', decidePath(workflowId, runId, 'approve'), {});
    expect(sameKey.status).toBe(403);
    expect(sameKey.body.error.code).toBe('HUMAN_REQUIRED');
    const creator = await api.request('POST', decidePath(workflowId, runId, 'approve'), { token: tenant.owner.token, body: {} });
    expect(creator.status).toBe(403);
    expect(creator.body.error.message).toMatch(/you requested this run/);

    const rejected = await api.request('POST', decidePath(workflowId, runId, 'reject'), { token: admin.token, body: { comment: 'not this one' } });
    expect(rejected.status).toBe(200);
    expect((await waitForRun(api, admin.token, workflowId, runId)).status).toBe('cancelled');

    // A retry by the key goes through the gate again, requested by the same person.
    const retried = await withKey(ownerKey, 'POST', `/api/v1/workflows/${workflowId}/runs/${runId}/retry`);
    expect(retried.status).toBe(201);
    expect(retried.body.trigger).toMatchObject({ type: 'retry', userId: tenant.owner.userId, apiKeyId: ownerKeyId, approval: { status: 'pending', requestedBy: tenant.owner.userId } });
    expect((await api.request('POST', decidePath(workflowId, retried.body.id, 'approve'), { token: tenant.owner.token, body: {} })).status).toBe(403);
    expect((await api.request('POST', decidePath(workflowId, retried.body.id, 'approve'), { token: admin.token, body: {} })).status).toBe(200);
    expect((await waitForRun(api, admin.token, workflowId, retried.body.id)).status).toBe('completed');
  });
});

describe('two-factor requirement (finding 8)', () => {
  test('an admin key made before the requirement cannot turn it off; an admin session without two-factor cannot; one with it can', async () => {
    const tenant = await createTestTenant(api);
    const owner = await enrol(tenant.owner);
    const admin = await addTestMember(api, tenant, 'admin');
    const adminKey = await createTestApiKey(api, tenant.organizationId, admin.token, 'admin');
    const set = await api.request('PUT', settingsPath(tenant), { token: owner.token, body: { security: { requireTwoFactor: true } } });
    expect(set.status).toBe(200);

    const byKey = await withKey(adminKey.key, 'PUT', settingsPath(tenant), { security: { requireTwoFactor: false } });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error).toMatchObject({ code: 'HUMAN_REQUIRED', message: expect.stringContaining('security.requireTwoFactor') });
    const bySession = await api.request('PUT', settingsPath(tenant), { token: admin.token, body: { security: { requireTwoFactor: false } } });
    expect(bySession.status).toBe(403);
    expect(bySession.body.error.code).toBe('TWO_FACTOR_REQUIRED');
    expect((await storedSecurity(tenant)).requireTwoFactor).toBe(true);

    // The key still does what is not a weakening (a setting that is no protection).
    expect((await withKey(adminKey.key, 'PUT', settingsPath(tenant), { security: { auditLogRetentionDays: 400 } })).status).toBe(200);

    const enrolledAdmin = await enrol(admin);
    const off = await api.request('PUT', settingsPath(tenant), { token: enrolledAdmin.token, body: { security: { requireTwoFactor: false } } });
    expect(off.status).toBe(200);
    expect((await storedSecurity(tenant)).requireTwoFactor).toBe(false);
  });

  test('an owner without two-factor cannot require it (422 naming the field) and is not locked out; enrolled, they can', async () => {
    const tenant = await createTestTenant(api);
    const refused = await api.request('PUT', settingsPath(tenant), { token: tenant.owner.token, body: { security: { requireTwoFactor: true } } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({
      code: 'UNPROCESSABLE',
      message: expect.stringContaining('enrol first'),
      details: [{ path: 'body.security.requireTwoFactor', problem: expect.stringContaining('enrol first') }],
    });
    expect((await storedSecurity(tenant)).requireTwoFactor ?? false).toBe(false);
    expect((await api.request('GET', `/api/v1/organizations/${tenant.organizationId}/members`, { token: tenant.owner.token })).status).toBe(200);

    const owner = await enrol(tenant.owner);
    const set = await api.request('PUT', settingsPath(tenant), { token: owner.token, body: { security: { requireTwoFactor: true } } });
    expect(set.status).toBe(200);
    expect(set.body.security.requireTwoFactor).toBe(true);
    expect((await api.request('GET', `/api/v1/organizations/${tenant.organizationId}/members`, { token: owner.token })).status).toBe(200);
  });

  test('an API key may turn the requirement on (keys are not subject to it)', async () => {
    const tenant = await createTestTenant(api);
    const key = await createTestApiKey(api, tenant.organizationId, tenant.owner.token, 'admin');
    const set = await withKey(key.key, 'PUT', settingsPath(tenant), { security: { requireTwoFactor: true } });
    expect(set.status).toBe(200);
    expect((await storedSecurity(tenant)).requireTwoFactor).toBe(true);
  });
});

describe('other human acts', () => {
  test('an admin key cannot mint an admin key (a person can); it can mint a member key', async () => {
    const tenant = await createTestTenant(api);
    const path = `/api/v1/organizations/${tenant.organizationId}/api-keys`;
    const adminKey = await createTestApiKey(api, tenant.organizationId, tenant.owner.token, 'admin');
    const minted = await withKey(adminKey.key, 'POST', path, { name: 'minted', role: 'admin' });
    expect(minted.status).toBe(403);
    expect(minted.body.error).toMatchObject({ code: 'HUMAN_REQUIRED', message: expect.stringContaining('create an admin API key') });
    expect((await withKey(adminKey.key, 'POST', path, { name: 'ci', role: 'member' })).status).toBe(201);
    const keys = await api.request('GET', `${path}?limit=100`, { token: tenant.owner.token });
    expect((keys.body.data as { name: string }[]).map((k) => k.name).sort()).toEqual(['ci', 'key-admin']);
  });

  test('an admin key cannot make anyone an admin (invitation or role change); a person can', async () => {
    const tenant = await createTestTenant(api);
    const orgPath = `/api/v1/organizations/${tenant.organizationId}`;
    const adminKey = await createTestApiKey(api, tenant.organizationId, tenant.owner.token, 'admin');
    const invite = await withKey(adminKey.key, 'POST', `${orgPath}/invitations`, { email: `ally-${randomUUID()}@example.com`, role: 'admin' });
    expect(invite.status).toBe(403);
    expect(invite.body.error).toMatchObject({ code: 'HUMAN_REQUIRED', message: expect.stringContaining('grant the admin role') });
    expect(await api.deps.db('invitations').where({ organization_id: tenant.organizationId }).count<{ count: string }[]>('* as count')).toEqual([{ count: '0' }]);

    const member = await addTestMember(api, tenant, 'member');
    const promoted = await withKey(adminKey.key, 'PUT', `${orgPath}/members/${member.userId}`, { role: 'admin' });
    expect(promoted.status).toBe(403);
    expect(promoted.body.error.code).toBe('HUMAN_REQUIRED');
    // Within the member roles a key still manages people.
    expect((await withKey(adminKey.key, 'PUT', `${orgPath}/members/${member.userId}`, { role: 'viewer' })).status).toBe(200);
    expect((await api.request('PUT', `${orgPath}/members/${member.userId}`, { token: tenant.owner.token, body: { role: 'admin' } })).status).toBe(200);
    const row = await api.deps.db('memberships').where({ organization_id: tenant.organizationId, user_id: member.userId }).first('role');
    expect(row.role).toBe('admin');
  });

  test('a key cannot remove or widen the IP allowlist, nor lengthen the idle timeout; it can narrow them; a person can do both', async () => {
    const tenant = await createTestTenant(api);
    const key = await createTestApiKey(api, tenant.organizationId, tenant.owner.token, 'admin');
    const here = ['127.0.0.1', '::1'];
    const put = (body: unknown, as: { key: string } | { token: string }) =>
      'key' in as ? withKey(as.key, 'PUT', settingsPath(tenant), body) : api.request('PUT', settingsPath(tenant), { token: as.token, body });

    // From no allowlist to one: a narrowing, so a key may.
    expect((await put({ security: { ipAllowlist: [...here, '10.1.0.0/16'], sessionTimeoutMinutes: 30 } }, key)).status).toBe(200);
    for (const loosening of [
      { security: { ipAllowlist: [] } },
      { security: { ipAllowlist: [...here, '10.0.0.0/8'] } },
      { security: { ipAllowlist: [...here, '10.1.0.0/16', '192.0.2.1'] } },
      { security: { sessionTimeoutMinutes: 60 } },
      { security: { sessionTimeoutMinutes: null } },
    ]) {
      const res = await put(loosening, key);
      expect({ body: loosening, status: res.status, code: res.body.error?.code }).toEqual({ body: loosening, status: 403, code: 'HUMAN_REQUIRED' });
    }
    expect(await storedSecurity(tenant)).toMatchObject({ ipAllowlist: ['127.0.0.1/32', '::1/128', '10.1.0.0/16'], sessionTimeoutMinutes: 30 });

    // Narrowing is not a human act: one block dropped, another inside a listed one, a shorter timeout.
    expect((await put({ security: { ipAllowlist: [...here, '10.1.2.0/24'], sessionTimeoutMinutes: 20 } }, key)).status).toBe(200);
    // A person removes it.
    expect((await put({ security: { ipAllowlist: [], sessionTimeoutMinutes: null } }, { token: tenant.owner.token })).status).toBe(200);
    expect(await storedSecurity(tenant)).toMatchObject({ ipAllowlist: [], sessionTimeoutMinutes: null });
  });
});
