import type { Db } from '../../db/knex';
import { recordAudit } from '../audit/record';
import { deleteUserSessions, findUserByEmail, pruneExpired } from './queries';

/** Operator actions on accounts (used by scripts/admin.ts). */
export async function revokeSessionsByEmail(db: Db, email: string): Promise<{ found: boolean; revoked: number }> {
  const user = await findUserByEmail(db, email.trim());
  if (!user) return { found: false, revoked: 0 };
  const revoked = await db.transaction(async (trx) => {
    const ended = await deleteUserSessions(trx, user.id);
    await recordAudit(trx, {
      organizationId: null,
      userId: user.id,
      actor: { type: 'system', id: 'admin-cli' },
      action: 'auth.sessions_revoked',
      after: { sessionsRevoked: ended },
    });
    return ended;
  });
  return { found: true, revoked };
}

/** Retention: removes sessions that can no longer be used and spent or expired reset/verification codes. */
export async function pruneAuthData(db: Db, idleTimeoutMs: number): Promise<{ sessions: number; authTokens: number }> {
  return pruneExpired(db, new Date(Date.now() - idleTimeoutMs));
}
