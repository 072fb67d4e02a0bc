import type { Context } from 'koa';
import { AppError } from '../../lib/errors';

/**
 * The spec's first two checks, in its order: header present; exactly `Bearer <token>`. The token's own checks
 * (verifies, unexpired, live session) are domain/auth/accessTokens.ts's.
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
