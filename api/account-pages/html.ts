import type { PasswordPolicy } from '../../lib/auth/passwordPolicy';
import { BCRYPT_MAX_BYTES } from '../../lib/auth/passwordPolicy';

/**
 * The HTML of the account pages (accept an invitation, confirm an e-mail address, reset a password, decide on an
 * approval). Static shells:
 * the only values rendered into them come from the configuration (the password policy, the client app's URL),
 * never from the request, so nothing a visitor sends is reflected. Every view is in the page; the script
 * (./script.ts) shows one at a time (`[data-view]`, `hidden`) and fills the `[data-field]` slots with textContent.
 */

export type AccountPageKind = 'accept-invitation' | 'verify-email' | 'reset-password' | 'decide-approval';

export interface PageOptions {
  nonce: string;
  policy: PasswordPolicy;
  /** SERVICE_APP_URL, when set: the "Open Loom" link of the final views. */
  appUrl: string | null;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** The password policy in words, as the reset and registration forms show it before anyone types. */
export function policySummary(policy: PasswordPolicy): string {
  const needs = [
    policy.requireUppercase ? 'an uppercase letter' : null,
    policy.requireNumbers ? 'a digit' : null,
    policy.requireSymbols ? 'a symbol' : null,
  ].filter((n): n is string => n !== null);
  const classes = needs.length === 0 ? '' : `, with ${needs.length === 1 ? needs[0] : `${needs.slice(0, -1).join(', ')} and ${needs.at(-1)}`}`;
  return (
    `At least ${policy.minLength} characters${classes}; at most ${BCRYPT_MAX_BYTES} bytes. ` +
    'Not a common password and not containing your e-mail address.'
  );
}

function openApp(appUrl: string | null): string {
  return appUrl ? `<p><a class="button" href="${escapeHtml(appUrl)}" rel="noreferrer">Open Loom</a></p>` : '';
}

const passwordFields = (policy: PasswordPolicy, idPrefix: string): string => `
      <label>New password <input name="password" type="password" autocomplete="new-password" required maxlength="1024" /></label>
      <label>Repeat the new password <input name="confirm" type="password" autocomplete="new-password" required maxlength="1024" /></label>
      <p class="hint" id="${idPrefix}-policy">${escapeHtml(policySummary(policy))}</p>`;

/** Sign in (with the two-factor step) and, on the invitation page, create an account. */
function signInForms(options: PageOptions, withRegistration: boolean): string {
  return `
    <div class="tabs" ${withRegistration ? '' : 'hidden'}>
      <button type="button" class="tab" data-tab="sign-in" aria-pressed="true">I have a Loom account</button>
      <button type="button" class="tab" data-tab="register" aria-pressed="false">I am new to Loom</button>
    </div>
    <form id="sign-in-form" data-panel="sign-in" novalidate>
      <label>E-mail address <input name="email" type="email" autocomplete="username" required maxlength="255" /></label>
      <label>Password <input name="password" type="password" autocomplete="current-password" required maxlength="1024" /></label>
      <button type="submit">Sign in</button>
      <p class="hint"><a href="/reset-password">Forgot your password?</a></p>
    </form>
    <form id="two-factor-form" data-panel="two-factor" hidden novalidate>
      <p>Enter the 6-digit code of your authenticator app, or one of your recovery codes.</p>
      <label>Code <input name="code" autocomplete="one-time-code" required maxlength="32" /></label>
      <button type="submit">Continue</button>
    </form>
    ${
      withRegistration
        ? `<form id="register-form" data-panel="register" hidden novalidate>
      <label>E-mail address <input name="email" type="email" autocomplete="username" readonly /></label>
      <label>Your name <input name="name" autocomplete="name" maxlength="255" /></label>
      ${passwordFields(options.policy, 'register')}
      <button type="submit">Create my account and accept</button>
    </form>`
        : ''
    }`;
}

function acceptInvitationBody(options: PageOptions): string {
  return `
    <h1>Join an organization on Loom</h1>
    <section data-view="loading"><p>Checking the invitation…</p></section>
    <section data-view="ready" hidden>
      <p class="lead"><span data-field="inviter"></span> to join <strong data-field="organization"></strong> as
        <strong data-field="role"></strong>.</p>
      <p>The invitation is for <strong data-field="email"></strong> and is valid until <span data-field="expires"></span>.
        To accept it, sign in with that address, or create your Loom account with it if you have none yet.</p>
      ${signInForms(options, true)}
    </section>
    <section data-view="done" hidden>
      <p class="lead">You joined <strong data-field="organization"></strong> as <strong data-field="role"></strong>.</p>
      <p>Next time you sign in to Loom, switch to this organization to work in it. You can close this page.</p>
      ${openApp(options.appUrl)}
    </section>
    <section data-view="expired" hidden>
      <p class="lead">This invitation can no longer be used.</p>
      <p>It has expired, was withdrawn, or was already accepted. Ask an administrator of the organization to send you
        a new invitation.</p>
    </section>
    <section data-view="invalid" hidden>
      <p class="lead">This invitation link is not valid.</p>
      <p>If you received several invitation e-mails, only the newest link works. Otherwise, open the link exactly as it
        appears in the e-mail (some mail programs cut long links), or ask for a new invitation.</p>
    </section>`;
}

function verifyEmailBody(options: PageOptions): string {
  return `
    <h1>Confirm your e-mail address</h1>
    <section data-view="ready" hidden>
      <p>Confirm that this e-mail address belongs to your Loom account.</p>
      <button type="button" id="verify-button">Confirm my e-mail address</button>
    </section>
    <section data-view="done" hidden>
      <p class="lead">Thank you: <strong data-field="email"></strong> is confirmed.</p>
      <p>You can close this page.</p>
      ${openApp(options.appUrl)}
    </section>
    <section data-view="invalid" hidden>
      <p class="lead">This confirmation link has expired, was already used, or is incomplete.</p>
      <p>Only the newest confirmation e-mail's link works, once. If your address is not confirmed yet, sign in to have a
        new link sent to it.</p>
      ${signInForms(options, false)}
    </section>
    <section data-view="resent" hidden>
      <p class="lead">A new confirmation link is on its way to <strong data-field="email"></strong>.</p>
      <p>Open it from the e-mail. You can close this page.</p>
    </section>
    <section data-view="already" hidden>
      <p class="lead"><strong data-field="email"></strong> is already confirmed.</p>
      <p>There is nothing more to do. You can close this page.</p>
      ${openApp(options.appUrl)}
    </section>`;
}

function resetPasswordBody(options: PageOptions): string {
  return `
    <h1>Reset your Loom password</h1>
    <section data-view="ready" hidden>
      <form id="reset-form" novalidate>
        ${passwordFields(options.policy, 'reset')}
        <button type="submit">Set the new password</button>
      </form>
    </section>
    <section data-view="done" hidden>
      <p class="lead">Your password has been changed.</p>
      <p>Every session of your account has been signed out: sign in again with the new password.</p>
      ${openApp(options.appUrl)}
    </section>
    <section data-view="request" hidden>
      <p class="lead" data-field="request-reason">Forgot your password? We will e-mail you a link to choose a new one.</p>
      <form id="request-form" novalidate>
        <label>E-mail address of your account <input name="email" type="email" autocomplete="username" required maxlength="255" /></label>
        <button type="submit">E-mail me a reset link</button>
      </form>
    </section>
    <section data-view="requested" hidden>
      <p class="lead">Check your inbox.</p>
      <p>If <strong data-field="email"></strong> belongs to a Loom account, a reset link is on its way. It works once,
        for a limited time; only the newest link works.</p>
    </section>`;
}

function decideApprovalBody(options: PageOptions): string {
  return `
    <h1>Decide on an approval</h1>
    <section data-view="sign-in" hidden>
      <p>A workflow run waits for a decision. Sign in to see what it asks and to approve or reject it.</p>
      ${signInForms(options, false)}
    </section>
    <section data-view="loading" hidden><p>Loading the approval…</p></section>
    <section data-view="ready" hidden>
      <dl class="facts">
        <dt>Workflow</dt><dd data-field="workflow"></dd>
        <dt>Step</dt><dd data-field="node"></dd>
        <dt>Approvals</dt><dd data-field="progress"></dd>
        <dt>Decide before</dt><dd data-field="expires"></dd>
      </dl>
      <p class="hint">Message from the workflow's authors:</p>
      <blockquote data-field="approval-message"></blockquote>
      <form id="decision-form" novalidate>
        <div id="form-fields"></div>
        <label>Comment (optional) <textarea name="comment" maxlength="2000" rows="3"></textarea></label>
        <div class="actions">
          <button type="submit" name="decision" value="approve">Approve</button>
          <button type="submit" name="decision" value="reject" class="secondary">Reject</button>
        </div>
      </form>
    </section>
    <section data-view="closed" hidden>
      <p class="lead">You cannot decide on this approval now.</p>
      <p data-field="closed-reason"></p>
    </section>
    <section data-view="done" hidden>
      <p class="lead">Thank you: your decision is recorded.</p>
      <p>The approval is now <strong data-field="status"></strong>. You have been signed out of this page; you can close it.</p>
      ${openApp(options.appUrl)}
    </section>
    <section data-view="invalid" hidden>
      <p class="lead">This approval link is not valid.</p>
      <p>Open the link exactly as it appears in the e-mail (some mail programs cut long links).</p>
    </section>`;
}

const TITLES: Record<AccountPageKind, string> = {
  'accept-invitation': 'Accept an invitation · Loom',
  'verify-email': 'Confirm your e-mail address · Loom',
  'reset-password': 'Reset your password · Loom',
  'decide-approval': 'Decide on an approval · Loom',
};

const BODIES: Record<AccountPageKind, (options: PageOptions) => string> = {
  'accept-invitation': acceptInvitationBody,
  'verify-email': verifyEmailBody,
  'reset-password': resetPasswordBody,
  'decide-approval': decideApprovalBody,
};

export function accountPageHtml(kind: AccountPageKind, options: PageOptions): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <meta name="robots" content="noindex, nofollow" />
    <title>${escapeHtml(TITLES[kind])}</title>
    <link rel="stylesheet" href="/ui/assets/account-pages.css" />
  </head>
  <body data-page="${kind}" data-state="loading">
    <main>
      <p class="brand">Loom</p>
      ${BODIES[kind](options)}
      <div id="message" role="alert" hidden>
        <p data-field="message"></p>
        <ul data-field="problems"></ul>
      </div>
      <noscript><p>This page needs JavaScript to continue.</p></noscript>
    </main>
    <script nonce="${options.nonce}" src="/ui/assets/account-pages.js"></script>
  </body>
</html>
`;
}
