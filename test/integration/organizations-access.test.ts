import { randomUUID } from 'node:crypto';
import type { Role } from '../../lib/permissions';
import { hashToken } from '../../domain/organizations/apiKeyFormat';
import { waitForMail } from '../helpers/mail';
import { createNamedTestUser, createTestApiKey } from '../helpers/organizations';
import { startApi, type TestApi } from '../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant, type TestUser } from '../helpers/tenants';

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
});

const ALL: Role[] = ['owner', 'admin', 'member', 'viewer'];
const MANAGERS: Role[] = ['owner', 'admin'];

interface Fixture {
  t: TestTenant;
  users: Record<Role, TestUser>;
}

async function fixture(): Promise<Fixture> {
  const t = await createTestTenant(api, 'enterprise');
  const users = { owner: t.owner } as Record<Role, TestUser>;
  for (const role of ['admin', 'member', 'viewer'] as const) users[role] = await addTestMember(api, t, role);
  return { t, users };
}

async function pendingInvitation(t: TestTenant): Promise<string> {
  const [row] = await api.deps.db('invitations')
    .insert({
      organization_id: t.organizationId,
      email: `inv-${randomUUID()}@example.com`,
      role: 'member',
      token_hash: hashToken(randomUUID()),
      expires_at: new Date(Date.now() + 86_400_000),
    })
    .returning('id');
  return row.id;
}

async function apiKeyRow(t: TestTenant): Promise<string> {
  const [row] = await api.deps.db('api_keys')
    .insert({ organization_id: t.organizationId, name: 'k', role: 'viewer', prefix: 'loom_x', key_hash: hashToken(randomUUID()) })
    .returning('id');
  return row.id;
}

interface Case {
  name: string;
  method: string;
  allowed: Role[];
  /** Status an allowed role gets when not 2xx (the permission passed, a later rule answered). */
  allowedStatus?: number;
  /** Builds the path (and body) for one call; may create what the call acts on. */
  prepare(f: Fixture): Promise<{ path: string; body?: unknown }>;
}

const base = (f: Fixture) => `/api/v1/organizations/${f.t.organizationId}`;

const CASES: Case[] = [
  { name: 'get organization', method: 'GET', allowed: ALL, prepare: async (f) => ({ path: base(f) }) },
  { name: 'current organization', method: 'GET', allowed: ALL, prepare: async () => ({ path: '/api/v1/organization' }) },
  { name: 'update organization', method: 'PUT', allowed: MANAGERS, prepare: async (f) => ({ path: base(f), body: { name: 'Matrix' } }) },
  { name: 'list members', method: 'GET', allowed: ALL, prepare: async (f) => ({ path: `${base(f)}/members` }) },
  {
    name: 'change role',
    method: 'PUT',
    allowed: MANAGERS,
    prepare: async (f) => ({ path: `${base(f)}/members/${(await addTestMember(api, f.t, 'member')).userId}`, body: { role: 'viewer' } }),
  },
  {
    name: 'remove member',
    method: 'DELETE',
    allowed: MANAGERS,
    prepare: async (f) => ({ path: `${base(f)}/members/${(await addTestMember(api, f.t, 'member')).userId}` }),
  },
  {
    name: 'invite',
    method: 'POST',
    allowed: MANAGERS,
    prepare: async (f) => ({ path: `${base(f)}/invitations`, body: { email: `m-${randomUUID()}@example.com`, role: 'member' } }),
  },
  { name: 'list invitations', method: 'GET', allowed: MANAGERS, prepare: async (f) => ({ path: `${base(f)}/invitations` }) },
  { name: 'revoke invitation', method: 'DELETE', allowed: MANAGERS, prepare: async (f) => ({ path: `${base(f)}/invitations/${await pendingInvitation(f.t)}` }) },
  { name: 'resend invitation', method: 'POST', allowed: MANAGERS, prepare: async (f) => ({ path: `${base(f)}/invitations/${await pendingInvitation(f.t)}/resend` }) },
  { name: 'get settings', method: 'GET', allowed: ['owner', 'admin', 'member'], prepare: async (f) => ({ path: `${base(f)}/settings` }) },
  { name: 'update settings', method: 'PUT', allowed: MANAGERS, prepare: async (f) => ({ path: `${base(f)}/settings`, body: { general: { timezone: 'Europe/Paris' } } }) },
  { name: 'audit logs', method: 'GET', allowed: MANAGERS, prepare: async (f) => ({ path: `${base(f)}/audit-logs` }) },
  { name: 'create API key', method: 'POST', allowed: MANAGERS, prepare: async (f) => ({ path: `${base(f)}/api-keys`, body: { name: 'm', role: 'viewer' } }) },
  { name: 'list API keys', method: 'GET', allowed: MANAGERS, prepare: async (f) => ({ path: `${base(f)}/api-keys` }) },
  { name: 'revoke API key', method: 'DELETE', allowed: MANAGERS, prepare: async (f) => ({ path: `${base(f)}/api-keys/${await apiKeyRow(f.t)}` }) },
  { name: 'usage', method: 'GET', allowed: ALL, prepare: async (f) => ({ path: `${base(f)}/usage` }) },
  { name: 'change plan', method: 'PUT', allowed: ['owner'], prepare: async (f) => ({ path: `${base(f)}/plan`, body: { plan: 'enterprise' } }) },
  // The owner passes the permission and then fails the password check (the deletion itself is in the lifecycle tests).
  { name: 'delete organization', method: 'DELETE', allowed: ['owner'], allowedStatus: 401, prepare: async (f) => ({ path: base(f), body: { password: 'wrong-password' } }) },
];

