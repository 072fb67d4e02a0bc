import { z } from 'zod';
import { defineRoute, type RouteDef } from '../http/route';
import { requestMetaOf } from '../http/requestMeta';
import * as s from '../../domain/auth/schemas';
import { loginResult, refreshResult, switchOrganizationResult } from '../../domain/auth/twoFactorSchemas';
import type { RefreshCookies } from './refreshCookie';
import { sessionInfo, userProfile, userSummary } from '../../domain/auth/serializers';
import type { AuthService } from '../../domain/auth/service';
import type { AuthPassport } from './passport';

/** /api/auth: declarations only; the rules are in service.ts. */

const tags = ['auth'];

export function authRoutes(service: AuthService, passport: AuthPassport, cookies: RefreshCookies): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/auth/register',
      operationId: 'register',
      summary: 'Create an account and sign in',
      description:
        'Creates the user, opens a session and returns a token pair. A verification e-mail is sent in the background.',
      tags,
      auth: 'public',
      body: s.registerBody,
      responses: { 201: { description: 'Registered and signed in', schema: s.authResult } },
      errors: ['USER_EXISTS', 'WEAK_PASSWORD', 'RATE_LIMITED', 'INVITATION_EXPIRED', 'UNPROCESSABLE'],
      admit: (ctx) => service.admit(requestMetaOf(ctx), 'register'),
      handler: async ({ ctx, body }) => {
        const result = await service.register(requestMetaOf(ctx), body);
        return { status: 201, body: { user: userSummary(result.user), tokens: result.tokens } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/login',
      operationId: 'login',
      summary: 'Sign in with e-mail and password',
      description:
        'Opens a new session (the oldest is evicted past the per-user maximum). A wrong password and an unknown ' +
        'e-mail give the same answer. A user with two-factor sign-in on gets `challenge` instead of `tokens`: send ' +
        'it with a code to POST /api/auth/login/2fa. With `X-Refresh-Token-Transport: cookie` (browser mode) the ' +
        'refresh token is set as an HttpOnly cookie instead of answered (docs/auth.md#browser-clients-refresh-cookie).',
      tags,
      auth: 'public',
      body: s.loginBody,
      responses: { 200: { description: 'Signed in, or the second step is due', schema: loginResult } },
      errors: ['INVALID_CREDENTIALS', 'RATE_LIMITED'],
      admit: (ctx) => service.admit(requestMetaOf(ctx), 'login'),
      handler: async ({ ctx, body }) => {
        const result = await service.login(requestMetaOf(ctx), body, (credentials) => passport.login(ctx, credentials));
        if ('challenge' in result) return { status: 200, body: { user: userSummary(result.user), challenge: result.challenge } };
        const tokens = cookies.wanted(ctx) ? cookies.deliver(ctx, result.tokens) : result.tokens;
        return { status: 200, body: { user: userSummary(result.user), tokens } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/refresh',
      operationId: 'refreshToken',
      summary: 'Exchange a refresh token for a new token pair',
      description:
        'The refresh token is single use: the answer carries its successor. Presenting a spent refresh token ' +
        'revokes its session (reuse detection). Browser mode: send no refreshToken; the refresh cookie is used and ' +
        'the X-CSRF-Token header is required (403 without it); the answer sets the rotated cookie.',
      tags,
      auth: 'public',
      body: s.refreshBody,
      responses: { 200: { description: 'New access token and rotated refresh token', schema: refreshResult } },
      errors: ['INVALID_TOKEN', 'TOKEN_EXPIRED', 'SESSION_EXPIRED', 'RATE_LIMITED', 'FORBIDDEN'],
      admit: (ctx) => service.admit(requestMetaOf(ctx), 'refresh'),
      handler: async ({ ctx, body }) => {
        const presented = cookies.presented(ctx, body.refreshToken);
        const pair = await service.refresh(requestMetaOf(ctx), presented.token, ctx.state.log);
        return { status: 200, body: presented.fromCookie || cookies.wanted(ctx) ? cookies.deliver(ctx, pair) : pair };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/auth/me',
      operationId: 'getCurrentUser',
      summary: 'The current user and session',
      tags,
      auth: 'user',
      responses: { 200: { description: 'The current user', schema: s.meResponse } },
      errors: ['TOKEN_EXPIRED'],
      handler: async ({ principal }) => {
        const { user: row, principal: p } = await service.me(principal);
        return {
          status: 200,
          body: { user: userProfile(row), organizationID: p.activeOrganizationId, sessionId: p.sessionId },
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/logout',
      operationId: 'logout',
      summary: 'End the current session',
      description: "Both of the session's tokens stop working at once.",
      tags,
      auth: 'user',
      responses: { 204: { description: 'Signed out' } },
      errors: ['TOKEN_EXPIRED'],
      handler: async ({ ctx, principal }) => {
        await service.logout(requestMetaOf(ctx), principal);
        cookies.clear(ctx);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/api/auth/profile',
      operationId: 'updateProfile',
      summary: 'Update name and avatar image',
      tags,
      auth: 'user',
      body: s.profileBody,
      responses: { 200: { description: 'The updated user', schema: z.object({ user: s.userProfile }) } },
      errors: ['TOKEN_EXPIRED'],
      handler: async ({ principal, body }) => ({
        status: 200,
        body: { user: userProfile(await service.updateProfile(principal, body)) },
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/switch-organization',
      operationId: 'switchOrganization',
      summary: "Change the session's active organization",
      description:
        'Only an organization the user is a member of. Returns a new token pair whose access token carries the new ' +
        'organization (with `X-Refresh-Token-Transport: cookie`, in browser mode as for login); the previous ' +
        'refresh token is spent. A session opened by an organization\'s single sign-on ' +
        'stays in that organization (403 SSO_SESSION_SCOPED).',
      tags,
      auth: 'user',
      body: s.switchOrganizationBody,
      responses: { 200: { description: 'New token pair for the organization', schema: switchOrganizationResult } },
      errors: ['FORBIDDEN', 'TOKEN_EXPIRED', 'CONFLICT', 'SSO_SESSION_SCOPED'],
      handler: async ({ ctx, principal, body }) => {
        const pair = await service.switchOrganization(principal, body.organizationID);
        const tokens = cookies.wanted(ctx) ? cookies.deliver(ctx, pair) : pair;
        return { status: 200, body: { ...tokens, organizationID: body.organizationID } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/password',
      operationId: 'changePassword',
      summary: 'Change the password',
      description: 'Needs the current password. Every session of the user ends; the caller receives a fresh token pair.',
      tags,
      auth: 'user',
      body: s.changePasswordBody,
      responses: { 200: { description: 'Password changed; a new token pair', schema: s.tokenPair } },
      errors: ['INVALID_CREDENTIALS', 'WEAK_PASSWORD', 'RATE_LIMITED', 'TOKEN_EXPIRED'],
      handler: async ({ ctx, principal, body }) => ({
        status: 200,
        body: await service.changePassword(requestMetaOf(ctx), principal, body),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/password-reset/request',
      operationId: 'requestPasswordReset',
      summary: 'E-mail a password reset code',
      description:
        'The same answer whether or not the address is registered. The code is valid for one hour (configurable) ' +
        'and once; asking again invalidates the previous code.',
      tags,
      auth: 'public',
      body: s.resetRequestBody,
      responses: { 202: { description: 'If the address is registered, a code is on its way', schema: s.accepted } },
      errors: ['RATE_LIMITED'],
      admit: (ctx) => service.admit(requestMetaOf(ctx), 'resetRequest'),
      handler: async ({ ctx, body }) => {
        await service.requestPasswordReset(requestMetaOf(ctx), body.email);
        return { status: 202, body: { message: 'if the address is registered, a reset code is on its way' } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/password-reset/confirm',
      operationId: 'confirmPasswordReset',
      summary: 'Set a new password with an e-mailed reset code',
      description: 'Single use. Confirms the e-mail address and ends every session of the user.',
      tags,
      auth: 'public',
      body: s.resetConfirmBody,
      responses: { 204: { description: 'Password set; sign in with it' } },
      errors: ['INVALID_TOKEN', 'WEAK_PASSWORD', 'RATE_LIMITED'],
      admit: (ctx) => service.admit(requestMetaOf(ctx), 'resetConfirm'),
      handler: async ({ ctx, body }) => {
        await service.confirmPasswordReset(requestMetaOf(ctx), body);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/email-verification/send',
      operationId: 'sendEmailVerification',
      summary: 'E-mail a verification code to the current user',
      tags,
      auth: 'user',
      responses: { 202: { description: 'Sent', schema: s.accepted } },
      errors: ['INVALID_STATE', 'RATE_LIMITED', 'TOKEN_EXPIRED'],
      handler: async ({ ctx, principal }) => {
        await service.sendVerificationEmail(requestMetaOf(ctx), principal);
        return { status: 202, body: { message: 'verification code sent' } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/auth/email-verification/confirm',
      operationId: 'confirmEmailVerification',
      summary: 'Confirm the e-mail address with an e-mailed code',
      tags,
      auth: 'public',
      body: s.verificationConfirmBody,
      responses: { 200: { description: 'Verified', schema: z.object({ user: s.userProfile }) } },
      errors: ['INVALID_TOKEN', 'RATE_LIMITED'],
      admit: (ctx) => service.admit(requestMetaOf(ctx), 'verifyConfirm'),
      handler: async ({ body }) => ({
        status: 200,
        body: { user: userProfile(await service.confirmEmailVerification(body.token)) },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/auth/sessions',
      operationId: 'listSessions',
      summary: "The current user's live sessions",
      description:
        "Live: not expired, and used within the platform's idle timeout and within the idle policy (security.sessionTimeoutMinutes) " +
        "of the session's active organization, the rule every request applies.",
      tags,
      auth: 'user',
      responses: { 200: { description: 'Live sessions, newest first', schema: s.sessionList } },
      errors: ['TOKEN_EXPIRED'],
      handler: async ({ principal }) => {
        const p = principal;
        const rows = await service.listSessions(p);
        return { status: 200, body: { data: rows.map((row) => sessionInfo(row, p.sessionId)) } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/auth/sessions/{id}',
      operationId: 'revokeSession',
      summary: 'End one of your sessions',
      tags,
      auth: 'user',
      params: s.sessionParams,
      responses: { 204: { description: 'Session ended' } },
      errors: ['NOT_FOUND', 'TOKEN_EXPIRED'],
      handler: async ({ ctx, principal, params }) => {
        await service.revokeSession(requestMetaOf(ctx), principal, params.id);
        return { status: 204 };
      },
    }),
  ];
}
