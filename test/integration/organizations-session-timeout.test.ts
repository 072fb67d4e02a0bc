import { randomUUID } from 'node:crypto';
import { createTokenService } from '../../domain/auth/tokens';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, createTestUser, type TestTenant, type TestUser } from '../helpers/tenants';

/**
 * `security.sessionTimeoutMinutes` (docs/organizations.md#session-timeout): a session unused for longer than an
 * organization allows is refused by every request made with the organization active (user endpoints and refresh
 * included) and by requests that name the organization in their path; the platform's idle timeout (30 minutes
 * here) still bounds everything. Idleness is set up by moving the session's last use back in PostgreSQL.
 */
let api: TestApi;
let strict: TestTenant; // policy: 5 minutes
let relaxed: TestTenant; // no policy
beforeAll(async () => {
  api = await startApi();
  [strict, relaxed] = await Promise.all([createTestTenant(api), createTestTenant(api)]);
  const res = await api.request('PUT', `/api/v1/organizations/${strict.organizationId}/settings`, {
    token: strict.owner.token,
    body: { security: { sessionTimeoutMinutes: 5 } },
  });
  expect(res.status).toBe(200);
  expect(res.body.security.sessionTimeoutMinutes).toBe(5);
});
afterAll(() => api.close());

async function idleFor(user: TestUser, minutes: number): Promise<void> {
  await api.deps.db('sessions')
    .where({ id: user.sessionId })
    .update({ updated_at: api.deps.db.raw(`now() - make_interval(mins => ?)`, [minutes]) });
}

async function member(tenant: TestTenant, activeOrganizationId = tenant.organizationId): Promise<TestUser> {
  const user = await createTestUser(api, activeOrganizationId);
  await api.deps.db('memberships').insert({ organization_id: tenant.organizationId, user_id: user.userId, role: 'member' });
  return user;
}

const refresh = (user: TestUser) => api.request('POST', '/api/auth/refresh', { body: { refreshToken: user.refreshToken } });

test('idle longer than the active organization allows: tenant requests, user endpoints and refresh are refused', async () => {
  const user = await member(strict);
  await idleFor(user, 6);
  for (const path of ['/api/v1/workflows', '/api/auth/me']) {
    const res = await api.request('GET', path, { token: user.token });
    expect({ path, status: res.status, body: res.body }).toEqual({
      path,
      status: 401,
      body: { error: { code: 'SESSION_EXPIRED', message: 'session expired (idle)', request_id: expect.any(String) } },
    });
  }
  expect((await refresh(user)).body).toEqual({ error: { code: 'SESSION_EXPIRED', message: 'session expired', request_id: expect.any(String) } });
});

test('within the policy, or in an organization without one, the same idleness is fine', async () => {
  const inside = await member(strict);
  await idleFor(inside, 4);
  expect((await api.request('GET', '/api/v1/workflows', { token: inside.token })).status).toBe(200);
  const refreshed = await refresh(inside);
  expect(refreshed.status).toBe(200);

  const elsewhere = await member(relaxed);
  await idleFor(elsewhere, 6);
  expect((await api.request('GET', '/api/v1/workflows', { token: elsewhere.token })).status).toBe(200);
  expect((await refresh(elsewhere)).status).toBe(200);
});

test('an organization named in the path applies its policy to a session active elsewhere, and ends that session', async () => {
  // Active in the relaxed organization, also a member of the strict one.
  const user = await member(relaxed);
  await api.deps.db('memberships').insert({ organization_id: strict.organizationId, user_id: user.userId, role: 'member' });
  await idleFor(user, 6);
  expect((await api.request('GET', `/api/v1/organizations/${relaxed.organizationId}`, { token: user.token })).status).toBe(200);
  // That request counted as activity; make the session idle again before asking the strict organization.
  await idleFor(user, 6);
  const res = await api.request('GET', `/api/v1/organizations/${strict.organizationId}`, { token: user.token });
  expect(res.status).toBe(401);
  expect(res.body).toEqual({
    error: { code: 'SESSION_EXPIRED', message: 'session expired (idle longer than this organization allows); log in again', request_id: expect.any(String) },
  });
  // Ended, not only refused: the request above bumped the idle clock, yet nothing works with the session any more.
  expect(await api.deps.db('sessions').where({ id: user.sessionId }).first()).toBeUndefined();
  expect((await api.request('GET', '/api/auth/me', { token: user.token })).status).toBe(401);
  expect((await refresh(user)).status).toBe(401);
});

