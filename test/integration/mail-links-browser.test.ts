import { randomUUID } from 'node:crypto';
import type { Page, Request } from 'playwright-core';
import { describeWithBrowser, launchBrowser, screenshotPath, type TestBrowser } from '../helpers/browser';
import { mailsTo, waitForMail } from '../helpers/mail';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';

/**
 * Every link a person gets by e-mail works in a browser (docs/auth.md#links-in-e-mails): each mail is read from the
 * SMTP catcher and its link followed in real Chromium, against the real API, database and mail server.
 */

const PASSWORD = 'Corr3ct-Horse-Battery';
const NEW_PASSWORD = 'Tangerine-Orbit-42';
let api: TestApi;

const newEmail = (tag: string): string => `${tag}-${randomUUID().slice(0, 8)}@example.com`;

async function register(email: string, password = PASSWORD): Promise<{ userId: string; accessToken: string }> {
  const res = await api.request('POST', '/api/auth/register', { body: { email, password, name: 'Ada' } });
  expect(res.status).toBe(201);
  return { userId: res.body.user.id, accessToken: res.body.tokens.accessToken };
}

/** The one link of `text` that opens `path` (with its token). */
function linkIn(text: string | null, path: string): string {
  const escaped = path.replace(/[/.]/g, '\\$&');
  const found = new RegExp(`(https?://\\S+${escaped}\\?token=[A-Za-z0-9_%-]+)`).exec(text ?? '');
  if (!found) throw new Error(`no ${path} link in the mail:\n${text}`);
  return found[1]!;
}

const tokenOf = (link: string): string => new URL(link).searchParams.get('token')!;

/**
 * The mailed link as this test's API serves it: mails use SERVICE_PUBLIC_URL (checked to be the link's base), while
 * the in-process API listens on a random port.
 */
function served(link: string): string {
  expect(link.startsWith(`${api.config.http.publicUrl}/`)).toBe(true);
  const url = new URL(link);
  return `${api.baseUrl}${url.pathname}${url.search}`;
}

/** Polls `read` until it gives `expected` (or fails with the last value after `timeoutMs`). */
async function eventually<T>(read: () => Promise<T>, expected: T, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (last !== expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    last = await read();
  }
  expect(last).toBe(expected);
}

beforeAll(async () => {
  api = await startApi();
});

afterAll(async () => {
  await api?.close();
});

describe('the mails link to the pages, or to the client app when SERVICE_APP_URL is set', () => {
  test('API pages by default: verification, reset and invitation links open this API', async () => {
    const email = newEmail('links');
    await register(email);
    const verification = await waitForMail(email, /Confirm your e-mail/);
    expect(verification.text).toContain('open this link');
    expect(linkIn(verification.text, '/verify-email').startsWith(`${api.config.http.publicUrl}/verify-email?token=`)).toBe(true);
    expect(verification.text).not.toContain('POST ');
  });

  test('with SERVICE_APP_URL, every mail opens the app instead', async () => {
    const app = await startApi({ SERVICE_APP_URL: 'https://app.example.com/loom/' });
    try {
      const email = newEmail('app');
      const res = await app.request('POST', '/api/auth/register', { body: { email, password: PASSWORD } });
      expect(res.status).toBe(201);
      const verification = await waitForMail(email, /Confirm your e-mail/);
      expect(linkIn(verification.text, '/verify-email')).toMatch(/^https:\/\/app\.example\.com\/loom\/verify-email\?token=/);
      expect((await app.request('POST', '/api/auth/password-reset/request', { body: { email } })).status).toBe(202);
      const reset = await waitForMail(email, /Reset your Loom password/);
      expect(linkIn(reset.text, '/reset-password')).toMatch(/^https:\/\/app\.example\.com\/loom\/reset-password\?token=/);

      const tenant = await createTestTenant(app);
      const invitee = newEmail('app-invitee');
      const invite = await app.request('POST', `/api/v1/organizations/${tenant.organizationId}/invitations`, {
        token: tenant.owner.token,
        body: { email: invitee, role: 'member' },
      });
      expect(invite.status).toBe(201);
      const invitation = await waitForMail(invitee, /invited to an organization on Loom/);
      expect(linkIn(invitation.text, '/invitations/accept')).toMatch(/^https:\/\/app\.example\.com\/loom\/invitations\/accept\?token=/);
    } finally {
      await app.close();
    }
  });

});

