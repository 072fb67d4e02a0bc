import type { Db } from '../../db/knex';
import { deleteUserSessions, findUserByEmail, pruneExpired } from './queries';

/** Operator actions on accounts (used by scripts/admin.ts). */
export async function revokeSessionsByEmail(db: Db, email: string): Promise<{ found: boolean; revoked: number }> {
  const user = await findUserByEmail(db, email.trim());
  if (!user) return { found: false, revoked: 0 };
  return { found: true, revoked: await deleteUserSessions(db, user.id) };
}

/** Retention: removes sessions that can no longer be used and spent or expired reset/verification codes. */
export async function pruneAuthData(db: Db, idleTimeoutMs: number): Promise<{ sessions: number; authTokens: number }> {
  return pruneExpired(db, new Date(Date.now() - idleTimeoutMs));
}
