import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { deliverDueMail } from '../../../domain/notifications/mailOutbox';
import { INVITATION_SUBJECT } from '../../../lib/emails/organizations';
import { createMailer } from '../../../lib/mailer';
import { mailsTo, waitForMail } from '../../helpers/mail';
import { startApi, type TestApi } from '../../helpers/stack';
import { createTestTenant, createTestUser, type TestTenant } from '../../helpers/tenants';

/**
 * Invitation mail is the platform's mail with a tenant's words in it (issue 40, finding 10), and its sending must
 * not hold a transaction (finding 5); one user's parallel organization creations must respect the per-user limit
 * (finding 11). Real API, real SMTP catcher, real PostgreSQL and Temporal.
 */

let api: TestApi;

beforeAll(async () => {
  api = await startApi();
});

afterAll(async () => {
  await api?.close();
});

const invitee = (tag: string) => `${tag}-${randomUUID()}@example.com`;

async function invite(on: TestApi, tenant: TestTenant, email: string) {
  return on.request('POST', `/api/v1/organizations/${tenant.organizationId}/invitations`, { token: tenant.owner.token, body: { email, role: 'member' } });
}

describe('invitation mail cannot phish', () => {
  test('organization and inviter names are quoted, defanged, cut and marked as the inviter\'s; the subject is fixed; no foreign link', async () => {
    const tenant = await createTestTenant(api);
    const orgName = 'Loom Security Team: your account is locked. Verify now at https://evil.example/login or evil.example';
    await api.deps.db('organizations').where({ id: tenant.organizationId }).update({ name: orgName });
    // U+202E (right-to-left override), a zero-width space, CR/LF and an address.
    await api.deps.db('users').where({ id: tenant.owner.userId }).update({ name: 'Loom Support\u202e\u200b <support@evil.example>\r\nBcc: x@example.com www.evil.example' });
    const to = invitee('phish');
    expect((await invite(api, tenant, to)).status).toBe(201);

    const mail = await waitForMail(to, /invited to an organization on Loom/);
    expect(mail.subject).toBe(INVITATION_SUBJECT);
    const text = mail.text ?? '';
    expect(text).not.toMatch(/evil\.example/i);
    expect(text).not.toMatch(/[\u202e\u200b]/);
    expect(text).not.toContain('support@');
    // Every link in the mail is the platform's own accept link.
    const links = text.match(/\b(?:https?:\/\/|www\.)\S+/gi) ?? [];
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(link.startsWith(`${api.config.http.publicUrl}/`)).toBe(true);
    const orgLine = /^Organization: "([^"\n]*)"$/m.exec(text);
    const inviterLine = /^Invited by: "([^"\n]*)"$/m.exec(text);
    expect(orgLine?.[1]).toMatch(/^Loom Security Team: your account is locked\. Verify now at .*…$/);
    expect(Array.from(orgLine![1]!).length).toBeLessThanOrEqual(60);
    expect(inviterLine?.[1]).toMatch(/^Loom Support <support\[at\]evil\[\.\]example> Bcc: x\[at\]example/);
    expect(text).toContain('The names in quotes were chosen by the inviter');
    expect(mail.headers.bcc).toBeUndefined();
  }, 30_000);
});

describe('invitation mail budgets', () => {
  test('15 rapid resends: at most 2 accepted (fixed windows), the rest 429 with Retry-After; few mails delivered', async () => {
    const tenant = await createTestTenant(api);
    const to = invitee('flood');
    const created = await invite(api, tenant, to);
    expect(created.status).toBe(201);
    const path = `/api/v1/organizations/${tenant.organizationId}/invitations/${created.body.id}/resend`;
    const answers = [];
    for (let i = 0; i < 15; i++) answers.push(await api.request('POST', path, { token: tenant.owner.token }));
    const accepted = answers.filter((a) => a.status === 200).length;
    const refused = answers.filter((a) => a.status === 429);
    expect(accepted).toBeGreaterThanOrEqual(1);
    expect(accepted).toBeLessThanOrEqual(2);
    expect(refused).toHaveLength(15 - accepted);
    for (const r of refused) {
      expect(r.body.error.code).toBe('RATE_LIMITED');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Mail is sent before the answer; give the catcher a moment to store the last one.
    await new Promise((r) => setTimeout(r, 500));
    expect((await mailsTo(to)).length).toBe(1 + accepted);
  }, 30_000);

  test('the organization\'s invitation mail budget: past it 429 and no invitation; another organization still invites', async () => {
    const limited = await startApi({ SERVICE_INVITATION_MAIL_RATE_LIMIT: '3/1h' });
    try {
      const tenant = await createTestTenant(limited);
      for (let i = 0; i < 3; i++) expect((await invite(limited, tenant, invitee('budget'))).status).toBe(201);
      const over = await invite(limited, tenant, invitee('budget'));
      expect(over.status).toBe(429);
      expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await limited.deps.db('invitations').where({ organization_id: tenant.organizationId }).count<{ count: string }[]>('* as count')).toEqual([{ count: '3' }]);
      const other = await createTestTenant(limited);
      expect((await invite(limited, other, invitee('other'))).status).toBe(201);
    } finally {
      await limited.close();
    }
  }, 30_000);
});

