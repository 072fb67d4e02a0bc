import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../../lib/config';
import { APPROVAL_PAGE_PATH } from '../../lib/emails/approvals';
import { ACCOUNT_PAGE_PATHS } from '../../lib/emails/links';
import type { InvitationPreview } from '../../domain/organizations/invitationLookup';
import { defineRoute, type RouteDef } from '../http/route';
import { accountPageHtml, type AccountPageKind } from './html';
import { ACCOUNT_PAGES_SCRIPT } from './script';
import { ACCOUNT_PAGES_CSS } from './styles';

/**
 * The pages e-mailed links open when no client app is configured (docs/auth.md#links-in-e-mails), their two
 * static files, and the invitation preview the accept page shows before asking anyone to sign in.
 */

export interface AccountPagesService {
  previewInvitation(token: string): Promise<InvitationPreview>;
}

/**
 * Only our own script, by nonce (no 'self': no other script of this origin can be loaded into these pages); styles
 * from our file only; requests only to this API; no form posts anywhere (the script sends the forms); no framing.
 */
export function accountPageCsp(nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    "style-src 'self'",
    "img-src 'self'",
    "connect-src 'self'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'X-Content-Type-Options': 'nosniff',
  // The address holds a token until the script removes it: no Referer anywhere, no copy in any cache.
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

const PAGES: { kind: AccountPageKind; path: string; operationId: string; summary: string; description: string }[] = [
  {
    kind: 'accept-invitation',
    path: ACCOUNT_PAGE_PATHS.acceptInvitation,
    operationId: 'acceptInvitationPage',
    summary: 'HTML page: accept an invitation (the link of the invitation e-mail)',
    description:
      'Reads `?token=` in the browser, shows the invitation (POST /api/v1/invitations/lookup), lets the person sign ' +
      'in (two-factor step included) or create an account with the invited address, then calls POST ' +
      '/api/v1/invitations/accept and signs that session out again.',
  },
  {
    kind: 'verify-email',
    path: ACCOUNT_PAGE_PATHS.verifyEmail,
    operationId: 'verifyEmailPage',
    summary: 'HTML page: confirm an e-mail address (the link of the verification e-mail)',
    description:
      'Reads `?token=` in the browser; one button calls POST /api/auth/email-verification/confirm. An expired or ' +
      'used link offers to sign in and have a new one sent.',
  },
  {
    kind: 'reset-password',
    path: ACCOUNT_PAGE_PATHS.resetPassword,
    operationId: 'resetPasswordPage',
    summary: 'HTML page: choose a new password (the link of the password reset e-mail)',
    description:
      'Reads `?token=` in the browser; a form with the new password twice calls POST ' +
      '/api/auth/password-reset/confirm and shows the policy problems (WEAK_PASSWORD details). Without a token, or ' +
      'with an expired one, it offers to e-mail a new link (POST /api/auth/password-reset/request).',
  },
  {
    kind: 'decide-approval',
    path: APPROVAL_PAGE_PATH,
    operationId: 'decideApprovalPage',
    summary: 'HTML page: approve or reject an approval (the link of the approval e-mail)',
    description:
      'Reads `?organization=` and `?approval=` (ids, no secret), lets the person sign in (two-factor step included), ' +
      "switches the session to that organization, shows the approval (GET /api/v1/approvals/{id}) with its form, and " +
      'sends the decision (POST /api/v1/approvals/{id}/decision); then signs that session out again.',
  },
];

export const invitationPreviewSchema = z.object({
  organizationName: z.string(),
  email: z.string().describe('the invited address: the account that may accept'),
  role: z.string(),
  inviterName: z.string().nullable(),
  expiresAt: z.iso.datetime(),
});

export function accountPageRoutes(config: Config, service: AccountPagesService): RouteDef[] {
  const policy = {
    minLength: config.auth.passwordMinLength,
    requireUppercase: config.auth.passwordRequireUppercase,
    requireNumbers: config.auth.passwordRequireNumbers,
    requireSymbols: config.auth.passwordRequireSymbols,
  };
  const appUrl = config.http.appUrl ?? null;

  const pages = PAGES.map((p) =>
    defineRoute({
      method: 'get',
      path: p.path,
      operationId: p.operationId,
      summary: p.summary,
      description:
        p.description +
        (p.kind === 'decide-approval'
          ? ' The session lives in the page\'s memory only.'
          : ' The token never reaches the server in a GET: the page removes it from the address (history.replaceState) and posts it.') +
        ' Strict CSP with a per-response nonce, no Referer, never cached.',
      tags: ['account pages'],
      auth: 'public',
      responses: { 200: { description: 'the page', contentType: 'text/html' } },
      handler: async () => {
        const nonce = randomBytes(18).toString('base64');
        return {
          body: accountPageHtml(p.kind, { nonce, policy, appUrl }),
          headers: { ...PAGE_HEADERS, 'Content-Security-Policy': accountPageCsp(nonce) },
        };
      },
    }),
  );

  const asset = (path: string, operationId: string, summary: string, body: string, contentType: string) =>
    defineRoute({
      method: 'get',
      path,
      operationId,
      summary,
      tags: ['account pages'],
      auth: 'public',
      responses: { 200: { description: summary, contentType } },
      handler: async () => ({
        body,
        headers: { 'Content-Type': `${contentType}; charset=utf-8`, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' },
      }),
    });

  return [
    ...pages,
    asset('/ui/assets/account-pages.js', 'accountPagesScript', "The account pages' script", ACCOUNT_PAGES_SCRIPT, 'text/javascript'),
    asset('/ui/assets/account-pages.css', 'accountPagesStylesheet', "The account pages' stylesheet", ACCOUNT_PAGES_CSS, 'text/css'),
    defineRoute({
      method: 'post',
      path: '/api/v1/invitations/lookup',
      operationId: 'lookupInvitation',
      summary: 'What an invitation token is for, before signing in',
      description:
        'For the page the invitation e-mail links to: the organization, the invited address (the account that may ' +
        'accept), the role and the expiry, i.e. what the e-mail itself says. Changes nothing. The token goes in the ' +
        'body so that it reaches no access log.',
      tags: ['organizations'],
      auth: 'public',
      body: z.strictObject({ token: z.string().min(20).max(200) }),
      responses: { 200: { description: 'the pending invitation', schema: invitationPreviewSchema } },
      errors: ['NOT_FOUND', 'INVITATION_EXPIRED'],
      handler: async ({ body }) => {
        const preview = await service.previewInvitation(body.token);
        return { body: { ...preview, expiresAt: preview.expiresAt.toISOString() } };
      },
    }),
  ];
}
