import { z } from 'zod';
import { defineRoute, type RouteDef } from '../http/route';
import { requestMetaOf } from '../http/requestMeta';
import { userSummary } from '../../domain/auth/serializers';
import type { IdentitiesService } from '../../domain/auth/identities';
import type { SsoService } from '../../domain/auth/sso';
import type { RefreshCookies } from './refreshCookie';
import { loginResult } from '../../domain/auth/twoFactorSchemas';
import { userSummary as userSummarySchema } from '../../domain/auth/schemas';

/** /api/auth/sso: OpenID Connect sign-in per organization; the rules are in domain/auth/sso.ts. */

const tags = ['auth'];

const startedFlow = z.object({ authorizationUrl: z.string(), expiresIn: z.number().int().describe('seconds the state stays valid') });

const linkResult = z
  .object({
    user: userSummarySchema,
    linked: z.object({ issuer: z.string(), organizationID: z.uuid() }).describe('the identity is linked to this account; no session is opened'),
  })
  .describe('The flow was started with POST /api/auth/sso/{slug}/link');

const identity = z.object({
  id: z.uuid(),
  issuer: z.string().nullable().describe("the OpenID Connect provider's issuer"),
  subject: z.string().describe('the identity at that provider (`sub`)'),
  linkedAt: z.string().describe('ISO 8601'),
});

/** Where the console takes over after an SSO sign-in it started (hash routes of the console, docs/console.md). */
export const CONSOLE_LANDING = { signedIn: '/console', twoFactor: '/console#/sign-in/two-factor', refused: '/console#/sign-in' };

