import { renderNotice, type RenderedNotice } from './notice';
import { validIp } from '../net/networkPrefix';
import { tenantName } from './tenantText';

/**
 * Security notices to a person about their own account and organizations (issue 43): each says what happened,
 * when and from where, and what to do if it was not them. The request's user agent is the client's own text: it
 * is filtered like a tenant's name (one line, no links) before it appears.
 */
export interface RequestFacts {
  at: Date;
  ip: string | null;
  userAgent: string | null;
}

const IF_NOT_YOU =
  'If this was not you, reset your password now (POST /api/auth/password-reset/request, or "Forgot password" in your app), ' +
  'which signs out every session, and turn on two-factor sign-in.';

function where(facts: RequestFacts): [string, string][] {
  return [
    ['When', facts.at.toISOString()],
    ['IP address', validIp(facts.ip) ?? 'unknown'],
    ['Device', facts.userAgent ? tenantName(facts.userAgent, 120) : 'unknown'],
  ];
}

export function passwordChangedNotice(input: RequestFacts & { how: 'changed' | 'reset' }): RenderedNotice {
  return renderNotice({
    subject: 'Your Loom password was changed',
    heading: 'Your password was changed',
    paragraphs: [
      input.how === 'reset'
        ? 'The password of your Loom account was set with a reset link sent to this address.'
        : 'The password of your Loom account was changed by someone signed in to it.',
      'Every session of your account was signed out.',
    ],
    facts: where(input),
    footer: IF_NOT_YOU,
  });
}

export function twoFactorNotice(input: RequestFacts & { enabled: boolean }): RenderedNotice {
  return renderNotice({
    subject: input.enabled ? 'Two-factor sign-in is now on for your Loom account' : 'Two-factor sign-in was turned off for your Loom account',
    heading: input.enabled ? 'Two-factor sign-in turned on' : 'Two-factor sign-in turned off',
    paragraphs: input.enabled
      ? ['Signing in to your Loom account now needs a code from your authenticator app (or a recovery code) after the password.', 'Keep your recovery codes somewhere safe.']
      : ['Signing in to your Loom account no longer needs a code: the password alone is enough again.'],
    facts: where(input),
    footer: IF_NOT_YOU,
  });
}

export function newSignInNotice(input: RequestFacts & { method: string }): RenderedNotice {
  return renderNotice({
    subject: 'New sign-in to your Loom account',
    heading: 'A new device signed in to your account',
    paragraphs: [
      `Your Loom account was signed in to (${input.method}) from a device or network it has not used before.`,
      'If it was you, there is nothing to do. Your sessions are listed at GET /api/auth/sessions, where each can be ended.',
    ],
    facts: where(input),
    footer: IF_NOT_YOU,
  });
}

export function organizationDeletedNotice(input: { organizationName: string; at: Date; role: string }): RenderedNotice {
  const name = tenantName(input.organizationName);
  return renderNotice({
    subject: `"${name}" was deleted`,
    heading: 'An organization you belonged to was deleted',
    paragraphs: [
      `The organization "${name}" (you were ${input.role}) was deleted by its owner, with its workflows, runs, content and settings. ` +
        'You are no longer a member; your Loom account and your other organizations are not affected.',
      '(The name in quotes was chosen by the organization; Loom does not check it.)',
    ],
    facts: [['Deleted at', input.at.toISOString()]],
  });
}

export function apiQuotaNotice(input: { organizationName: string; used: number; limit: number; period: string; reached: boolean }): RenderedNotice {
  const name = tenantName(input.organizationName);
  const percent = Math.floor((input.used / Math.max(1, input.limit)) * 100);
  return renderNotice({
    subject: input.reached ? `"${name}" reached its API call quota` : `"${name}" has used ${percent}% of its API call quota`,
    heading: input.reached ? 'API call quota reached' : 'API call quota at 80%',
    paragraphs: input.reached
      ? [`"${name}" has used all ${input.limit} API calls of ${input.period}. Further requests are refused with QUOTA_EXCEEDED (and a Retry-After until the next month) until the next period or a plan upgrade.`]
      : [`"${name}" has used ${input.used} of its ${input.limit} API calls for ${input.period}. At the limit, requests are refused with QUOTA_EXCEEDED until the next month or a plan upgrade.`],
    facts: [
      ['Period', input.period],
      ['Used', String(input.used)],
      ['Limit', String(input.limit)],
    ],
  });
}
