import { randomUUID } from 'node:crypto';
import { ensureAuditRetentionSchedule } from '../../domain/audit/schedules';
import { startApi, type TestApi } from '../helpers/stack';
import { addTestMember, createTestTenant, createTestUser, type TestTenant } from '../helpers/tenants';

let api: TestApi;
beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
});

const orgPath = (t: TestTenant, rest = '') => `/api/v1/organizations/${t.organizationId}${rest}`;

describe('create, list, get, update', () => {
  test('the creator becomes owner, the slug is derived, default settings are applied', async () => {
    const user = await createTestUser(api);
    const res = await api.request('POST', '/api/v1/organizations', { token: user.token, body: { name: `Ünïcode & Co ${randomUUID().slice(0, 6)}` } });
    expect(res.status).toBe(201);
    expect(res.body.slug).toMatch(/^unicode-co-[a-z0-9]{6}$/);
    expect(res.body.role).toBe('owner');
    expect(res.body.plan).toBe('free');
    const membership = await api.deps.db('memberships').where({ organization_id: res.body.id }).first();
    expect(membership).toMatchObject({ user_id: user.userId, role: 'owner' });
    const settings = await api.request('GET', `/api/v1/organizations/${res.body.id}/settings`, { token: user.token });
    expect(settings.status).toBe(200);
    expect(settings.body.general).toMatchObject({ timezone: 'UTC', language: 'en' });
    expect(settings.body.security).toMatchObject({ requireTwoFactor: false, ipAllowlist: [], auditLogRetentionDays: 365 });

    const list = await api.request('GET', '/api/v1/organizations', { token: user.token });
    expect(list.body.data.map((o: { id: string }) => o.id)).toContain(res.body.id);
    const audit = await api.deps.db('audit_logs').where({ organization_id: res.body.id, action: 'organization.created' });
    expect(audit).toHaveLength(1);
  });

  test('a taken slug answers 409 SLUG_TAKEN, explicit or derived', async () => {
    const user = await createTestUser(api);
    const slug = `taken-${randomUUID().slice(0, 8)}`;
    expect((await api.request('POST', '/api/v1/organizations', { token: user.token, body: { name: 'A', slug } })).status).toBe(201);
    const again = await api.request('POST', '/api/v1/organizations', { token: user.token, body: { name: 'B', slug } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('SLUG_TAKEN');
    const derived = await api.request('POST', '/api/v1/organizations', { token: user.token, body: { name: slug } });
    expect(derived.body.error.code).toBe('SLUG_TAKEN');
  });

  test('bad input is a 400 in the envelope', async () => {
    const user = await createTestUser(api);
    for (const body of [{}, { name: '' }, { name: 'x', slug: 'Bad Slug' }, { name: 'x', extra: 1 }]) {
      const res = await api.request('POST', '/api/v1/organizations', { token: user.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  test('the per-user maximum is enforced (409 ORGANIZATION_LIMIT)', async () => {
    const limited = await startApi({ SERVICE_MAX_ORGANIZATIONS_PER_USER: '2' });
    try {
      const user = await createTestUser(limited);
      for (let i = 0; i < 2; i++) {
        expect((await limited.request('POST', '/api/v1/organizations', { token: user.token, body: { name: `Lim ${randomUUID()}` } })).status).toBe(201);
      }
      const third = await limited.request('POST', '/api/v1/organizations', { token: user.token, body: { name: `Lim ${randomUUID()}` } });
      expect(third.status).toBe(409);
      expect(third.body.error.code).toBe('ORGANIZATION_LIMIT');
    } finally {
      await limited.close();
    }
  });

  test('update name and slug; list paginates with a cursor', async () => {
    const t = await createTestTenant(api);
    const slug = `renamed-${randomUUID().slice(0, 8)}`;
    const res = await api.request('PUT', orgPath(t), { token: t.owner.token, body: { name: 'Renamed', slug } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', slug });

    const user = await createTestUser(api);
    for (let i = 0; i < 3; i++) await api.request('POST', '/api/v1/organizations', { token: user.token, body: { name: `Page ${randomUUID()}` } });
    const first = await api.request('GET', '/api/v1/organizations?limit=2', { token: user.token });
    expect(first.body.data).toHaveLength(2);
    const second = await api.request('GET', `/api/v1/organizations?limit=2&cursor=${first.body.nextCursor}`, { token: user.token });
    expect(second.body.data).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    const bad = await api.request('GET', '/api/v1/organizations?cursor=nonsense', { token: user.token });
    expect(bad.status).toBe(400);
  });
});

describe('members, last owner and ownership transfer', () => {
  test('list members with pagination', async () => {
    const t = await createTestTenant(api);
    for (let i = 0; i < 3; i++) await addTestMember(api, t, 'member');
    const page = await api.request('GET', orgPath(t, '/members?limit=3'), { token: t.owner.token });
    expect(page.status).toBe(200);
    expect(page.body.data).toHaveLength(3);
    const rest = await api.request('GET', orgPath(t, `/members?limit=3&cursor=${page.body.nextCursor}`), { token: t.owner.token });
    expect(rest.body.data).toHaveLength(1);
    const ids = [...page.body.data, ...rest.body.data].map((m: { userID: string }) => m.userID);
    expect(new Set(ids).size).toBe(4);
  });

  test('the last owner can be neither demoted nor removed, nor leave', async () => {
    const t = await createTestTenant(api);
    const demote = await api.request('PUT', orgPath(t, `/members/${t.owner.userId}`), { token: t.owner.token, body: { role: 'admin' } });
    expect(demote.status).toBe(409);
    expect(demote.body.error.code).toBe('LAST_OWNER');
    const leave = await api.request('DELETE', orgPath(t, `/members/${t.owner.userId}`), { token: t.owner.token });
    expect(leave.body.error.code).toBe('LAST_OWNER');
    expect(await api.deps.db('memberships').where({ organization_id: t.organizationId, role: 'owner' })).toHaveLength(1);
  });

  test('only an owner grants or removes owner; with two owners one may step down', async () => {
    const t = await createTestTenant(api);
    const admin = await addTestMember(api, t, 'admin');
    const member = await addTestMember(api, t, 'member');
    const grant = await api.request('PUT', orgPath(t, `/members/${member.userId}`), { token: admin.token, body: { role: 'owner' } });
    expect(grant.status).toBe(403);
    const removeOwner = await api.request('DELETE', orgPath(t, `/members/${t.owner.userId}`), { token: admin.token });
    expect(removeOwner.status).toBe(403);

    const ok = await api.request('PUT', orgPath(t, `/members/${member.userId}`), { token: t.owner.token, body: { role: 'owner' } });
    expect(ok.status).toBe(200);
    expect(ok.body.role).toBe('owner');
    const stepDown = await api.request('PUT', orgPath(t, `/members/${t.owner.userId}`), { token: t.owner.token, body: { role: 'viewer' } });
    expect(stepDown.status).toBe(200);
    // The demotion applies at once to the token already issued.
    const denied = await api.request('PUT', orgPath(t), { token: t.owner.token, body: { name: 'nope' } });
    expect(denied.status).toBe(403);
  });

  test('a removed member loses access at once; a member may leave', async () => {
    const t = await createTestTenant(api);
    const member = await addTestMember(api, t, 'member');
    const viewer = await addTestMember(api, t, 'viewer');
    expect((await api.request('GET', orgPath(t), { token: member.token })).status).toBe(200);
    expect((await api.request('DELETE', orgPath(t, `/members/${member.userId}`), { token: t.owner.token })).status).toBe(204);
    expect((await api.request('GET', orgPath(t), { token: member.token })).status).toBe(404);
    expect((await api.request('DELETE', orgPath(t, `/members/${viewer.userId}`), { token: viewer.token })).status).toBe(204);
    expect((await api.request('GET', orgPath(t), { token: viewer.token })).status).toBe(404);
    const actions = (await api.deps.db('audit_logs').where({ organization_id: t.organizationId }).select('action')).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['member.removed', 'member.left']));
  });

  test('ownership transfer: target becomes owner, the caller admin; only owners may transfer', async () => {
    const t = await createTestTenant(api);
    const admin = await addTestMember(api, t, 'admin');
    const member = await addTestMember(api, t, 'member');
    expect((await api.request('POST', orgPath(t, '/transfer-ownership'), { token: admin.token, body: { userID: admin.userId } })).status).toBe(403);
    const outsider = await createTestUser(api);
    const notMember = await api.request('POST', orgPath(t, '/transfer-ownership'), { token: t.owner.token, body: { userID: outsider.userId } });
    expect(notMember.status).toBe(404);
    const res = await api.request('POST', orgPath(t, '/transfer-ownership'), { token: t.owner.token, body: { userID: member.userId } });
    expect(res.status).toBe(204);
    const roles = Object.fromEntries(
      (await api.deps.db('memberships').where({ organization_id: t.organizationId })).map((m) => [m.user_id, m.role]),
    );
    expect(roles[member.userId]).toBe('owner');
    expect(roles[t.owner.userId]).toBe('admin');
    // The former owner can no longer transfer or delete.
    expect((await api.request('POST', orgPath(t, '/transfer-ownership'), { token: t.owner.token, body: { userID: admin.userId } })).status).toBe(403);
  });
});

describe('audit log', () => {
  test('mutations are recorded with actor, IP and user agent; filters and pagination work; secrets are masked', async () => {
    const t = await createTestTenant(api);
    const member = await addTestMember(api, t, 'member');
    await api.request('PUT', orgPath(t), { token: t.owner.token, body: { name: 'Audited' }, headers: { 'user-agent': 'audit-test/1' } });
    await api.request('PUT', orgPath(t, `/members/${member.userId}`), { token: t.owner.token, body: { role: 'viewer' } });
    await api.request('PUT', orgPath(t, '/settings'), {
      token: t.owner.token,
      body: {
        security: { auditLogRetentionDays: 90 },
        integration: { thirdParty: { crm: { config: { region: 'eu' }, secrets: { apiToken: 'super-secret-value-1234' } } } },
      },
    });

    const all = await api.request('GET', orgPath(t, '/audit-logs'), { token: t.owner.token });
    expect(all.status).toBe(200);
    const actions = all.body.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual(['settings.updated', 'member.role_changed', 'organization.updated']);
    const renamed = all.body.data[2];
    expect(renamed).toMatchObject({
      actor: { type: 'user', id: t.owner.userId },
      target: { type: 'organization', id: t.organizationId },
      userAgent: 'audit-test/1',
      changes: { after: { name: 'Audited' } },
    });
    expect(renamed.ip).toMatch(/127\.0\.0\.1/);
    const settingsEntry = all.body.data[0];
    expect(settingsEntry.changes.before.security).toEqual({ auditLogRetentionDays: 365 });
    expect(settingsEntry.changes.after.security).toEqual({ auditLogRetentionDays: 90 });
    expect(JSON.stringify(settingsEntry)).not.toContain('super-secret-value');

    const filtered = await api.request('GET', orgPath(t, '/audit-logs?action=member.*'), { token: t.owner.token });
    expect(filtered.body.data.map((e: { action: string }) => e.action)).toEqual(['member.role_changed']);
    const byActor = await api.request('GET', orgPath(t, `/audit-logs?actor=${member.userId}`), { token: t.owner.token });
    expect(byActor.body.data).toHaveLength(0);
    const future = await api.request('GET', orgPath(t, `/audit-logs?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`), { token: t.owner.token });
    expect(future.body.data).toHaveLength(0);
    const page1 = await api.request('GET', orgPath(t, '/audit-logs?limit=2'), { token: t.owner.token });
    const page2 = await api.request('GET', orgPath(t, `/audit-logs?limit=2&cursor=${page1.body.nextCursor}`), { token: t.owner.token });
    expect([...page1.body.data, ...page2.body.data].map((e: { action: string }) => e.action)).toEqual(actions);
  });

  test('the retention purge deletes entries older than the organization retention', async () => {
    const t = await createTestTenant(api);
    await api.deps.db('organizations').where({ id: t.organizationId }).update({ settings: JSON.stringify({ security: { auditLogRetentionDays: 30 } }) });
    await api.deps.db('audit_logs').insert([
      { organization_id: t.organizationId, actor_type: 'system', action: 'old.entry', created_at: new Date(Date.now() - 40 * 86_400_000) },
      { organization_id: t.organizationId, actor_type: 'system', action: 'recent.entry', created_at: new Date(Date.now() - 10 * 86_400_000) },
    ]);
    // Through the Temporal Schedule, triggered now rather than waiting a day.
    const { scheduleId, created } = await ensureAuditRetentionSchedule(api.deps.temporal, api.config.temporal.taskQueue);
    expect(created).toBe(true);
    expect((await ensureAuditRetentionSchedule(api.deps.temporal, api.config.temporal.taskQueue)).created).toBe(false);
    const schedule = api.deps.temporal.schedule.getHandle(scheduleId);
    try {
      await schedule.trigger();
      const deadline = Date.now() + 30_000;
      let left: string[] = [];
      do {
        await new Promise((r) => setTimeout(r, 200));
        left = (await api.deps.db('audit_logs').where({ organization_id: t.organizationId })).map((r) => r.action);
      } while (left.length > 1 && Date.now() < deadline);
      expect(left).toEqual(['recent.entry']);
    } finally {
      await schedule.delete();
    }
  });
});
