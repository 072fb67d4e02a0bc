import type { Context } from 'koa';
import { AppError } from '../../lib/errors';
import type { AppDeps, Domain } from '../domain';
import type { UserPrincipal } from '../http/route';

export interface AuthDomain extends Domain {
  authenticateUser(ctx: Context): Promise<UserPrincipal>;
}

// Placeholder until the auth domain lands: every protected request is refused.
export function createAuthDomain(_deps: AppDeps): AuthDomain {
  return {
    routes: [],
    async authenticateUser() {
      throw new AppError('UNAUTHORIZED', 'missing authorization');
    },
  };
}