describe('role x endpoint matrix', () => {
  let f: Fixture;
  beforeAll(async () => {
    f = await fixture();
  });

  const rows = CASES.flatMap((c) => ALL.map((role) => [c.name, role, c] as const));
  test.each(rows)('%s as %s', async (_name, role, c) => {
    const { path, body } = await c.prepare(f);
    const res = await api.request(c.method, path, { token: f.users[role].token, body });
    if (c.allowed.includes(role)) {
      if (c.allowedStatus) expect(res.status).toBe(c.allowedStatus);
      else expect([res.status, res.body?.error]).toEqual([expect.any(Number), undefined]);
      expect(res.status).not.toBe(403);
    } else {
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
  });

  test('transfer ownership: owner only', async () => {
    for (const role of ALL) {
      const g = await fixture();
      const target = await addTestMember(api, g.t, 'member');
      const res = await api.request('POST', `${base(g)}/transfer-ownership`, { token: g.users[role].token, body: { userID: target.userId } });
      expect([role, res.status]).toEqual([role, role === 'owner' ? 204 : 403]);
    }
  });

  test('members see general and security settings but not the integration group', async () => {
    const res = await api.request('GET', `${base(f)}/settings`, { token: f.users.member.token });
    expect(res.body.general).toBeDefined();
    expect(res.body.security).toBeDefined();
    expect(res.body.integration).toBeUndefined();
    const admin = await api.request('GET', `${base(f)}/settings`, { token: f.users.admin.token });
    expect(admin.body.integration).toBeDefined();
  });
});

describe('cross-tenant matrix', () => {
  test('a member of A using ids of B gets 404 everywhere, and nothing of B changes', async () => {
    const a = await fixture();
    const b = await fixture();
    const snapshot = async () => ({
      org: await api.deps.db('organizations').where({ id: b.t.organizationId }).first('name', 'slug', 'plan', 'settings', 'status'),
      members: await api.deps.db('memberships').where({ organization_id: b.t.organizationId }).orderBy('user_id').select('user_id', 'role'),
      invitations: await api.deps.db('invitations').where({ organization_id: b.t.organizationId }).orderBy('id').select('id', 'status', 'token_hash'),
      keys: await api.deps.db('api_keys').where({ organization_id: b.t.organizationId }).orderBy('id').select('id', 'revoked_at'),
    });
    const bInvitation = await pendingInvitation(b.t);
    const bKey = await apiKeyRow(b.t);
    const before = await snapshot();

    // Every path-scoped case, aimed at B by the owner of A.
    for (const c of CASES.filter((x) => x.name !== 'current organization')) {
      const { path, body } = await c.prepare(b);
      const res = await api.request(c.method, path, { token: a.users.owner.token, body });
      expect([c.name, res.status, res.body?.error?.code]).toEqual([c.name, 404, 'NOT_FOUND']);
    }
    const transfer = await api.request('POST', `${base(b)}/transfer-ownership`, { token: a.users.owner.token, body: { userID: b.users.member.userId } });
    expect(transfer.status).toBe(404);

    // B's sub-resource ids under A's path.
    const underA = [
      ['PUT', `${base(a)}/members/${b.users.member.userId}`, { role: 'viewer' }],
      ['DELETE', `${base(a)}/members/${b.users.member.userId}`, undefined],
      ['DELETE', `${base(a)}/invitations/${bInvitation}`, undefined],
      ['POST', `${base(a)}/invitations/${bInvitation}/resend`, undefined],
      ['DELETE', `${base(a)}/api-keys/${bKey}`, undefined],
      ['POST', `${base(a)}/transfer-ownership`, { userID: b.users.member.userId }],
    ] as const;
    for (const [method, path, body] of underA) {
      const res = await api.request(method, path, { token: a.users.owner.token, body });
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }

    // The members created by `prepare` above are B's own fixtures; compare only what existed before.
    const after = await snapshot();
    expect(after.org).toEqual(before.org);
    for (const m of before.members) expect(after.members).toContainEqual(m);
    for (const i of before.invitations) expect(after.invitations).toContainEqual(i);
    for (const k of before.keys) expect(after.keys).toContainEqual(k);
    const bAudit = await api.deps.db('audit_logs').where({ organization_id: b.t.organizationId });
    expect(bAudit).toHaveLength(0);
  });
});

describe('API keys', () => {
  test('create (shown once), use with Bearer and X-API-Key, list with last use, revoke', async () => {
    const t = await createTestTenant(api);
    const created = await api.request('POST', `/api/v1/organizations/${t.organizationId}/api-keys`, {
      token: t.owner.token,
      body: { name: 'ci', role: 'member' },
    });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^loom_[A-Za-z0-9_-]{43}$/);
    const key = created.body.key as string;
    expect(await api.deps.db('api_keys').where({ key_hash: hashToken(key) }).first()).toBeDefined();
    expect(JSON.stringify(await api.deps.db('api_keys').where({ id: created.body.id }).first())).not.toContain(key);

    const viaBearer = await api.request('GET', '/api/v1/organization', { headers: { authorization: `Bearer ${key}` } });
    expect(viaBearer.status).toBe(200);
    expect(viaBearer.body).toMatchObject({ id: t.organizationId, role: 'member' });
    const viaHeader = await api.request('GET', `/api/v1/organizations/${t.organizationId}/members`, { headers: { 'x-api-key': key } });
    expect(viaHeader.status).toBe(200);
    // The key's role applies: a member key cannot change settings.
    const write = await api.request('PUT', `/api/v1/organizations/${t.organizationId}`, { headers: { 'x-api-key': key }, body: { name: 'x' } });
    expect(write.status).toBe(403);
    // Another organization's id: 404.
    const other = await createTestTenant(api);
    expect((await api.request('GET', `/api/v1/organizations/${other.organizationId}`, { headers: { 'x-api-key': key } })).status).toBe(404);

    const list = await api.request('GET', `/api/v1/organizations/${t.organizationId}/api-keys`, { token: t.owner.token });
    const listed = list.body.data.find((k: { id: string }) => k.id === created.body.id);
    expect(listed).toMatchObject({ name: 'ci', role: 'member', prefix: key.slice(0, 12) });
    expect(listed.key).toBeUndefined();
    for (let i = 0; i < 50 && !(await api.deps.db('api_keys').where({ id: created.body.id }).first()).last_used_at; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await api.deps.db('api_keys').where({ id: created.body.id }).first()).last_used_at).not.toBeNull();

    expect((await api.request('DELETE', `/api/v1/organizations/${t.organizationId}/api-keys/${created.body.id}`, { token: t.owner.token })).status).toBe(204);
    const revoked = await api.request('GET', '/api/v1/organization', { headers: { 'x-api-key': key } });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error).toMatchObject({ code: 'INVALID_TOKEN', message: 'invalid token' });
  });

  test('expired and unknown keys are 401 INVALID_TOKEN; no key above the creator role; no owner keys', async () => {
    const t = await createTestTenant(api);
    const { id, key } = await createTestApiKey(api, t.organizationId, t.owner.token, 'viewer');
    await api.deps.db('api_keys').where({ id }).update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await api.request('GET', '/api/v1/organization', { headers: { authorization: `Bearer ${key}` } });
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('INVALID_TOKEN');
    const unknown = await api.request('GET', '/api/v1/organization', { headers: { 'x-api-key': 'loom_nope' } });
    expect(unknown.status).toBe(401);

    const past = await api.request('POST', `/api/v1/organizations/${t.organizationId}/api-keys`, {
      token: t.owner.token,
      body: { name: 'x', expiresAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(past.status).toBe(400);
    const owner = await api.request('POST', `/api/v1/organizations/${t.organizationId}/api-keys`, { token: t.owner.token, body: { name: 'x', role: 'owner' } });
    expect(owner.status).toBe(400);
    // An admin key may not mint an admin key: that is a person's act (403 HUMAN_REQUIRED, security/step-up.test.ts).
    const adminKey = await createTestApiKey(api, t.organizationId, t.owner.token, 'admin');
    const byKey = await api.request('POST', `/api/v1/organizations/${t.organizationId}/api-keys`, { headers: { 'x-api-key': adminKey.key }, body: { name: 'y', role: 'admin' } });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.code).toBe('HUMAN_REQUIRED');
    // Keys never delete the organization nor transfer ownership.
    const del = await api.request('DELETE', `/api/v1/organizations/${t.organizationId}`, { headers: { 'x-api-key': adminKey.key }, body: { password: 'x' } });
    expect(del.status).toBe(403);
  });
});

