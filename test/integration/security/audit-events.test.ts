import { randomUUID } from 'node:crypto';
import { uploadContent } from '../../helpers/content';
import { waitForMail } from '../../helpers/mail';
import { createTestApiKey } from '../../helpers/organizations';
import { createWorkflowFixture, RUN_TEST_CONFIG, startRun, toolNode, waitForRun } from '../../helpers/runs';
import { startApi, type TestApi } from '../../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant } from '../../helpers/tenants';

/**
 * Security events are audited with actor, IP and user agent (docs/auth.md#security-events): account events at
 * GET /api/auth/security-events (the account's owner), organization events at GET .../audit-logs.
 */

let api: TestApi;
const PASSWORD = 'Corr3ct-Horse-Battery!';
const NEW_PASSWORD = 'Fresh-Stapl3-Battery!';

beforeAll(async () => {
  api = await startApi({ ...RUN_TEST_CONFIG, SERVICE_TRUST_PROXY: 'true' });
});
afterAll(() => api.close());

interface Entry {
  action: string;
  organizationID: string | null;
  actor: { type: string; id: string | null };
  target: { type: string; id: string | null } | null;
  ip: string | null;
  userAgent: string | null;
  changes: { before: unknown; after: unknown } | null;
}

const from = (ip: string, agent: string) => ({ 'x-forwarded-for': ip, 'user-agent': agent });

