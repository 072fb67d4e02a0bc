import type { Context } from 'koa';
import { AppError } from '../../lib/errors';
import type { Db } from '../../db/knex';
import type { UserPrincipal } from '../http/route';
import type { TokenService } from './tokens';

/**
 * The spec's checks, in its order: header present; exactly `Bearer <token>`; token verifies and is unexpired.
 * Then the session behind the token must still be alive, so logout and revocation take effect at once.
 */
export function bearerToken(ctx: Context): string {
  const header = ctx.get('authorization');
  if (!header) throw new AppError('UNAUTHORIZED', 'missing authorization');
  const parts = header.split(' ');
  if (parts.length !== 2 || parts[0] !== 'Bearer' || !parts[1]) {
    throw new AppError('UNAUTHORIZED', 'invalid authorization format');
  }
  return parts[1];
}

export interface SessionCheckOptions {
  idleTimeoutMs: number;
}

export function createUserAuthenticator(db: Db, tokens: TokenService, options: SessionCheckOptions) {
  return async function authenticateUser(ctx: Context): Promise<UserPrincipal> {
    const claims = tokens.verifyAccess(bearerToken(ctx));
    const session = await db('sessions')
      .where({ id: claims.sid, user_id: claims.sub })
      .first('id', 'expires_at', 'updated_at', 'active_organization_id');
    if (!session) throw new AppError('INVALID_TOKEN', 'invalid token');
    const now = Date.now();
    if (new Date(session.expires_at).getTime() <= now) throw new AppError('SESSION_EXPIRED', 'session expired');
    if (new Date(session.updated_at).getTime() + options.idleTimeoutMs <= now) {
      throw new AppError('SESSION_EXPIRED', 'session expired (idle)');
    }
    return {
      kind: 'user',
      userId: claims.sub,
      email: claims.email,
      sessionId: claims.sid,
      activeOrganizationId: (session.active_organization_id as string | null) ?? null,
    };
  };
}