describe('the pages themselves', () => {
  test.each(['/verify-email', '/reset-password', '/invitations/accept'])(
    '%s: strict CSP with a fresh nonce, no Referer, never cached, the token not echoed',
    async (path) => {
      const token = `probe-${randomUUID()}`;
      const first = await api.request('GET', `${path}?token=${token}`);
      const second = await api.request('GET', path);
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toMatch(/^text\/html/);
      expect(first.headers.get('cache-control')).toBe('no-store');
      expect(first.headers.get('referrer-policy')).toBe('no-referrer');
      const csp = first.headers.get('content-security-policy')!;
      const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
      expect(nonce).toBeDefined();
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|script-src[^;]*'self'/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(second.headers.get('content-security-policy')).not.toContain(nonce);
      // One script, our file, carrying the nonce; no inline script at all.
      expect([...first.text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual([
        `<script nonce="${nonce}" src="/ui/assets/account-pages.js">`,
      ]);
      expect(first.text).not.toContain(token);
    },
  );

  test('the invitation lookup: 404 for an unknown token, 400 for a malformed one', async () => {
    const unknown = await api.request('POST', '/api/v1/invitations/lookup', { body: { token: 'x'.repeat(43) } });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const malformed = await api.request('POST', '/api/v1/invitations/lookup', { body: { token: 'short' } });
    expect(malformed.status).toBe(400);
  });
});

describeWithBrowser('following the mailed links in Chromium', () => {
  let browser: TestBrowser;
  let tenant: TestTenant;

  beforeAll(async () => {
    browser = await launchBrowser();
    tenant = await createTestTenant(api);
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** Opens `link` in a fresh context, recording every request the page makes. */
  async function open(link: string): Promise<{ page: Page; requests: Request[]; close(): Promise<void> }> {
    const context = await browser.browser.newContext();
    const page = await context.newPage();
    const requests: Request[] = [];
    page.on('request', (r) => requests.push(r));
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (msg) => {
      // The API's 4xx answers the page expects (a wrong password...) are logged by Chromium as failed loads.
      if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) problems.push(msg.text());
    });
    await page.goto(link.startsWith(api.baseUrl) ? link : served(link));
    return {
      page,
      requests,
      async close() {
        await context.close();
        // No script error, no CSP refusal.
        expect(problems).toEqual([]);
      },
    };
  }

  /** After the page read it: the token is gone from the address, and no request carried it in a URL or a Referer. */
  async function expectTokenKeptOut(page: Page, requests: Request[], token: string): Promise<void> {
    expect(page.url()).not.toContain(token);
    expect(page.url()).not.toContain('token=');
    const later = requests.slice(1);
    expect(later.length).toBeGreaterThan(0);
    for (const r of later) {
      expect(r.url()).not.toContain(token);
      expect(await r.headerValue('referer')).toBeNull();
    }
  }

  /** Waits for the page to show `view`; a timeout names the view and the message the page shows instead. */
  async function state(page: Page, view: string): Promise<void> {
    try {
      await page.waitForSelector(`body[data-state="${view}"]`, { timeout: 15_000 });
    } catch (err) {
      const shown = {
        state: await page.getAttribute('body', 'data-state'),
        code: await page.getAttribute('#message', 'data-code'),
        message: await page.locator('#message').innerText(),
      };
      throw new Error(`expected the page to show "${view}", it shows ${JSON.stringify(shown)}: ${(err as Error).message}`);
    }
  }
  const visibleText = async (page: Page, view: string) => (await page.locator(`[data-view="${view}"]`).innerText()).replace(/\s+/g, ' ');

  test('register → verification mail → its link → the address is verified; the used link says so', async () => {
    const email = newEmail('verify');
    const user = await register(email);
    const link = linkIn((await waitForMail(email, /Confirm your e-mail/)).text, '/verify-email');
    const me = async () => (await api.request('GET', '/api/auth/me', { token: user.accessToken })).body.user.email_verified;
    expect(await me()).toBe(false);

    const { page, requests, close } = await open(link);
    await state(page, 'ready');
    await page.click('#verify-button');
    await state(page, 'done');
    expect(await visibleText(page, 'done')).toContain(`${email} is confirmed`);
    await expectTokenKeptOut(page, requests, tokenOf(link));
    await page.screenshot({ path: screenshotPath('mail-link-verify-email.png') });
    expect(await me()).toBe(true);
    await close();

    const used = await open(link);
    await state(used.page, 'ready');
    await used.page.click('#verify-button');
    await state(used.page, 'invalid');
    expect(await visibleText(used.page, 'invalid')).toContain('This confirmation link has expired, was already used, or is incomplete');
    await used.close();
  });

  test('an expired verification link offers to sign in and sends a new link', async () => {
    const email = newEmail('verify-again');
    await register(email);
    const first = linkIn((await waitForMail(email, /Confirm your e-mail/)).text, '/verify-email');
    await api.deps.db('auth_tokens').where({ purpose: 'email_verification' }).whereIn('user_id', api.deps.db('users').select('id').where({ email })).update({ expires_at: new Date(Date.now() - 1000) });

    const { page, close } = await open(first);
    await page.click('#verify-button');
    await state(page, 'invalid');
    await page.fill('#sign-in-form input[name=email]', email);
    await page.fill('#sign-in-form input[name=password]', PASSWORD);
    await page.click('#sign-in-form button[type=submit]');
    await state(page, 'resent');
    await close();

    const mails = () => mailsTo(email);
    await eventually(async () => (await mails()).filter((m) => /Confirm your e-mail/.test(m.subject)).length, 2);
    const newest = (await mails()).filter((m) => /Confirm your e-mail/.test(m.subject)).map((m) => linkIn(m.text, '/verify-email'));
    const second = newest.find((l) => l !== first)!;
    const again = await open(second);
    await again.page.click('#verify-button');
    await state(again.page, 'done');
    await again.close();
  });

  test('reset request → mail → link → a weak password shows the policy error, a good one works once', async () => {
    const email = newEmail('reset');
    await register(email);
    expect((await api.request('POST', '/api/auth/password-reset/request', { body: { email } })).status).toBe(202);
    const link = linkIn((await waitForMail(email, /Reset your Loom password/)).text, '/reset-password');

    const { page, requests, close } = await open(link);
    await state(page, 'ready');
    // The policy is on the page before anything is typed.
    expect(await page.locator('#reset-policy').innerText()).toContain('At least 8 characters');

    await page.fill('#reset-form input[name=password]', 'weak');
    await page.fill('#reset-form input[name=confirm]', 'weak');
    await page.click('#reset-form button[type=submit]');
    await page.waitForSelector('#message[data-code="WEAK_PASSWORD"]:not([hidden])');
    const shown = (await page.locator('#message').innerText()).replace(/\s+/g, ' ');
    expect(shown).toContain('This password does not meet the password policy');
    expect(shown).toContain('At least 8 characters; this one has 4');
    expect(shown).toContain('Needs an uppercase letter');
    await page.screenshot({ path: screenshotPath('mail-link-reset-weak.png') });

    await page.fill('#reset-form input[name=password]', NEW_PASSWORD);
    await page.fill('#reset-form input[name=confirm]', `${NEW_PASSWORD}x`);
    await page.click('#reset-form button[type=submit]');
    await page.waitForSelector('#message[data-code="PASSWORDS_DIFFER"]:not([hidden])');

    await page.fill('#reset-form input[name=confirm]', NEW_PASSWORD);
    await page.click('#reset-form button[type=submit]');
    await state(page, 'done');
    await expectTokenKeptOut(page, requests, tokenOf(link));
    await close();

    const login = (password: string) => api.request('POST', '/api/auth/login', { body: { email, password } });
    expect((await login(NEW_PASSWORD)).status).toBe(200);
    const old = await login(PASSWORD);
    expect(old.status).toBe(401);
    expect(old.body.error.code).toBe('INVALID_CREDENTIALS');

    // The link worked once: opened again, it says so and offers a new one.
    const used = await open(link);
    await used.page.fill('#reset-form input[name=password]', 'Another-Good-Pass-7');
    await used.page.fill('#reset-form input[name=confirm]', 'Another-Good-Pass-7');
    await used.page.click('#reset-form button[type=submit]');
    await state(used.page, 'request');
    expect(await visibleText(used.page, 'request')).toContain('This reset link has expired or was already used');
    await used.page.fill('#request-form input[name=email]', email);
    await used.page.click('#request-form button[type=submit]');
    await state(used.page, 'requested');
    await used.close();
    expect((await login(NEW_PASSWORD)).status).toBe(200);
  });

  async function invite(email: string): Promise<string> {
    const res = await api.request('POST', `/api/v1/organizations/${tenant.organizationId}/invitations`, {
      token: tenant.owner.token,
      body: { email, role: 'member' },
    });
    expect(res.status).toBe(201);
    return linkIn((await waitForMail(email, /invited to an organization on Loom/)).text, '/invitations/accept');
  }

  const membership = (userId: string) =>
    api.deps.db('memberships').where({ organization_id: tenant.organizationId, user_id: userId }).first();

  test('invite an existing user → mail → link → the wrong account is refused, the invitee signs in and joins', async () => {
    const email = newEmail('invitee');
    const invitee = await register(email);
    const stranger = newEmail('stranger');
    await register(stranger);
    const link = await invite(email);

    const { page, requests, close } = await open(link);
    await state(page, 'ready');
    const ready = await visibleText(page, 'ready');
    const organization = await api.deps.db('organizations').where({ id: tenant.organizationId }).first();
    expect(ready).toContain(`invited you to join ${organization.name} as member`);
    expect(ready).toContain(`The invitation is for ${email}`);
    expect(await page.inputValue('#sign-in-form input[name=email]')).toBe(email);
    await page.screenshot({ path: screenshotPath('mail-link-invitation-ready.png') });

    await page.fill('#sign-in-form input[name=email]', stranger);
    await page.fill('#sign-in-form input[name=password]', PASSWORD);
    await page.click('#sign-in-form button[type=submit]');
    await page.waitForSelector('#message[data-code="FORBIDDEN"]:not([hidden])');
    expect(await page.locator('#message').innerText()).toContain(`this invitation is for ${email}`);

    await page.fill('#sign-in-form input[name=email]', email);
    await page.fill('#sign-in-form input[name=password]', 'Wrong-Password-1');
    await page.click('#sign-in-form button[type=submit]');
    await page.waitForSelector('#message[data-code="INVALID_CREDENTIALS"]:not([hidden])');

    await page.fill('#sign-in-form input[name=password]', PASSWORD);
    await page.click('#sign-in-form button[type=submit]');
    await state(page, 'done');
    expect(await visibleText(page, 'done')).toContain('You joined');
    await expectTokenKeptOut(page, requests, tokenOf(link));
    await page.screenshot({ path: screenshotPath('mail-link-invitation-done.png') });
    await close();

    expect(await membership(invitee.userId)).toMatchObject({ role: 'member' });
    // The page's own sign-ins were ended again: only the session of the registration is left.
    await eventually(async () => Number((await api.deps.db('sessions').where({ user_id: invitee.userId }).count({ n: '*' }))[0]!.n), 1);

    // Used: opened again, the link says the invitation can no longer be used, before any sign-in.
    const used = await open(link);
    await state(used.page, 'expired');
    expect(await visibleText(used.page, 'expired')).toContain('This invitation can no longer be used');
    await used.close();
  });

  test('invite a new person → the link lets them create the account with the invited address and joins', async () => {
    const email = newEmail('newcomer');
    const link = await invite(email);
    const { page, close } = await open(link);
    await state(page, 'ready');
    await page.click('button[data-tab="register"]');
    expect(await page.inputValue('#register-form input[name=email]')).toBe(email);
    await page.fill('#register-form input[name=name]', 'Newcomer');
    await page.fill('#register-form input[name=password]', 'short');
    await page.fill('#register-form input[name=confirm]', 'short');
    await page.click('#register-form button[type=submit]');
    await page.waitForSelector('#message[data-code="WEAK_PASSWORD"]:not([hidden])');
    await page.fill('#register-form input[name=password]', NEW_PASSWORD);
    await page.fill('#register-form input[name=confirm]', NEW_PASSWORD);
    await page.click('#register-form button[type=submit]');
    await state(page, 'done');
    await close();

    const user = await api.deps.db('users').where({ email }).first();
    expect(user).toMatchObject({ name: 'Newcomer' });
    expect(await membership(user.id)).toMatchObject({ role: 'member' });
    expect((await api.request('POST', '/api/auth/login', { body: { email, password: NEW_PASSWORD } })).status).toBe(200);
  });

  test('an expired invitation and a broken link each show a clear message', async () => {
    const email = newEmail('late');
    const link = await invite(email);
    await api.deps.db('invitations').where({ organization_id: tenant.organizationId, email }).update({ expires_at: new Date(Date.now() - 1000) });
    const expired = await open(link);
    await state(expired.page, 'expired');
    expect(await visibleText(expired.page, 'expired')).toContain('Ask an administrator of the organization to send you a new invitation');
    await expired.close();

    const broken = await open(link.slice(0, -5));
    await state(broken.page, 'invalid');
    expect(await visibleText(broken.page, 'invalid')).toContain('This invitation link is not valid');
    await broken.close();

    const bare = await open(`${api.baseUrl}/reset-password`);
    await state(bare.page, 'request');
    await bare.close();
  });
});
