import { createIdentitiesService } from '../../domain/auth/identities';
import type { Context } from 'koa';
import type { Domain } from '../domain';
import type { AppDeps } from '../../domain/deps';
import type { UserPrincipal } from '../../domain/principals';
import { createRateLimiter, type RateLimiter } from '../../domain/ratelimit/limiter';
import { createAccessTokenVerifier } from '../../domain/auth/accessTokens';
import type { AuthChangeListener } from '../../domain/auth/authChangeListener';
import { createPassport } from './passport';
import { createPasswordHasher } from '../../domain/auth/passwords';
import { authRoutes } from './routes';
import { createCredentialVerifier } from '../../domain/auth/credentials';
import { createAuthService } from '../../domain/auth/service';
import { createSessionService } from '../../domain/auth/sessions';
import { createTokenService } from '../../domain/auth/tokens';
import { createTwoFactorService } from '../../domain/auth/twoFactor';
import { secretBoxFor } from '../../domain/secrets/queries';
import { twoFactorRoutes } from './twoFactorRoutes';
import { createSsoService } from '../../domain/auth/sso';
import { ssoRoutes } from './ssoRoutes';
import { createRefreshCookies } from './refreshCookie';

export interface AuthDomain extends Domain {
  /** Bearer access token of a live session (passport `bearer`); the spec's 401 messages in the spec's order. */
  authenticateUser(ctx: Context): Promise<UserPrincipal>;
  /** The shared PostgreSQL-backed limiter, for other domains that want to reuse it. */
  limiter: RateLimiter;
}

/** `changes` keeps remembered session checks current (none: every request reads its session). */
export function createAuthDomain(deps: AppDeps, changes: AuthChangeListener | null): AuthDomain {
  const { db, config, logger, mailer } = deps;
  const tokens = createTokenService(config.jwt);
  const passwords = createPasswordHasher(config.auth.bcryptCost);
  const limiter = createRateLimiter(db);
  const sessions = createSessionService({ db, tokens, auth: config.auth });
  const verifyAccessToken = createAccessTokenVerifier(db, tokens, {
    idleTimeoutMs: config.auth.sessionIdleTimeoutMs,
    cacheTtlMs: config.auth.sessionCacheTtlMs,
    changes,
  });
  const passport = createPassport({ verifyCredentials: createCredentialVerifier(db, passwords), verifyAccessToken });
  const box = secretBoxFor(config);
  const twoFactor = createTwoFactorService({ db, config, box, limiter, passwords, sessions });
  const sso = createSsoService({ db, config, box, sessions, twoFactor });
  const cookies = createRefreshCookies(tokens, config.jwt.secret);
  const service = createAuthService({ db, config, logger, mailer, tokens, sessions, passwords, limiter, twoFactor });
  return {
    routes: [...authRoutes(service, passport, cookies), ...twoFactorRoutes(twoFactor, cookies), ...ssoRoutes(sso, createIdentitiesService(db))],
    authenticateUser: (ctx) => passport.authenticateUser(ctx),
    limiter,
  };
}
