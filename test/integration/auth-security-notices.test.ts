import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { mailsTo, waitForMail } from '../helpers/mail';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant } from '../helpers/tenants';

/**
 * Security notices (issue 43): mail about a person's own account (password changed or reset, two-factor sign-in on
 * or off, a sign-in from a new device), through the mail outbox, as text with an HTML alternative; members'
 * sign-ins in their organizations' audit logs; registration from an invitation link verifies the address.
 */
let api: TestApi;
const PASSWORD = 'Correct-Horse-9!';
const NEW_PASSWORD = 'Battery-Staple-7?';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CURL = 'curl/8.5.0 <script>alert(1)</script> www.evil.example';

beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

const as = (userAgent: string) => ({ 'user-agent': userAgent });
const login = (email: string, password: string, userAgent: string) =>
  api.request('POST', '/api/auth/login', { body: { email, password }, headers: as(userAgent) });
const subjects = async (email: string) => (await mailsTo(email)).map((m) => m.subject);
const settle = () => new Promise((r) => setTimeout(r, 500));

async function register(userAgent = FIREFOX) {
  const email = `sec-${randomUUID()}@example.com`;
  const res = await api.request('POST', '/api/auth/register', { body: { email, password: PASSWORD }, headers: as(userAgent) });
  expect(res.status).toBe(201);
  return { email, userId: res.body.user.id as string, token: res.body.tokens.accessToken as string };
}

test('a sign-in from a new device is mailed; the same device (even updated) is not; the device line is escaped', async () => {
  const account = await register(FIREFOX);
  // Same browser as at registration: known.
  expect((await login(account.email, PASSWORD, FIREFOX)).status).toBe(200);
  // A browser update changes only version numbers: still the same device.
  expect((await login(account.email, PASSWORD, FIREFOX.replace(/128\.0/g, '129.0'))).status).toBe(200);
  await settle();
  expect((await subjects(account.email)).filter((s) => /New sign-in/.test(s))).toEqual([]);

  expect((await login(account.email, PASSWORD, CURL)).status).toBe(200);
  const mail = await waitForMail(account.email, /New sign-in to your Loom account/);
  expect(mail.text).toMatch(/IP address: (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)/);
  expect(mail.text).toMatch(/Device: curl\/8\[\.\]5\[\.\]0/); // dots defanged: a mail client makes no link of it
  // The client's own text: one line, no links, escaped in HTML.
  expect(mail.text).not.toContain('www.evil.example');
  expect(mail.html).toContain('&lt;script&gt;');
  expect(mail.html).not.toContain('<script>');
  expect(mail.html).toMatch(/<h1[^>]*>A new device signed in to your account<\/h1>/);
  // Once known, that device is quiet too.
  expect((await login(account.email, PASSWORD, CURL)).status).toBe(200);
  await settle();
  expect((await subjects(account.email)).filter((s) => /New sign-in/.test(s))).toHaveLength(1);
});

test('a password change and a password reset are mailed, with when and from where', async () => {
  const account = await register();
  const changed = await api.request('POST', '/api/auth/password', {
    token: account.token,
    body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    headers: as(FIREFOX),
  });
  expect(changed.status).toBe(200);
  const mail = await waitForMail(account.email, /Your Loom password was changed/);
  expect(mail.text).toMatch(/changed by someone signed in to it/);
  expect(mail.text).toMatch(/When: \d{4}-\d\d-\d\dT/);
  expect(mail.html).toMatch(/<h1[^>]*>Your password was changed<\/h1>/);

  expect((await api.request('POST', '/api/auth/password-reset/request', { body: { email: account.email } })).status).toBe(202);
  const resetMail = await waitForMail(account.email, /Reset your Loom password/);
  const token = /Reset code: (\S+)/.exec(resetMail.text ?? '')![1]!;
  expect((await api.request('POST', '/api/auth/password-reset/confirm', { body: { token, password: PASSWORD } })).status).toBe(204);
  for (let i = 0; i < 50 && (await subjects(account.email)).filter((s) => /password was changed/.test(s)).length < 2; i++) await settle();
  const both = (await mailsTo(account.email)).filter((m) => /password was changed/.test(m.subject));
  expect(both).toHaveLength(2);
  expect(both[0]!.text).toMatch(/set with a reset link/);
});

