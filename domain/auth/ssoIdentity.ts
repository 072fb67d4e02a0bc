import { createHash } from 'node:crypto';
import type { Db } from '../../db/knex';
import { isUniqueViolation } from '../../lib/db/errors';
import { AppError } from '../../lib/errors';
import type { Role } from '../../lib/permissions';
import { recordAudit } from '../audit/record';
import { isDomainVerifiedBy } from '../organizations/domainQueries';
import { insertMembership } from '../organizations/queries';
import type { RequestMeta } from '../principals';
import * as q from './queries';
import * as sq from './ssoQueries';

/**
 * Who an SSO sign-in is (docs/auth.md#identities-and-linking). The provider's answer has been verified by sso.ts;
 * here it becomes a user, by the identity (issuer, subject) and never by the e-mail alone:
 * - a linked identity signs in its user, who must be a member of the organization (or join it just in time, under
 *   the rule for new accounts below);
 * - an unlinked identity whose e-mail belongs to an existing account is refused (409 SSO_ACCOUNT_EXISTS): that
 *   account was not made by this provider, so only its owner, signed in, may link it (`link` below);
 * - otherwise just-in-time provisioning may create the account, only for an e-mail in a domain the organization has
 *   proven by DNS (domain/organizations/domainsService.ts), and links the identity to it.
 * An identity is linked to one user; a user has at most one identity per provider.
 */

/** What the verified ID token says, with the organization whose SSO it came through. */
export interface VerifiedIdentity {
  organizationId: string;
  slug: string;
  issuer: string;
  subject: string;
  email: string;
  name: string | null;
  jitProvisioning: boolean;
  defaultRole: Role;
}

/**
 * `accounts.provider` of an OIDC issuer: `oidc:` and the base64url SHA-256 of the issuer URL (48 characters, within
 * the spec's varchar(50) for any issuer); the issuer itself is stored beside it.
 */
export function providerKey(issuer: string): string {
  return `oidc:${createHash('sha256').update(issuer).digest('base64url')}`;
}

const domainOf = (email: string): string => email.slice(email.lastIndexOf('@') + 1);

const identityLinked = (message: string): AppError => new AppError('SSO_IDENTITY_LINKED', message);

export function createSsoIdentities(db: Db) {
  async function requireVerifiedDomain(id: VerifiedIdentity): Promise<void> {
    const domain = domainOf(id.email);
    if (!(await isDomainVerifiedBy(db, id.organizationId, domain))) {
      throw new AppError(
        'SSO_DOMAIN_NOT_VERIFIED',
        `${domain} is not a verified domain of this organization, so single sign-on may not create or join an account for ${id.email}; ask an administrator for an invitation`,
      );
    }
  }

  /** Just-in-time membership (and account, for `user` undefined) with the organization's default role. */
  async function provision(meta: RequestMeta, id: VerifiedIdentity, user: q.UserRow | undefined): Promise<q.UserRow> {
    const provider = providerKey(id.issuer);
    try {
      return await db.transaction(async (trx) => {
        const account = user ?? (await q.insertSsoUser(trx, { email: id.email, name: id.name }));
        if (!user) await sq.insertIdentity(trx, { userId: account.id, provider, subject: id.subject, issuer: id.issuer });
        await insertMembership(trx, id.organizationId, account.id, id.defaultRole);
        await recordAudit(trx, {
          organizationId: id.organizationId,
          actor: { type: 'user', id: account.id, ip: meta.ip, userAgent: meta.userAgent },
          action: 'member.provisioned_by_sso',
          target: { type: 'user', id: account.id },
          after: { role: id.defaultRole, accountCreated: !user },
        });
        return account;
      });
    } catch (err) {
      // A second callback of the same person racing this one: the first made the account or membership.
      if (isUniqueViolation(err)) throw new AppError('CONFLICT', 'this sign-in raced another one of the same account; sign in again');
      throw err;
    }
  }

  return {
    /** The user an SSO sign-in signs in as, provisioned when the rules allow it; refusals as above. */
    async signInUser(meta: RequestMeta, id: VerifiedIdentity): Promise<q.UserRow> {
      const linkedUserId = await sq.findLinkedUserId(db, providerKey(id.issuer), id.subject);
      if (linkedUserId) {
        const user = await q.findUserById(db, linkedUserId);
        if (!user) throw new AppError('SSO_FAILED', 'the account linked to this identity is gone; start the sign-in again');
        if (await sq.findMembershipRole(db, id.organizationId, user.id)) return user;
        if (!id.jitProvisioning) {
          throw new AppError('FORBIDDEN', `${user.email} is not a member of this organization; ask an administrator for an invitation`);
        }
        await requireVerifiedDomain(id);
        return provision(meta, id, user);
      }
      if (await q.findUserByEmail(db, id.email)) {
        throw new AppError(
          'SSO_ACCOUNT_EXISTS',
          `an account for ${id.email} already exists and this identity is not linked to it; sign in with your password, then link it with POST /api/auth/sso/${id.slug}/link`,
        );
      }
      if (!id.jitProvisioning) {
        throw new AppError('FORBIDDEN', `${id.email} is not a member of this organization; ask an administrator for an invitation`);
      }
      await requireVerifiedDomain(id);
      return provision(meta, id, undefined);
    },

    /** Links the identity to `userId` (a flow started from that user's session): answers the user. */
    async link(meta: RequestMeta, id: VerifiedIdentity, userId: string): Promise<q.UserRow> {
      const user = await q.findUserById(db, userId);
      if (!user) throw new AppError('INVALID_TOKEN', 'the account that started this link is gone');
      if (!(await sq.findMembershipRole(db, id.organizationId, user.id))) {
        throw new AppError('FORBIDDEN', 'you are no longer a member of this organization');
      }
      const provider = providerKey(id.issuer);
      const linkedTo = await sq.findLinkedUserId(db, provider, id.subject);
      if (linkedTo === user.id) return user;
      if (linkedTo) throw identityLinked('this identity is already linked to another account');
      if (await sq.findIdentityOfUser(db, provider, user.id)) {
        throw identityLinked('your account is already linked to another identity of this provider');
      }
      try {
        await db.transaction(async (trx) => {
          await sq.insertIdentity(trx, { userId: user.id, provider, subject: id.subject, issuer: id.issuer });
          await recordAudit(trx, {
            organizationId: null,
            userId: user.id,
            actor: { type: 'user', id: user.id, ip: meta.ip, userAgent: meta.userAgent },
            action: 'auth.sso_identity_linked',
            target: { type: 'user', id: user.id },
            after: { issuer: id.issuer, subject: id.subject, organizationId: id.organizationId },
          });
        });
      } catch (err) {
        if (isUniqueViolation(err, sq.IDENTITY_UNIQUE)) throw identityLinked('this identity is already linked to another account');
        throw err;
      }
      return user;
    },
  };
}

export type SsoIdentities = ReturnType<typeof createSsoIdentities>;
