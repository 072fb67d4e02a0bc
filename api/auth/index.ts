import type { Context } from 'koa';
import type { AppDeps, Domain } from '../domain';
import type { UserPrincipal } from '../http/route';
import { createUserAuthenticator } from './authenticate';
import { createTokenService } from './tokens';

export interface AuthDomain extends Domain {
  authenticateUser(ctx: Context): Promise<UserPrincipal>;
}

// The auth endpoints land with the auth domain; token verification and the session check are already real.
export function createAuthDomain(deps: AppDeps): AuthDomain {
  const tokens = createTokenService(deps.config.jwt);
  return {
    routes: [],
    authenticateUser: createUserAuthenticator(deps.db, tokens, {
      idleTimeoutMs: deps.config.auth.sessionIdleTimeoutMs,
    }),
  };
}