describe('IP allowlist', () => {
  test('validated, refuses to lock the caller out, enforced on users and API keys', async () => {
    const t = await createTestTenant(api);
    const path = `/api/v1/organizations/${t.organizationId}`;
    const { key } = await createTestApiKey(api, t.organizationId, t.owner.token, 'viewer');

    const invalid = await api.request('PUT', `${path}/settings`, { token: t.owner.token, body: { security: { ipAllowlist: ['300.1.1.1/8'] } } });
    expect(invalid.status).toBe(400);
    const lockout = await api.request('PUT', `${path}/settings`, { token: t.owner.token, body: { security: { ipAllowlist: ['10.0.0.0/8'] } } });
    expect(lockout.status).toBe(422);
    const ok = await api.request('PUT', `${path}/settings`, { token: t.owner.token, body: { security: { ipAllowlist: ['127.0.0.1', '::1', '10.0.0.0/8'] } } });
    expect(ok.status).toBe(200);
    expect(ok.body.security.ipAllowlist).toEqual(['127.0.0.1/32', '::1/128', '10.0.0.0/8']);
    expect((await api.request('GET', path, { token: t.owner.token })).status).toBe(200);

    // An allowlist without the caller (set out of band): every request to the organization is refused.
    const org = await api.deps.db('organizations').where({ id: t.organizationId }).first('settings');
    await api.deps.db('organizations').where({ id: t.organizationId }).update({ settings: JSON.stringify({ ...org.settings, security: { ...org.settings.security, ipAllowlist: ['10.0.0.0/8'] } }) });
    const user = await api.request('GET', path, { token: t.owner.token });
    expect(user.status).toBe(403);
    expect(user.body.error.code).toBe('IP_NOT_ALLOWED');
    const viaKey = await api.request('GET', '/api/v1/organization', { headers: { 'x-api-key': key } });
    expect(viaKey.body.error.code).toBe('IP_NOT_ALLOWED');
  });
});

