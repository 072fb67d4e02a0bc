import type { Db } from '../../db/knex';
import { isUuid } from '../../lib/ids';
import { recordAudit } from '../audit/record';
import { listMembershipsOfUser } from '../organizations/queries';
import { endUserSessions, findUserByEmail, findUserById, listLiveSessions, pruneExpired } from './queries';
import { findTwoFactor } from './twoFactorQueries';

/** Operator actions on accounts (used by the admin CLI, scripts/admin-cli/accounts.ts). */
export async function revokeSessionsByEmail(db: Db, email: string): Promise<{ found: boolean; revoked: number }> {
  const user = await findUserByEmail(db, email.trim());
  if (!user) return { found: false, revoked: 0 };
  const revoked = await db.transaction(async (trx) => {
    const ended = await endUserSessions(trx, user.id, 'admin');
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

/** What an operator needs to know of an account before acting on it; never its secrets. */
export interface UserOverview {
  id: string;
  email: string;
  name: string | null;
  emailVerified: boolean;
  createdAt: string;
  twoFactorEnabled: boolean;
  /** sessions that still work (not expired, not idle past the platform's or their organization's limit) */
  liveSessions: number;
  memberships: { organizationId: string; slug: string; name: string; status: string; role: string; joinedAt: string }[];
}

/** A user by e-mail address (any case) or id, with memberships, two-factor state and live sessions; null: none. */
export async function describeUser(db: Db, emailOrId: string, idleTimeoutMs: number): Promise<UserOverview | null> {
  const key = emailOrId.trim();
  const user = isUuid(key) ? await findUserById(db, key) : await findUserByEmail(db, key);
  if (!user) return null;
  const [twoFactor, sessions, memberships] = await Promise.all([
    findTwoFactor(db, user.id),
    listLiveSessions(db, user.id, new Date(Date.now() - idleTimeoutMs)),
    listMembershipsOfUser(db, user.id),
  ]);
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    emailVerified: user.email_verified,
    createdAt: new Date(user.created_at).toISOString(),
    // an enrolment not confirmed yet is off: sign-in does not ask for a code
    twoFactorEnabled: Boolean(twoFactor?.enabled_at),
    liveSessions: sessions.length,
    memberships: memberships.map((m) => ({
      organizationId: m.organization_id,
      slug: m.slug,
      name: m.name,
      status: m.status,
      role: m.role,
      joinedAt: new Date(m.joined_at).toISOString(),
    })),
  };
}
