import { z } from 'zod';
import { defineRoute, type RouteDef } from '../http/route';
import { requestMetaOf } from '../http/requestMeta';
import { userSummary } from '../../domain/auth/serializers';
import type { SsoService } from '../../domain/auth/sso';
import { loginResult } from '../../domain/auth/twoFactorSchemas';

/** /api/auth/sso: OpenID Connect sign-in per organization; the rules are in domain/auth/sso.ts. */

const tags = ['auth'];

export function ssoRoutes(service: SsoService): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/auth/sso/{slug}/authorize',
      operationId: 'startSsoSignIn',
      summary: "Start signing in with the organization's OpenID Connect provider",
      description:
        'Redirects (302) to the provider with the authorization-code flow: PKCE (S256), a single-use `state` and a ' +
        '`nonce`; the body carries the same URL for clients that do not follow redirects. The provider sends the ' +
        'browser back to GET /api/auth/sso/callback.',
      tags,
      auth: 'public',
      params: z.strictObject({ slug: z.string().min(1).max(100) }),
      responses: {
        302: {
          description: 'To the identity provider',
          schema: z.object({ authorizationUrl: z.string(), expiresIn: z.number().int().describe('seconds the state stays valid') }),
        },
      },
      errors: ['NOT_FOUND', 'UNPROCESSABLE', 'UPSTREAM_ERROR'],
      handler: async ({ params }) => {
        const started = await service.authorize(params.slug);
        return { status: 302, body: started, headers: { location: started.authorizationUrl, 'cache-control': 'no-store' } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/auth/sso/callback',
      operationId: 'completeSsoSignIn',
      summary: 'Where the OpenID Connect provider sends the browser back',
      description:
        'Spends the state (a replayed or unknown state is refused), exchanges the code with the PKCE verifier, ' +
        'verifies the ID token (signature, issuer, audience, expiry, nonce) and the e-mail domain, provisions the ' +
        'member when just-in-time provisioning is on, and signs in: tokens, or a two-factor challenge.',
      tags,
      auth: 'public',
      query: z.object({
        state: z.string().min(1).max(512),
        code: z.string().min(1).max(4096).optional(),
        error: z.string().max(256).optional(),
        error_description: z.string().max(2048).optional(),
        iss: z.string().max(2048).optional(),
      }),
      responses: { 200: { description: 'Signed in, or the second step is due', schema: loginResult } },
      errors: ['INVALID_TOKEN', 'SSO_FAILED', 'FORBIDDEN', 'NOT_FOUND', 'UNPROCESSABLE', 'UPSTREAM_ERROR'],
      handler: async ({ ctx, query }) => {
        const result = await service.callback(requestMetaOf(ctx), query);
        if ('challenge' in result) return { status: 200, body: { user: userSummary(result.user), challenge: result.challenge } };
        return { status: 200, body: { user: userSummary(result.user), tokens: result.tokens } };
      },
    }),
  ];
}
