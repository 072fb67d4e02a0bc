import type { Db } from '../../db/knex';
import { AppError, notFound } from '../../lib/errors';
import { recordAudit } from '../audit/record';
import type { RequestMeta, UserPrincipal } from '../principals';
import { ssoSessionScoped } from './sessions';
import { listIdentitiesOfUser, unlinkIdentityOfUser } from './ssoQueries';

/**
 * The external identities (issuer, subject) linked to the signed-in account: listed so a user sees every way into
 * their account besides the password, and unlinked by the user. Unlinking is refused from a session opened by SSO
 * (one organization's provider must not change how the account is reached elsewhere) and when the identity is the
 * account's last way in (no password set).
 */
export function createIdentitiesService(db: Db) {
  return {
    async list(principal: UserPrincipal) {
      const rows = await listIdentitiesOfUser(db, principal.userId);
      return rows.map((row) => ({ id: row.id, issuer: row.issuer, subject: row.provider_account_id, linkedAt: row.created_at.toISOString() }));
    },

    async unlink(principal: UserPrincipal, meta: RequestMeta, id: string): Promise<void> {
      if (principal.ssoOrganizationId) throw ssoSessionScoped('unlink an identity');
      const outcome = await db.transaction(async (trx) => {
        const result = await unlinkIdentityOfUser(trx, principal.userId, id);
        if (result.outcome === 'unlinked') {
          await recordAudit(trx, {
            organizationId: null,
            userId: principal.userId,
            actor: { type: 'user', id: principal.userId, ip: meta.ip, userAgent: meta.userAgent },
            action: 'auth.sso_identity_unlinked',
            target: { type: 'user', id: principal.userId },
            before: { issuer: result.identity.issuer, subject: result.identity.provider_account_id },
          });
        }
        return result.outcome;
      });
      if (outcome === 'gone') throw notFound('identity');
      if (outcome === 'last') {
        throw new AppError('LAST_SIGN_IN_METHOD', 'this identity is the only way into the account; set a password (reset it by e-mail) before unlinking it');
      }
    },
  };
}

export type IdentitiesService = ReturnType<typeof createIdentitiesService>;