test('two-factor sign-in turned on and off is mailed', async () => {
  const account = await register();
  const started = await api.request('POST', '/api/auth/2fa/enrolment', { token: account.token });
  const code = () => new TOTP({ secret: Secret.fromBase32(started.body.secret) }).generate();
  const confirmed = await api.request('POST', '/api/auth/2fa/enrolment/confirm', { token: account.token, body: { code: code() } });
  expect(confirmed.status).toBe(200);
  await waitForMail(account.email, /Two-factor sign-in is now on/);
  await api.deps.db('user_two_factor').where({ user_id: account.userId }).update({ last_used_step: null });
  const off = await api.request('POST', '/api/auth/2fa/disable', {
    token: confirmed.body.tokens.accessToken,
    body: { password: PASSWORD, code: code() },
  });
  expect(off.status).toBe(204);
  const mail = await waitForMail(account.email, /Two-factor sign-in was turned off/);
  expect(mail.text).toMatch(/the password alone is enough again/);
});

test("members' sign-ins appear in the audit log of each of their organizations", async () => {
  const account = await register();
  const first = await createTestTenant(api);
  const second = await createTestTenant(api);
  for (const t of [first, second]) {
    await api.deps.db('memberships').insert({ organization_id: t.organizationId, user_id: account.userId, role: 'member' });
  }
  expect((await login(account.email, PASSWORD, FIREFOX)).status).toBe(200);
  for (const t of [first, second]) {
    const audit = await api.request('GET', `/api/v1/organizations/${t.organizationId}/audit-logs?action=member.signed_in`, { token: t.owner.token });
    expect(audit.status).toBe(200);
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0]).toMatchObject({ action: 'member.signed_in', actor: { type: 'user', id: account.userId } });
  }
  // Not in an organization the person does not belong to.
  const other = await createTestTenant(api);
  const none = await api.request('GET', `/api/v1/organizations/${other.organizationId}/audit-logs?action=member.signed_in`, { token: other.owner.token });
  expect(none.body.data.filter((e: { actor: { id: string } }) => e.actor.id === account.userId)).toEqual([]);
});

test('registering from an invitation link verifies the address; a foreign or used token is refused', async () => {
  const tenant = await createTestTenant(api);
  const email = `invited-${randomUUID()}@example.com`;
  const invited = await api.request('POST', `/api/v1/organizations/${tenant.organizationId}/invitations`, { token: tenant.owner.token, body: { email } });
  expect(invited.status).toBe(201);
  const invitation = await waitForMail(email, /invited to an organization/);
  const token = /\/invitations\/accept\?token=([^\s]+)/.exec(invitation.text ?? '')![1]!;

  const wrongAddress = await api.request('POST', '/api/auth/register', { body: { email: `other-${randomUUID()}@example.com`, password: PASSWORD, invitationToken: decodeURIComponent(token) } });
  expect(wrongAddress.status).toBe(422);
  const bogus = await api.request('POST', '/api/auth/register', { body: { email, password: PASSWORD, invitationToken: 'not-a-real-token' } });
  expect(bogus.status).toBe(410);
  expect(bogus.body.error.code).toBe('INVITATION_EXPIRED');

  const res = await api.request('POST', '/api/auth/register', { body: { email, password: PASSWORD, invitationToken: decodeURIComponent(token) } });
  expect(res.status).toBe(201);
  const me = await api.request('GET', '/api/auth/me', { token: res.body.tokens.accessToken });
  expect(me.body.user.email_verified).toBe(true);
  await settle();
  expect((await subjects(email)).filter((s) => /Confirm your e-mail/.test(s))).toEqual([]);
  // Registering did not accept it: accepting does.
  const accepted = await api.request('POST', '/api/v1/invitations/accept', { token: res.body.tokens.accessToken, body: { token: decodeURIComponent(token) } });
  expect(accepted.status).toBe(200);
});