describe('quotas', () => {
  test('members quota counts pending invitations (free plan: 3)', async () => {
    const t = await createTestTenant(api, 'free');
    const path = `/api/v1/organizations/${t.organizationId}/invitations`;
    await addTestMember(api, t, 'member');
    expect((await api.request('POST', path, { token: t.owner.token, body: { email: `q-${randomUUID()}@example.com` } })).status).toBe(201);
    const over = await api.request('POST', path, { token: t.owner.token, body: { email: `q-${randomUUID()}@example.com` } });
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('QUOTA_EXCEEDED');
    const usage = await api.request('GET', `/api/v1/organizations/${t.organizationId}/usage`, { token: t.owner.token });
    expect(usage.body.members).toEqual({ used: 3, pendingInvitations: 1, limit: 3 });
    // Revoking the invitation frees the seat.
    const pending = await api.request('GET', path, { token: t.owner.token });
    await api.request('DELETE', `${path}/${pending.body.data[0].id}`, { token: t.owner.token });
    expect((await api.request('POST', path, { token: t.owner.token, body: { email: `q-${randomUUID()}@example.com` } })).status).toBe(201);
    // Downgrading below the seats in use is refused; upgrading is through the billing provider.
    const up = await api.request('PUT', `/api/v1/organizations/${t.organizationId}/plan`, { token: t.owner.token, body: { plan: 'pro' } });
    expect(up.body.plan).toBe('pro');
    expect(await api.deps.db('billing_subscriptions').where({ organization_id: t.organizationId, status: 'active' }).first()).toMatchObject({ plan: 'pro', provider: 'local' });
    await addTestMember(api, t, 'viewer');
    const down = await api.request('PUT', `/api/v1/organizations/${t.organizationId}/plan`, { token: t.owner.token, body: { plan: 'free' } });
    expect(down.body.error.code).toBe('QUOTA_EXCEEDED');
  });

  test('API calls: counted per month, a warning at 80%, refused at the limit with Retry-After, alerts audited, sent as events and mail', async () => {
    const small = await startApi({ SERVICE_PLAN_FREE_API_CALLS: '10', SERVICE_USAGE_FLUSH_INTERVAL: '50ms' });
    try {
      const t = await createTestTenant(small, 'free');
      const owner = await createNamedTestUser(small, t.organizationId);
      await small.deps.db('memberships').insert({ organization_id: t.organizationId, user_id: owner.userId, role: 'owner' });
      const calls: number[] = [];
      for (let i = 0; i < 12; i++) calls.push((await small.request('GET', '/api/v1/organization', { token: owner.token })).status);
      expect(calls).toEqual([...Array(10).fill(200), 429, 429]);
      const refused = await small.request('GET', '/api/v1/organization', { token: owner.token });
      expect(refused.body.error.code).toBe('QUOTA_EXCEEDED');
      expect(refused.body.error.message).toMatch(/10 API calls/);
      // Until the month ends (UTC).
      const retryAfter = Number(refused.headers.get('retry-after'));
      const now = new Date();
      const monthEnd = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
      expect(retryAfter).toBeGreaterThan(0);
      expect(Math.abs(retryAfter - (monthEnd - now.getTime()) / 1000)).toBeLessThan(60);

      const usage = await small.request('GET', `/api/v1/organizations/${t.organizationId}/usage`, { token: owner.token });
      expect(usage.status).toBe(200);
      expect(usage.body.apiCalls.limit).toBe(10);
      expect(usage.body.apiCalls.used).toBeGreaterThanOrEqual(10);

      // One warning at 80% (the 8th call) and one alert at the limit, each mailed (text and HTML), audited and sent as an event.
      const warning = await waitForMail(owner.email, /has used 80% of its API call quota/);
      expect(warning.text).toMatch(/used 8 of its 10 API calls/);
      expect(warning.html).toMatch(/<h1[^>]*>API call quota at 80%<\/h1>/);
      const reached = await waitForMail(owner.email, /reached its API call quota/);
      expect(reached.html).toContain('QUOTA_EXCEEDED');
      const alerts = await small.deps.db('quota_alerts').where({ organization_id: t.organizationId }).orderBy('quota');
      expect(alerts.map((a: { quota: string }) => a.quota)).toEqual(['api_calls', 'api_calls_80']);
      const audit = await small.deps.db('audit_logs').where({ organization_id: t.organizationId }).whereIn('action', ['organization.quota_warning', 'organization.quota_exceeded']).orderBy('created_at');
      expect(audit.map((a: { action: string }) => a.action)).toEqual(['organization.quota_warning', 'organization.quota_exceeded']);
      const events = await small.deps.db('outbox_events').where({ organization_id: t.organizationId }).whereIn('type', ['organization.quota_warning', 'organization.quota_exceeded']);
      expect(events.map((e: { type: string }) => e.type).sort()).toEqual(['organization.quota_exceeded', 'organization.quota_warning']);
      expect(events.find((e: { type: string }) => e.type === 'organization.quota_warning').payload).toMatchObject({ quota: 'api_calls', used: 8, limit: 10 });

      // Shared across instances: a second API sees the stored count once flushed.
      const other = await startApi({ SERVICE_PLAN_FREE_API_CALLS: '10' });
      try {
        for (let i = 0; i < 100; i++) {
          const row = await other.deps.db('organization_usage').where({ organization_id: t.organizationId }).first();
          if (row && Number(row.api_calls) >= 10) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        const res = await other.request('GET', '/api/v1/organization', { token: owner.token });
        expect(res.status).toBe(429);
      } finally {
        await other.close();
      }
    } finally {
      await small.close();
    }
  });
});
