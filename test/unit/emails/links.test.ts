import { accountLink } from '../../../lib/emails/links';
import { passwordResetEmail, emailVerificationEmail } from '../../../domain/auth/emails';
import { invitationEmail } from '../../../lib/emails/organizations';
import { policySummary } from '../../../api/account-pages/html';
import { loadConfig } from '../../../lib/config';

/** The links the mails carry (docs/auth.md#links-in-e-mails), without a running stack. */

const api = { publicUrl: 'https://api.example.com' };
const withApp = { publicUrl: 'https://api.example.com', appUrl: 'https://app.example.com/team' };

test('the API pages by default, the client app when configured, the token encoded', () => {
  expect(accountLink(api, 'verifyEmail', 'abc')).toBe('https://api.example.com/verify-email?token=abc');
  expect(accountLink({ publicUrl: 'https://api.example.com/' }, 'resetPassword', 'a+b/c')).toBe('https://api.example.com/reset-password?token=a%2Bb%2Fc');
  expect(accountLink(withApp, 'acceptInvitation', 'xyz')).toBe('https://app.example.com/team/invitations/accept?token=xyz');
  expect(accountLink({ ...withApp, appUrl: null }, 'acceptInvitation', 'xyz')).toBe('https://api.example.com/invitations/accept?token=xyz');
});

test('each mail says to open its link, and keeps the bare code for apps that ask for it', () => {
  const reset = passwordResetEmail({ ...withApp, token: 'tok_1', ttlMs: 3_600_000 });
  expect(reset.text).toContain('open this link within 60 minutes');
  expect(reset.text).toContain('\nhttps://app.example.com/team/reset-password?token=tok_1\n');
  expect(reset.text).toContain('Reset code: tok_1');
  const verify = emailVerificationEmail({ ...api, token: 'tok_2', ttlMs: 86_400_000 });
  expect(verify.text).toContain('\nhttps://api.example.com/verify-email?token=tok_2\n');
  expect(verify.text).toContain('Verification code: tok_2');
  const invitation = invitationEmail({
    to: 'ada@example.com',
    organizationName: 'Acme',
    role: 'member',
    inviterName: 'Grace',
    acceptUrl: accountLink(api, 'acceptInvitation', 'T'.repeat(43)),
    token: 'T'.repeat(43),
    expiresAt: new Date('2030-01-01T00:00:00Z'),
  });
  expect(invitation.subject).toBe('You have been invited to an organization on Loom');
  expect(invitation.text).toContain('invited you to join it as member');
  expect(invitation.text).toContain('Organization: "Acme"\nInvited by: "Grace"\n');
  expect(invitation.text).toContain(`open this link. It asks you to sign in as ada@example.com`);
  expect(invitation.text).toContain(`\nhttps://api.example.com/invitations/accept?token=${'T'.repeat(43)}\n`);
  expect(invitation.text).toMatch(/\n(T{43})\n/);
});

test('the password policy in words follows the configuration', () => {
  expect(policySummary({ minLength: 8, requireUppercase: true, requireNumbers: true, requireSymbols: true })).toMatch(
    /^At least 8 characters, with an uppercase letter, a digit and a symbol; at most 72 bytes\./,
  );
  expect(policySummary({ minLength: 12, requireUppercase: false, requireNumbers: true, requireSymbols: false })).toMatch(
    /^At least 12 characters, with a digit; /,
  );
  expect(policySummary({ minLength: 10, requireUppercase: false, requireNumbers: false, requireSymbols: false })).toMatch(/^At least 10 characters; /);
});

test('SERVICE_APP_URL: an http(s) base without query, fragment or credentials; a trailing slash is dropped', () => {
  const env = { SERVICE_JWT_SECRET: 'x'.repeat(32) };
  expect(loadConfig(env).http.appUrl).toBeUndefined();
  expect(loadConfig({ ...env, SERVICE_APP_URL: 'https://app.example.com/team/' }).http.appUrl).toBe('https://app.example.com/team');
  for (const bad of ['javascript:alert(1)', 'https://app.example.com/?next=x', 'https://app.example.com/#x', 'ftp://app.example.com', 'https://u:p@app.example.com', 'app.example.com']) {
    expect(() => loadConfig({ ...env, SERVICE_APP_URL: bad })).toThrow(/SERVICE_APP_URL/);
  }
});
