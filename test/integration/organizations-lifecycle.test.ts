import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { organizationCleaners } from '../../activities/organizations/cleaners';
import { exportKey } from '../../activities/organizations/lifecycle';
import { organizationPrefix } from '../../lib/storage';
import { mailsTo, waitForMail } from '../helpers/mail';
import { createNamedTestUser, createTestApiKey, setTestPassword } from '../helpers/organizations';
import { startApi, type TestApi } from '../helpers/stack';
import { readTarEntries } from '../helpers/tar';
import { createWorkflowFixture, startRun, toolNode } from '../helpers/runs';
import { addTestMember, createTestTenant } from '../helpers/tenants';

let api: TestApi;
beforeAll(async () => {
  // A short export lifetime so the test sees the export removed by the workflow's durable timer.
  api = await startApi({ SERVICE_ORGANIZATION_EXPORT_TTL: '10s' });
});
afterAll(async () => {
  await api.close();
});

async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('invitations end to end through the mailbox', () => {
  test('invite, read the mail, accept as the invited user; resend replaces the token; revoke', async () => {
    const t = await createTestTenant(api);
    const invitee = await createNamedTestUser(api);
    const path = `/api/v1/organizations/${t.organizationId}/invitations`;

    const created = await api.request('POST', path, { token: t.owner.token, body: { email: invitee.email.toUpperCase(), role: 'admin' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ email: invitee.email, role: 'admin', status: 'pending' });
    const days = (Date.parse(created.body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    const dup = await api.request('POST', path, { token: t.owner.token, body: { email: invitee.email, role: 'member' } });
    expect(dup.status).toBe(409);

    const first = await waitForMail(invitee.email, /invited to an organization on Loom/);
    const firstToken = /\n([A-Za-z0-9_-]{43})\n/.exec(first.text ?? '')?.[1];
    expect(firstToken).toBeDefined();
    expect(JSON.stringify(await api.deps.db('invitations').where({ id: created.body.id }).first())).not.toContain(firstToken!);

    // Resend: a new token; the old one stops working.
    const resent = await api.request('POST', `${path}/${created.body.id}/resend`, { token: t.owner.token });
    expect(resent.status).toBe(200);
    const second = await waitFor(() => mailsTo(invitee.email), (m) => m.length >= 2, 'second mail');
    const tokens = second.map((m) => /\n([A-Za-z0-9_-]{43})\n/.exec(m.text ?? '')?.[1]);
    const newToken = tokens.find((x) => x && x !== firstToken)!;
    expect(newToken).toBeDefined();
    expect((await api.request('POST', '/api/v1/invitations/accept', { token: invitee.token, body: { token: firstToken } })).status).toBe(404);

    // Someone else signed in cannot use it.
    const stranger = await createNamedTestUser(api);
    const wrong = await api.request('POST', '/api/v1/invitations/accept', { token: stranger.token, body: { token: newToken } });
    expect(wrong.status).toBe(403);

    const accepted = await api.request('POST', '/api/v1/invitations/accept', { token: invitee.token, body: { token: newToken } });
    expect(accepted.status).toBe(200);
    expect(accepted.body.organization).toMatchObject({ id: t.organizationId, role: 'admin' });
    expect(await api.deps.db('memberships').where({ organization_id: t.organizationId, user_id: invitee.userId }).first()).toMatchObject({ role: 'admin' });
    const again = await api.request('POST', '/api/v1/invitations/accept', { token: invitee.token, body: { token: newToken } });
    expect(again.status).toBe(410);
    expect((await api.request('GET', path, { token: t.owner.token })).body.data).toHaveLength(0);

    // Revoke: the token is dead.
    const other = await createNamedTestUser(api);
    const inv2 = await api.request('POST', path, { token: t.owner.token, body: { email: other.email, role: 'viewer' } });
    const mail = await waitForMail(other.email, /invited to an organization on Loom/);
    const token2 = /\n([A-Za-z0-9_-]{43})\n/.exec(mail.text ?? '')![1];
    expect((await api.request('DELETE', `${path}/${inv2.body.id}`, { token: t.owner.token })).status).toBe(204);
    const dead = await api.request('POST', '/api/v1/invitations/accept', { token: other.token, body: { token: token2 } });
    expect(dead.status).toBe(410);
    expect(dead.body.error.code).toBe('INVITATION_EXPIRED');

    const actions = (await api.deps.db('audit_logs').where({ organization_id: t.organizationId }).select('action')).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['invitation.created', 'invitation.resent', 'invitation.accepted', 'invitation.revoked']));
  });

  test('an expired invitation answers 410; only an owner invites an owner', async () => {
    const t = await createTestTenant(api);
    const admin = await addTestMember(api, t, 'admin');
    const ownerInvite = await api.request('POST', `/api/v1/organizations/${t.organizationId}/invitations`, {
      token: admin.token,
      body: { email: `o-${randomUUID()}@example.com`, role: 'owner' },
    });
    expect(ownerInvite.status).toBe(403);
    const invitee = await createNamedTestUser(api);
    const res = await api.request('POST', `/api/v1/organizations/${t.organizationId}/invitations`, { token: t.owner.token, body: { email: invitee.email } });
    const mail = await waitForMail(invitee.email, /invited to an organization on Loom/);
    const token = /\n([A-Za-z0-9_-]{43})\n/.exec(mail.text ?? '')![1];
    await api.deps.db('invitations').where({ id: res.body.id }).update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await api.request('POST', '/api/v1/invitations/accept', { token: invitee.token, body: { token } });
    expect(expired.status).toBe(410);
  });
});

describe('settings', () => {
  test('validated fields, partial updates per group, secrets encrypted at rest and masked on read', async () => {
    const t = await createTestTenant(api);
    const path = `/api/v1/organizations/${t.organizationId}/settings`;
    for (const body of [
      { general: { timezone: 'Mars/Olympus' } },
      { general: { language: 'not a tag!' } },
      { general: { logoUrl: 'ftp://x' } },
      { security: { sessionTimeoutMinutes: 1 } },
      { integration: { webhooks: [{ url: 'https://h.example/x', events: ['Bad Event'], secret: 's'.repeat(16) }] } },
      { nope: {} },
      {},
    ]) {
      const res = await api.request('PUT', path, { token: t.owner.token, body });
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
    }
    // A new endpoint without a secret gets one generated, shown once (webhook secrets: triggers-events.test.ts).
    const newWebhookWithoutSecret = await api.request('PUT', path, { token: t.owner.token, body: { integration: { webhooks: [{ url: 'https://h.example/x', events: ['content.created'] }] } } });
    expect(newWebhookWithoutSecret.status).toBe(200);
    expect(newWebhookWithoutSecret.body.generatedSecrets).toEqual([{ endpointId: newWebhookWithoutSecret.body.integration.webhooks[0].id, secret: expect.stringMatching(/^whsec_/) }]);

    const general = await api.request('PUT', path, { token: t.owner.token, body: { general: { timezone: 'Europe/Paris', language: 'pt-br' } } });
    expect(general.status).toBe(200);
    expect(general.body.general).toMatchObject({ timezone: 'Europe/Paris', language: 'pt-BR', logoUrl: null });

    const webhookSecret = 'whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkXYZW';
    const oidcSecret = 'oidc-client-secret-9876-ABCD';
    const crmToken = 'crm-token-value-000000-QRST';
    const integ = await api.request('PUT', path, {
      token: t.owner.token,
      body: {
        integration: {
          webhooks: [{ url: 'https://hooks.example.com/loom', events: ['content.created', 'workflow.*'], secret: webhookSecret }],
          thirdParty: { crm: { config: { region: 'eu' }, secrets: { token: crmToken } } },
          sso: { enabled: false, protocol: 'oidc', oidc: { issuer: 'https://id.example.com', clientId: 'loom', clientSecret: oidcSecret } },
        },
      },
    });
    expect(integ.status).toBe(200);
    // general kept its values (partial update of another group)
    expect(integ.body.general.timezone).toBe('Europe/Paris');
    const webhook = integ.body.integration.webhooks[0];
    expect(webhook).toMatchObject({ url: 'https://hooks.example.com/loom', secret: '****XYZW', enabled: true });
    expect(integ.body.integration.thirdParty.crm.secrets.token).toBe('****QRST');
    expect(integ.body.integration.sso.oidc.clientSecret).toBe('****ABCD');

    const raw = JSON.stringify((await api.deps.db('organizations').where({ id: t.organizationId }).first()).settings);
    for (const secret of [webhookSecret, oidcSecret, crmToken]) expect(raw).not.toContain(secret);
    expect(raw).toContain('"enc":"v1:');
    const audit = JSON.stringify(await api.deps.db('audit_logs').where({ organization_id: t.organizationId }));
    for (const secret of [webhookSecret, oidcSecret, crmToken]) expect(audit).not.toContain(secret);

    // Keeping a webhook by id keeps its secret; a third-party secret removed with null.
    const kept = await api.request('PUT', path, {
      token: t.owner.token,
      body: { integration: { webhooks: [{ id: webhook.id, url: 'https://hooks.example.com/v2', events: ['run.completed'] }], thirdParty: { crm: { secrets: { token: null } } } } },
    });
    expect(kept.status).toBe(200);
    expect(kept.body.integration.webhooks[0]).toMatchObject({ id: webhook.id, url: 'https://hooks.example.com/v2', secret: '****XYZW' });
    expect(kept.body.integration.thirdParty.crm).toEqual({ enabled: true, config: { region: 'eu' }, secrets: {} });
  });
});

describe('lifecycle on Temporal', () => {
  test('creation: billing initialised and a welcome e-mail', async () => {
    const user = await createNamedTestUser(api);
    const res = await api.request('POST', '/api/v1/organizations', { token: user.token, body: { name: `Welcome ${randomUUID().slice(0, 6)}` } });
    expect(res.status).toBe(201);
    await waitForMail(user.email, /Welcome to Loom/);
    const sub = await waitFor(
      () => api.deps.db('billing_subscriptions').where({ organization_id: res.body.id }).first(),
      (s) => !!s,
      'subscription',
    );
    expect(sub).toMatchObject({ plan: 'free', status: 'active', provider: 'local' });
    const handle = api.deps.temporal.workflow.getHandle(`org-create-${res.body.id}`);
    expect(await handle.result()).toEqual({ status: 'initialised' });
  });

  test('deletion: password confirmed, unusable at once, export, nothing left in PostgreSQL or MinIO, confirmation mail', async () => {
    const owner = await createNamedTestUser(api);
    await setTestPassword(api, owner.userId, 'Correct-Horse-9!');
    const created = await api.request('POST', '/api/v1/organizations', { token: owner.token, body: { name: `Doomed ${randomUUID().slice(0, 6)}` } });
    const id = created.body.id as string;
    await api.deps.db('sessions').where({ id: owner.sessionId }).update({ active_organization_id: id });
    await waitFor(() => api.deps.db('billing_subscriptions').where({ organization_id: id }).first(), (s) => !!s, 'subscription');

    // Some data: members, an invitation, an API key, settings, audit entries, usage, objects.
    const t = { organizationId: id, owner };
    const admin = await addTestMember(api, t, 'admin');
    await api.request('POST', `/api/v1/organizations/${id}/invitations`, { token: owner.token, body: { email: `d-${randomUUID()}@example.com` } });
    const { key } = await createTestApiKey(api, id, owner.token, 'viewer');
    await api.request('GET', '/api/v1/organization', { headers: { 'x-api-key': key } });
    const bucket = api.config.minio.bucket;
    for (let i = 0; i < 3; i++) await api.deps.storage.putObject(bucket, `${organizationPrefix(id)}content/${i}.txt`, Buffer.from(`object ${i}`));
    const otherTenant = await createTestTenant(api);
    await api.deps.storage.putObject(bucket, `${organizationPrefix(otherTenant.organizationId)}keep.txt`, Buffer.from('keep'));
    // A run still going when the deletion starts: the deletion cancels it in Temporal.
    const slowWorkflow = await createWorkflowFixture(api, t, { nodes: [toolNode('wait', 'delay', { ms: 300_000 })] });
    const openRun = await startRun(api, owner.token, slowWorkflow);

    const wrong = await api.request('DELETE', `/api/v1/organizations/${id}`, { token: owner.token, body: { password: 'wrong' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');
    const byAdmin = await api.request('DELETE', `/api/v1/organizations/${id}`, { token: admin.token, body: { password: 'Correct-Horse-9!' } });
    expect(byAdmin.status).toBe(403);

    const res = await api.request('DELETE', `/api/v1/organizations/${id}`, { token: owner.token, body: { password: 'Correct-Horse-9!', exportData: true } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ organizationID: id, status: 'deleting', workflowId: `org-delete-${id}` });
    expect(res.headers.get('location')).toBe(`/api/v1/organizations/${id}/deletion`);
    // Unusable from the first moment.
    expect((await api.request('GET', `/api/v1/organizations/${id}`, { token: admin.token })).status).toBe(404);
    // Asking again answers the same operation.
    // (the organization is already gone for the API, so the second request is a 404)

    const status = await waitFor(
      () => api.request('GET', `/api/v1/organizations/${id}/deletion`, { token: owner.token }),
      (r) => r.status === 200 && r.body.status === 'completed',
      'deletion to complete',
      60_000,
    );
    const cleaners = organizationCleaners.map((c) => `clean:${c.name}`);
    expect(status.body.stepsDone).toEqual(['mark-deleting', 'export', 'cancel-subscriptions', ...cleaners, 'delete-objects', 'delete-records', 'confirm']);
    expect(status.body.exportUrl).toMatch(/^http/);
    // Someone else cannot follow it.
    expect((await api.request('GET', `/api/v1/organizations/${id}/deletion`, { token: admin.token })).status).toBe(404);

    // Nothing of the organization in PostgreSQL: every table with an organization column, plus sessions.
    const tables = await api.deps.db('information_schema.columns')
      .where({ table_schema: 'public', column_name: 'organization_id' })
      .select('table_name');
    for (const { table_name } of tables) {
      const left = await api.deps.db(table_name).where({ organization_id: id }).count<{ count: string }[]>('* as count');
      expect([table_name, Number(left[0].count)]).toEqual([table_name, 0]);
    }
    expect(await api.deps.db('organizations').where({ id }).first()).toBeUndefined();
    expect((await api.deps.db('sessions').where({ active_organization_id: id })).length).toBe(0);
    // Users themselves remain (they may belong to other organizations).
    expect(await api.deps.db('users').where({ id: admin.userId }).first()).toBeDefined();

    // Nothing under org/<id>/ in MinIO; the other tenant's object is untouched; the export is downloadable.
    const remaining: string[] = [];
    for await (const item of api.deps.storage.listObjectsV2(bucket, organizationPrefix(id), true)) remaining.push(item.name!);
    expect(remaining).toEqual([]);
    await expect(api.deps.storage.statObject(bucket, `${organizationPrefix(otherTenant.organizationId)}keep.txt`)).resolves.toBeDefined();
    const exported = await fetch(status.body.exportUrl);
    expect(exported.status).toBe(200);
    // The archive in detail: organizations-export-archive.test.ts.
    const archive = await readTarEntries(gunzipSync(Buffer.from(await exported.arrayBuffer())));
    const lines = (dir: string) => archive.get(`${dir}/part-00001.jsonl`)!.toString().trim().split('\n');
    expect(JSON.parse(archive.get('organization.json')!.toString()).id).toBe(id);
    expect(lines('members')).toHaveLength(2);
    expect(lines('objects')).toHaveLength(3);

    // When the link expires the workflow removes the export: then nothing of the organization is left anywhere.
    await waitFor(
      () => api.deps.storage.statObject(bucket, exportKey(id)).then(() => true, () => false),
      (exists) => !exists,
      'export removal',
      60_000,
    );
    await api.deps.temporal.workflow.getHandle(`org-delete-${id}`).result();

    const runExecution = await api.deps.temporal.workflow.getHandle(openRun.id as string).describe();
    expect(runExecution.status.name).toBe('CANCELLED');

    // Every other member is told, through the mail outbox (text and HTML); the requester gets the confirmation instead.
    const notice = await waitForMail(admin.email, /was deleted/);
    expect(notice.text).toMatch(/you were admin/);
    expect(notice.html).toMatch(/<h1[^>]*>An organization you belonged to was deleted<\/h1>/);
    expect((await mailsTo(owner.email)).filter((m) => /was deleted/.test(m.subject) && !/has been deleted/.test(m.subject))).toEqual([]);
    const mail = await waitForMail(owner.email, /has been deleted/);
    expect(mail.text).toContain('export');
    // The API key died with the organization.
    expect((await api.request('GET', '/api/v1/organization', { headers: { 'x-api-key': key } })).status).toBe(401);
  });

  test('payment failure alerts the owners by e-mail', async () => {
    const t = await createTestTenant(api);
    const owner = await createNamedTestUser(api, t.organizationId);
    await api.deps.db('memberships').insert({ organization_id: t.organizationId, user_id: owner.userId, role: 'owner' });
    const result = await api.deps.temporal.workflow.execute('organizationPaymentFailedWorkflow', {
      taskQueue: api.config.temporal.taskQueue,
      workflowId: `org-payment-failed-${t.organizationId}-${randomUUID()}`,
      args: [{ organizationId: t.organizationId, reason: 'card declined' }],
    });
    expect(result.notified).toBe(2);
    const mail = await waitForMail(owner.email, /Payment failed/);
    expect(mail.text).toContain('card declined');
  });

  test('the deletion workflow is idempotent: running it again on a deleted organization succeeds', async () => {
    const t = await createTestTenant(api);
    const run = (suffix: string) =>
      api.deps.temporal.workflow.execute('organizationDeletionWorkflow', {
        taskQueue: api.config.temporal.taskQueue,
        workflowId: `org-delete-${t.organizationId}-${suffix}`,
        args: [{ organizationId: t.organizationId, requestedBy: t.owner.userId, requesterEmail: t.owner.email, organizationName: 'Twice', exportData: false }],
      });
    await run('a');
    const again = await run('b');
    expect(again.step).toBe('done');
    expect(await api.deps.db('organizations').where({ id: t.organizationId }).first()).toBeUndefined();
  });
});
