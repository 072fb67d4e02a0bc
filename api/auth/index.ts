import type { Context } from 'koa';
import type { Domain } from '../domain';
import type { UserPrincipal } from '../../domain/principals';
import type { Services } from '../../domain/services';
import { createPassport } from './passport';
import { authRoutes } from './routes';
import { twoFactorRoutes } from './twoFactorRoutes';
import { ssoRoutes } from './ssoRoutes';
import { createRefreshCookies } from './refreshCookie';

export interface AuthDomain extends Domain {
  /** Bearer access token of a live session (passport `bearer`); the spec's 401 messages in the spec's order. */
  authenticateUser(ctx: Context): Promise<UserPrincipal>;
}

export function createAuthDomain(services: Services): AuthDomain {
  const auth = services.auth;
  const passport = createPassport({ verifyCredentials: auth.verifyCredentials, verifyAccessToken: auth.verifyAccessToken });
  const cookies = createRefreshCookies(auth.tokens, services.deps.config.jwt.secret);
  return {
    routes: [...authRoutes(auth.service, passport, cookies), ...twoFactorRoutes(auth.twoFactor, cookies), ...ssoRoutes(auth.sso, auth.identities, cookies)],
    authenticateUser: (ctx) => passport.authenticateUser(ctx),
  };
}