describe('invitation mail goes through the outbox', () => {
  test('SMTP down: the invitation is created at once (no 503), its mail waits sealed in the outbox and is sent later', async () => {
    // A port that accepts and never speaks SMTP would hold the old transaction for the mailer's timeouts; a closed
    // port fails at once. Either way nothing waits inside a transaction now.
    const closed: Server = createServer((socket) => socket.destroy());
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const smtpDown = await startApi({ SMTP_PORT: String((closed.address() as AddressInfo).port) });
    try {
      const tenant = await createTestTenant(smtpDown);
      const to = invitee('outbox');
      const res = await invite(smtpDown, tenant, to);
      expect(res.status).toBe(201);
      const row = await smtpDown.deps.db('mail_outbox').where({ topic: 'invitation', topic_id: res.body.id }).first();
      expect(row).toMatchObject({ recipient: to, subject: INVITATION_SUBJECT, attempts: 1 });
      expect(row.last_error).toBeTruthy();

      // The worker's sweeper, here with a mailer that reaches the catcher; the row is due again.
      await smtpDown.deps.db('mail_outbox').where({ id: row.id }).update({ next_attempt_at: new Date(Date.now() - 1000) });
      const sent = await deliverDueMail({ db: smtpDown.deps.db, mailer: createMailer(api.config.mail), box: smtpDown.deps.box, logger: smtpDown.deps.logger });
      expect(sent).toBeGreaterThanOrEqual(1);
      const mail = await waitForMail(to, /invited to an organization on Loom/);
      const token = /\n([A-Za-z0-9_-]{43})\n/.exec(mail.text ?? '')?.[1];
      expect(token).toBeDefined();
      // The token travelled sealed: the row never held it in clear, and the row is gone once sent.
      expect(row.sealed_text).not.toContain(token);
      expect(await smtpDown.deps.db('mail_outbox').where({ id: row.id }).first()).toBeUndefined();
    } finally {
      await smtpDown.close();
      closed.close();
    }
  }, 30_000);

  test('a revoked invitation\'s unsent mail is dropped; a resend replaces the unsent older mail', async () => {
    const tenant = await createTestTenant(api);
    const db = api.deps.db;
    const created = await invite(api, tenant, invitee('drop'));
    // Pretend the first send failed: put a message back in the outbox for it, then resend and revoke.
    await db('mail_outbox').insert({ organization_id: tenant.organizationId, topic: 'invitation', topic_id: created.body.id, recipient: 'x@example.com', subject: 's', sealed_text: 'v1:x', next_attempt_at: new Date(Date.now() + 3_600_000) });
    expect((await api.request('POST', `/api/v1/organizations/${tenant.organizationId}/invitations/${created.body.id}/resend`, { token: tenant.owner.token })).status).toBe(200);
    expect(await db('mail_outbox').where({ topic_id: created.body.id }).count<{ count: string }[]>('* as count')).toEqual([{ count: '0' }]);
    await db('mail_outbox').insert({ organization_id: tenant.organizationId, topic: 'invitation', topic_id: created.body.id, recipient: 'x@example.com', subject: 's', sealed_text: 'v1:x', next_attempt_at: new Date(Date.now() + 3_600_000) });
    expect((await api.request('DELETE', `/api/v1/organizations/${tenant.organizationId}/invitations/${created.body.id}`, { token: tenant.owner.token })).status).toBe(204);
    expect(await db('mail_outbox').where({ topic_id: created.body.id }).count<{ count: string }[]>('* as count')).toEqual([{ count: '0' }]);
  }, 30_000);
});

describe('organizations per user', () => {
  test('12 parallel creations by one user stop at the limit of 10', async () => {
    // The write gate would serialise most of them; lifted here so the requests really race in the database.
    const racing = await startApi({ SERVICE_WRITE_CONCURRENCY_PER_ORGANIZATION: '50' });
    try {
      const user = await createTestUser(racing);
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => racing.request('POST', '/api/v1/organizations', { token: user.token, body: { name: `Race ${i} ${randomUUID().slice(0, 8)}` } })),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(10);
      for (const refused of answers.filter((a) => a.status !== 201)) {
        expect(refused.status).toBe(409);
        expect(refused.body.error.code).toBe('ORGANIZATION_LIMIT');
      }
      const memberships = await racing.deps.db('memberships').where({ user_id: user.userId }).count<{ count: string }[]>('* as count');
      expect(memberships).toEqual([{ count: '10' }]);
    } finally {
      await racing.close();
    }
  }, 60_000);
});