describe('account events', () => {
  test('login, refresh reuse, sessions, password change and reset: each with actor, IP and user agent, visible to the account only', async () => {
    const email = `audited-${randomUUID().slice(0, 8)}@example.com`;
    const registered = await api.request('POST', '/api/auth/register', { body: { email, password: PASSWORD } });
    expect(registered.status).toBe(201);
    const userId = registered.body.user.id as string;
    const victim = from('10.1.1.1', 'victim-browser/1');
    const attacker = from('10.6.6.6', 'attacker-script/1');
    const login = (password: string, headers: Record<string, string>) =>
      api.request('POST', '/api/auth/login', { body: { email, password }, headers });

    expect((await login('Wrong-Passw0rd!', attacker)).status).toBe(401);
    // An unknown address is recorded too, with no account named; the answer is the same as a wrong password.
    const ghost = `ghost-${randomUUID().slice(0, 8)}@example.com`;
    const unknown = await api.request('POST', '/api/auth/login', { body: { email: ghost, password: 'Wrong-Passw0rd!' }, headers: from('10.6.6.7', 'ghost/1') });
    expect(unknown.status).toBe(401);
    expect(await api.deps.db('audit_logs').where({ action: 'auth.login_failed', user_agent: 'ghost/1' }).whereNull('user_id').whereNull('organization_id')).toHaveLength(1);

    const first = await login(PASSWORD, victim);
    expect(first.status).toBe(200);
    const refresh = (token: string) => api.request('POST', '/api/auth/refresh', { body: { refreshToken: token }, headers: attacker });
    const successor = await refresh(first.body.tokens.refreshToken);
    expect(successor.status).toBe(200);
    // Two rotations old: outside the reuse grace's reach (which answers only the immediately previous token).
    expect((await refresh(successor.body.refreshToken)).status).toBe(200);
    const reused = await refresh(first.body.tokens.refreshToken);
    expect(reused.status).toBe(401);

    const second = (await login(PASSWORD, victim)).body.tokens.accessToken as string;
    const third = (await login(PASSWORD, victim)).body.tokens.accessToken as string;
    const thirdSession = (await api.request('GET', '/api/auth/me', { token: third })).body.sessionId as string;
    expect((await api.request('DELETE', `/api/auth/sessions/${thirdSession}`, { token: second, headers: victim })).status).toBe(204);
    expect((await api.request('POST', '/api/auth/logout', { token: second, headers: victim })).status).toBe(204);

    const fourth = (await login(PASSWORD, victim)).body.tokens.accessToken as string;
    const changed = await api.request('POST', '/api/auth/password', {
      token: fourth,
      headers: victim,
      body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(changed.status).toBe(200);

    expect((await api.request('POST', '/api/auth/password-reset/request', { body: { email }, headers: victim })).status).toBe(202);
    const mail = await waitForMail(email, /Reset your Loom password/);
    const code = /Reset code: (\S+)/.exec(mail.text ?? '')![1]!;
    const confirmed = await api.request('POST', '/api/auth/password-reset/confirm', { body: { token: code, password: PASSWORD }, headers: victim });
    expect(confirmed.status).toBe(204);

    const reader = (await login(PASSWORD, victim)).body.tokens.accessToken as string;
    const listed = await api.request('GET', '/api/auth/security-events?limit=100', { token: reader });
    expect(listed.status).toBe(200);
    const events = listed.body.data as Entry[];
    const one = (action: string) => {
      const found = events.filter((e) => e.action === action);
      expect(found.length).toBeGreaterThanOrEqual(1);
      return found[0]!;
    };

    expect(one('auth.login_failed')).toMatchObject({ organizationID: null, actor: { type: 'anonymous', id: null }, ip: '10.6.6.6', userAgent: 'attacker-script/1' });
    expect(one('auth.login_succeeded')).toMatchObject({ actor: { type: 'user', id: userId }, ip: '10.1.1.1', userAgent: 'victim-browser/1', target: { type: 'session' } });
    expect(one('auth.refresh_reuse_detected')).toMatchObject({ actor: { type: 'anonymous' }, ip: '10.6.6.6', userAgent: 'attacker-script/1', changes: { after: { sessionRevoked: true } } });
    expect(one('auth.session_revoked')).toMatchObject({ actor: { type: 'user', id: userId }, target: { type: 'session', id: thirdSession }, ip: '10.1.1.1', userAgent: 'victim-browser/1' });
    expect(one('auth.logout')).toMatchObject({ actor: { type: 'user', id: userId }, ip: '10.1.1.1' });
    expect(one('auth.password_changed')).toMatchObject({ actor: { type: 'user', id: userId }, ip: '10.1.1.1', userAgent: 'victim-browser/1', changes: { after: { sessionsRevoked: expect.any(Number) } } });
    expect(one('auth.password_reset_requested')).toMatchObject({ actor: { type: 'anonymous' }, ip: '10.1.1.1', userAgent: 'victim-browser/1' });
    expect(one('auth.password_reset_completed')).toMatchObject({ actor: { type: 'anonymous' }, ip: '10.1.1.1', userAgent: 'victim-browser/1' });
    // No secret ever lands in an entry.
    expect(JSON.stringify(events)).not.toMatch(new RegExp(`${PASSWORD}|${NEW_PASSWORD}|${code}`));

    // Another account sees none of them.
    const other = `other-${randomUUID().slice(0, 8)}@example.com`;
    const otherToken = (await api.request('POST', '/api/auth/register', { body: { email: other, password: PASSWORD } })).body.tokens.accessToken as string;
    const theirs = await api.request('GET', '/api/auth/security-events', { token: otherToken });
    expect(theirs.status).toBe(200);
    expect(theirs.body.data).toEqual([]);
    expect((await api.request('GET', '/api/auth/security-events')).status).toBe(401);
  });
});

describe('organization events', () => {
  let tenant: TestTenant;
  const owner = from('10.2.2.2', 'owner-cli/2');

  beforeAll(async () => {
    tenant = await createTestTenant(api);
  });

  async function orgEvents(action: string): Promise<Entry[]> {
    const res = await api.request('GET', `/api/v1/organizations/${tenant.organizationId}/audit-logs?action=${action}&limit=100`, { token: tenant.owner.token });
    expect(res.status).toBe(200);
    return res.body.data as Entry[];
  }
  const byOwner = { actor: { type: 'user', id: '' }, ip: '10.2.2.2', userAgent: 'owner-cli/2' };
  beforeAll(() => {
    byOwner.actor.id = tenant.owner.userId;
  });

  test('workflow created, updated, deleted', async () => {
    const created = await api.request('POST', '/api/v1/workflows', {
      token: tenant.owner.token,
      headers: owner,
      body: { name: 'audited', dag: { nodes: [toolNode('a', 'json_transform', { expression: '1' })], edges: [] } },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await api.request('PUT', `/api/v1/workflows/${id}`, { token: tenant.owner.token, headers: owner, body: { name: 'renamed' } })).status).toBe(200);
    expect((await api.request('DELETE', `/api/v1/workflows/${id}`, { token: tenant.owner.token, headers: owner })).status).toBe(204);

    const target = { type: 'workflow', id };
    expect(await orgEvents('workflow.created')).toContainEqual(expect.objectContaining({ ...byOwner, target }));
    expect(await orgEvents('workflow.updated')).toContainEqual(
      expect.objectContaining({ ...byOwner, target, changes: { before: { name: 'audited' }, after: { name: 'renamed' } } }),
    );
    expect(await orgEvents('workflow.deleted')).toContainEqual(expect.objectContaining({ ...byOwner, target }));
  });

  test('run started and cancelled', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, { nodes: [toolNode('wait', 'delay', { ms: 120_000 })] });
    const started = await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, { token: tenant.owner.token, headers: owner, body: { parameters: {} } });
    expect(started.status).toBe(201);
    const runId = started.body.id as string;
    await waitForRun(api, tenant.owner.token, workflowId, runId, (r) => r.node_states?.wait?.status === 'running');
    const cancelled = await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${runId}/cancel`, { token: tenant.owner.token, headers: owner });
    expect(cancelled.status).toBe(200);

    const target = { type: 'run', id: runId };
    expect(await orgEvents('run.started')).toContainEqual(expect.objectContaining({ ...byOwner, target }));
    expect(await orgEvents('run.cancelled')).toContainEqual(expect.objectContaining({ ...byOwner, target }));
    // Starting a run with a helper (no explicit headers) is recorded as well.
    const another = await startRun(api, tenant.owner.token, workflowId);
    expect((await orgEvents('run.started')).map((e) => e.target?.id)).toContain(another.id);
    await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${another.id}/cancel`, { token: tenant.owner.token });
  });

  test('content deleted', async () => {
    const upload = await uploadContent(api, tenant.owner.token, { bytes: Buffer.from('to be deleted'), filename: 'd.txt', type: 'text/plain' });
    expect(upload.status).toBe(201);
    const id = upload.body.id as string;
    expect((await api.request('DELETE', `/api/v1/content/${id}`, { token: tenant.owner.token, headers: owner })).status).toBe(202);
    expect(await orgEvents('content.deleted')).toContainEqual(expect.objectContaining({ ...byOwner, target: { type: 'content', id } }));
  });

  test('403 on an organization route is recorded once per actor, route and minute, however often it is tried', async () => {
    const viewer = await addTestMember(api, tenant, 'viewer');
    const headers = from('10.3.3.3', 'curious-viewer/1');
    for (let i = 0; i < 5; i++) {
      const res = await api.request('POST', '/api/v1/workflows', { token: viewer.token, headers, body: { name: 'nope' } });
      expect(res.status).toBe(403);
    }
    const mine = (await orgEvents('access.forbidden')).filter((e) => e.actor.id === viewer.userId);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      actor: { type: 'user', id: viewer.userId },
      ip: '10.3.3.3',
      userAgent: 'curious-viewer/1',
      target: { type: 'route', id: 'POST /api/v1/workflows' },
      changes: { after: { code: 'FORBIDDEN' } },
    });
    // A non-member naming the organization gets 404 and writes nothing into its log.
    const outsider = await createTestTenant(api);
    expect((await api.request('GET', `/api/v1/organizations/${tenant.organizationId}/audit-logs`, { token: outsider.owner.token })).status).toBe(404);
    expect((await orgEvents('access.forbidden')).filter((e) => e.actor.id === outsider.owner.userId)).toHaveLength(0);
  });

  test('use of an expired API key', async () => {
    const key = await createTestApiKey(api, tenant.organizationId, tenant.owner.token, 'member');
    await api.deps.db('api_keys').where({ id: key.id }).update({ expires_at: new Date(Date.now() - 1000) });
    const res = await api.request('GET', '/api/v1/workflows', { headers: { 'x-api-key': key.key, ...from('10.4.4.4', 'old-integration/1') } });
    expect(res.status).toBe(401);
    expect(await orgEvents('api_key.rejected')).toContainEqual(
      expect.objectContaining({
        actor: { type: 'apiKey', id: key.id },
        ip: '10.4.4.4',
        userAgent: 'old-integration/1',
        changes: expect.objectContaining({ after: expect.objectContaining({ reason: 'expired' }) }),
      }),
    );
  });
});