test('a policy longer than the platform idle timeout does not extend it', async () => {
  const lenient = await createTestTenant(api);
  const set = await api.request('PUT', `/api/v1/organizations/${lenient.organizationId}/settings`, {
    token: lenient.owner.token,
    body: { security: { sessionTimeoutMinutes: 600 } },
  });
  expect(set.status).toBe(200);
  const user = await member(lenient);
  await idleFor(user, 31);
  expect((await api.request('GET', '/api/v1/workflows', { token: user.token })).body.error.code).toBe('SESSION_EXPIRED');
});

test('clearing the policy (null) returns to the platform idle timeout', async () => {
  const tenant = await createTestTenant(api);
  const put = (minutes: number | null) =>
    api.request('PUT', `/api/v1/organizations/${tenant.organizationId}/settings`, {
      token: tenant.owner.token,
      body: { security: { sessionTimeoutMinutes: minutes } },
    });
  expect((await put(5)).status).toBe(200);
  const user = await member(tenant);
  await idleFor(user, 6);
  expect((await api.request('GET', '/api/v1/workflows', { token: user.token })).status).toBe(401);
  expect((await put(null)).status).toBe(200);
  const other = await member(tenant);
  await idleFor(other, 6);
  expect((await api.request('GET', '/api/v1/workflows', { token: other.token })).status).toBe(200);
});

test("switching to an organization applies its policy: an idle session is refused and ended, a recent one switches", async () => {
  const idle = await member(relaxed);
  await api.deps.db('memberships').insert({ organization_id: strict.organizationId, user_id: idle.userId, role: 'member' });
  await idleFor(idle, 6);
  const refused = await api.request('POST', '/api/auth/switch-organization', { token: idle.token, body: { organizationID: strict.organizationId } });
  expect(refused.status).toBe(401);
  expect(refused.body.error).toEqual({
    code: 'SESSION_EXPIRED',
    message: 'session expired (idle longer than this organization allows); log in again',
    request_id: expect.any(String),
  });
  expect(await api.deps.db('sessions').where({ id: idle.sessionId }).first()).toBeUndefined();

  const recent = await member(relaxed);
  await api.deps.db('memberships').insert({ organization_id: strict.organizationId, user_id: recent.userId, role: 'member' });
  await idleFor(recent, 4);
  const switched = await api.request('POST', '/api/auth/switch-organization', { token: recent.token, body: { organizationID: strict.organizationId } });
  expect(switched.status).toBe(200);
  // From now on the strict organization is active: its policy governs every request of the session.
  expect((await api.request('GET', '/api/v1/workflows', { token: switched.body.accessToken })).status).toBe(200);
  await idleFor(recent, 6);
  expect((await api.request('GET', '/api/auth/me', { token: switched.body.accessToken })).status).toBe(401);
});

test("GET /api/auth/sessions applies each session's organization policy, as requests do", async () => {
  const user = await member(strict);
  await api.deps.db('memberships').insert({ organization_id: relaxed.organizationId, user_id: user.userId, role: 'member' });
  const other = (activeOrganizationId: string | null, idleMinutes: number) => ({
    id: randomUUID(),
    user_id: user.userId,
    token: randomUUID(),
    expires_at: new Date(Date.now() + 86_400_000),
    active_organization_id: activeOrganizationId,
    updated_at: api.deps.db.raw('now() - make_interval(mins => ?)', [idleMinutes]),
  });
  const idleInStrict = other(strict.organizationId, 6); // past strict's 5 minutes: dead
  const recentInStrict = other(strict.organizationId, 2);
  const idleInRelaxed = other(relaxed.organizationId, 6); // no policy: the platform's 30 minutes
  const idleWithout = other(null, 6);
  const idleBeyondPlatform = other(relaxed.organizationId, 31);
  await api.deps.db('sessions').insert([idleInStrict, recentInStrict, idleInRelaxed, idleWithout, idleBeyondPlatform]);

  const list = await api.request('GET', '/api/auth/sessions', { token: user.token });
  expect(list.status).toBe(200);
  const ids = list.body.data.map((s: { id: string }) => s.id).sort();
  expect(ids).toEqual([user.sessionId, recentInStrict.id, idleInRelaxed.id, idleWithout.id].sort());
  // The list and the per-request check agree: the session left out is refused when used.
  const tokens = createTokenService(api.config.jwt);
  const access = tokens.signAccess({ userId: user.userId, email: user.email, sessionId: idleInStrict.id, organizationId: strict.organizationId });
  expect((await api.request('GET', '/api/auth/me', { token: access })).status).toBe(401);
});
