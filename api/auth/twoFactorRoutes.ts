import { defineRoute, type RouteDef } from '../http/route';
import { requestMetaOf } from '../http/requestMeta';
import * as s from '../../domain/auth/twoFactorSchemas';
import { userSummary } from '../../domain/auth/serializers';
import type { TwoFactorService } from '../../domain/auth/twoFactor';
import type { RefreshCookies } from './refreshCookie';

/** /api/auth/2fa and the second sign-in step: declarations only; the rules are in domain/auth/twoFactor.ts. */

const tags = ['auth'];

export function twoFactorRoutes(service: TwoFactorService, cookies: RefreshCookies): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/auth/2fa',
      operationId: 'getTwoFactorStatus',
      summary: "Whether the current user's two-factor sign-in is on",
      tags,
      auth: 'user',
      responses: { 200: { description: 'Status', schema: s.twoFactorStatus } },
      errors: ['TOKEN_EXPIRED'],
      handler: async ({ principal }) => ({ status: 200, body: await service.status(principal) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/2fa/enrolment',
      operationId: 'startTwoFactorEnrolment',
      summary: 'Start enrolling an authenticator app (TOTP)',
      description:
        'Answers a new secret as an otpauth URI and a QR code. Nothing changes for sign-in until the first code is ' +
        'confirmed with POST /api/auth/2fa/enrolment/confirm; starting again replaces an unconfirmed secret.',
      tags,
      auth: 'user',
      responses: { 201: { description: 'Scan the QR code, then confirm a code', schema: s.enrolment } },
      errors: ['INVALID_STATE', 'TOKEN_EXPIRED'],
      handler: async ({ ctx, principal }) => ({ status: 201, body: await service.startEnrolment(requestMetaOf(ctx), principal) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/2fa/enrolment/confirm',
      operationId: 'confirmTwoFactorEnrolment',
      summary: 'Turn two-factor sign-in on with a first code',
      description:
        'Answers ten single-use recovery codes (shown once) and a new token pair: every session of the user ends, ' +
        'this one included, since they were opened with the password alone.',
      tags,
      auth: 'user',
      body: s.enrolmentConfirmBody,
      responses: { 200: { description: 'Enabled', schema: s.enrolmentConfirmed } },
      errors: ['INVALID_TWO_FACTOR_CODE', 'INVALID_STATE', 'RATE_LIMITED', 'TOKEN_EXPIRED'],
      handler: async ({ ctx, principal, body }) => ({
        status: 200,
        body: await service.confirmEnrolment(requestMetaOf(ctx), principal, body.code),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/2fa/disable',
      operationId: 'disableTwoFactor',
      summary: 'Turn two-factor sign-in off',
      description: 'Needs the current password (when the account has one) and a current code or a recovery code.',
      tags,
      auth: 'user',
      body: s.disableBody,
      responses: { 204: { description: 'Disabled; the recovery codes are gone' } },
      errors: ['INVALID_CREDENTIALS', 'INVALID_TWO_FACTOR_CODE', 'INVALID_STATE', 'RATE_LIMITED', 'TOKEN_EXPIRED'],
      handler: async ({ ctx, principal, body }) => {
        await service.disable(requestMetaOf(ctx), principal, body);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/2fa/recovery-codes',
      operationId: 'regenerateRecoveryCodes',
      summary: 'Replace the recovery codes',
      description: 'Needs a current code; the previous recovery codes stop working.',
      tags,
      auth: 'user',
      body: s.recoveryCodesBody,
      responses: { 200: { description: 'New recovery codes, shown once', schema: s.recoveryCodes } },
      errors: ['INVALID_TWO_FACTOR_CODE', 'INVALID_STATE', 'RATE_LIMITED', 'TOKEN_EXPIRED'],
      handler: async ({ ctx, principal, body }) => ({
        status: 200,
        body: { recoveryCodes: await service.regenerateRecoveryCodes(requestMetaOf(ctx), principal, body.code) },
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/login/2fa',
      operationId: 'completeTwoFactorLogin',
      summary: 'Second sign-in step: the challenge and a code give the tokens',
      description:
        'The challenge comes from POST /api/auth/login (or an SSO callback) when the user has two-factor sign-in on. ' +
        'A code works once; five wrong codes end the challenge; every check counts against ' +
        'SERVICE_RATE_LIMIT_TWO_FACTOR_ACCOUNT.',
      tags,
      auth: 'public',
      body: s.challengeBody,
      responses: { 200: { description: 'Signed in (browser mode as for login)', schema: s.loginResult } },
      errors: ['INVALID_TOKEN', 'INVALID_TWO_FACTOR_CODE', 'RATE_LIMITED'],
      handler: async ({ ctx, body }) => {
        const challengeToken = cookies.challengePresented(ctx, body.challengeToken);
        const result = await service.completeChallenge(requestMetaOf(ctx), { challengeToken, code: body.code });
        const tokens = cookies.wanted(ctx) ? cookies.deliver(ctx, result.tokens) : result.tokens;
        return { status: 200, body: { user: userSummary(result.user), tokens } };
      },
    }),
  ];
}