export function ssoRoutes(service: SsoService, identities: IdentitiesService, cookies: RefreshCookies): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/auth/identities',
      operationId: 'listIdentities',
      summary: 'The external identities linked to your account',
      description: 'Every identity (issuer, subject) that signs this account in with single sign-on, oldest first.',
      tags,
      auth: 'user',
      responses: { 200: { description: 'The linked identities', schema: z.object({ data: z.array(identity) }) } },
      handler: async ({ principal }) => ({ status: 200, body: { data: await identities.list(principal) } }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/auth/identities/{id}',
      operationId: 'unlinkIdentity',
      summary: 'Unlink an external identity from your account',
      description:
        'From a session opened with the password (not one opened by SSO). Refused with 409 LAST_SIGN_IN_METHOD when ' +
        'the account has no password and this is its only identity. Sessions already open stay open; revoke them ' +
        'at DELETE /api/auth/sessions/{id}.',
      tags,
      auth: 'user',
      params: z.strictObject({ id: z.uuid() }),
      responses: { 204: { description: 'Unlinked' } },
      errors: ['NOT_FOUND', 'SSO_SESSION_SCOPED', 'LAST_SIGN_IN_METHOD'],
      handler: async ({ principal, params, ctx }) => {
        await identities.unlink(principal, requestMetaOf(ctx), params.id);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/auth/sso/{slug}/authorize',
      operationId: 'startSsoSignIn',
      summary: "Start signing in with the organization's OpenID Connect provider",
      description:
        'Redirects (302) to the provider with the authorization-code flow: PKCE (S256), a single-use `state` and a ' +
        '`nonce`; the body carries the same URL for clients that do not follow redirects. The provider sends the ' +
        'browser back to GET /api/auth/sso/callback. `client=console`: the callback signs the browser in to the web ' +
        'console (browser-mode cookies) and sends it there instead of answering JSON.',
      tags,
      auth: 'public',
      params: z.strictObject({ slug: z.string().min(1).max(100) }),
      query: z.object({ client: z.enum(['console']).optional().describe('`console`: the web console started the sign-in') }),
      responses: { 302: { description: 'To the identity provider', schema: startedFlow } },
      errors: ['NOT_FOUND', 'UNPROCESSABLE', 'UPSTREAM_ERROR'],
      handler: async ({ params, query }) => {
        const started = await service.authorize(params.slug, query.client ?? null);
        return { status: 302, body: started, headers: { location: started.authorizationUrl, 'cache-control': 'no-store' } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/sso/{slug}/link',
      operationId: 'startSsoLink',
      summary: "Link your account to your identity at the organization's OpenID Connect provider",
      description:
        'From a session opened with the password (not one opened by SSO), by a member of the organization: starts ' +
        'the same flow as authorize and answers the URL to open; the callback then links the identity (issuer, ' +
        'subject) to this account instead of signing in. Afterwards SSO signs this account in. An account that ' +
        'existed before is never joined to an identity by its e-mail alone: this is how it is linked.',
      tags,
      auth: 'user',
      params: z.strictObject({ slug: z.string().min(1).max(100) }),
      responses: { 200: { description: 'Open this URL in the browser', schema: startedFlow } },
      errors: ['NOT_FOUND', 'FORBIDDEN', 'SSO_SESSION_SCOPED', 'UNPROCESSABLE', 'UPSTREAM_ERROR'],
      handler: async ({ principal, params }) => ({
        status: 200,
        body: await service.startLink(principal, params.slug),
        headers: { 'cache-control': 'no-store' },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/auth/sso/callback',
      operationId: 'completeSsoSignIn',
      summary: 'Where the OpenID Connect provider sends the browser back',
      description:
        'Spends the state (a replayed or unknown state is refused), exchanges the code with the PKCE verifier, ' +
        'verifies the ID token (signature, issuer, audience, expiry, nonce) and the e-mail domain, then finds the ' +
        'user by the linked identity (issuer, subject), never by the e-mail alone: an existing account whose identity ' +
        'is not linked is refused (SSO_ACCOUNT_EXISTS); just-in-time provisioning creates accounts only in the ' +
        "organization's verified domains (SSO_DOMAIN_NOT_VERIFIED). Signs in with a session scoped to the " +
        'organization: tokens, or a two-factor challenge. A flow started with .../link links the identity instead.',
      tags,
      auth: 'public',
      query: z.object({
        state: z.string().min(1).max(512),
        code: z.string().min(1).max(4096).optional(),
        error: z.string().max(256).optional(),
        error_description: z.string().max(2048).optional(),
        iss: z.string().max(2048).optional(),
      }),
      responses: {
        200: { description: 'Signed in, the second step is due, or the identity is linked', schema: z.union([loginResult, linkResult]) },
        303: { description: 'A sign-in the console started: back to the console, signed in (cookies set), at its second step, or with the refusal' },
      },
      errors: [
        'INVALID_TOKEN',
        'SSO_FAILED',
        'FORBIDDEN',
        'NOT_FOUND',
        'UNPROCESSABLE',
        'UPSTREAM_ERROR',
        'SSO_ACCOUNT_EXISTS',
        'SSO_DOMAIN_NOT_VERIFIED',
        'SSO_IDENTITY_LINKED',
        'CONFLICT',
      ],
      handler: async ({ ctx, query }) => {
        const answer = await service.callback(requestMetaOf(ctx), query);
        if (answer.client === 'console') {
          if ('error' in answer) {
            const why = `${answer.error.code}: ${answer.error.message}`;
            return { status: 303, headers: { location: `${CONSOLE_LANDING.refused}?sso_error=${encodeURIComponent(why)}`, 'cache-control': 'no-store' } };
          }
          const result = answer.outcome;
          if ('challenge' in result) {
            cookies.deliverChallenge(ctx, result.challenge.challengeToken, result.challenge.expiresIn);
            return { status: 303, headers: { location: CONSOLE_LANDING.twoFactor, 'cache-control': 'no-store' } };
          }
          if ('tokens' in result) cookies.deliver(ctx, result.tokens);
          return { status: 303, headers: { location: CONSOLE_LANDING.signedIn, 'cache-control': 'no-store' } };
        }
        if ('error' in answer) throw answer.error;
        const result = answer.outcome;
        if ('linked' in result) return { status: 200, body: { user: userSummary(result.user), linked: result.linked } };
        if ('challenge' in result) return { status: 200, body: { user: userSummary(result.user), challenge: result.challenge } };
        return { status: 200, body: { user: userSummary(result.user), tokens: result.tokens } };
      },
    }),
  ];
}
