import { AppError, forbidden, notFound } from '../../lib/errors';
import { accountLink } from '../../lib/emails/links';
import { invitationEmail } from '../../lib/emails/organizations';
import { decodeCursorOrThrow, toPage, type Page } from '../../lib/pagination';
import { ROLE_RANK, type Role } from '../../lib/permissions';
import { recordAudit } from '../audit/record';
import { writeEvent } from '../events/outbox';
import type { Actor, OrganizationContext, UserPrincipal } from '../principals';
import { generateToken, hashToken } from './apiKeyFormat';
import {
  countActiveOrganizationsOfUser,
  countMembers,
  countPendingInvitations,
  getInvitation,
  getInvitationByTokenHash,
  getMember,
  getOrganization,
  getUser,
  insertInvitation,
  insertMembership,
  listPendingInvitations,
  memberWithEmailExists,
  updateInvitation,
  type InvitationRow,
  type OrganizationRow,
} from './queries';
import type { OrgServiceDeps } from './serviceDeps';
import { requireHuman } from './stepUp';
import { isUniqueViolation } from '../../lib/db/errors';

/**
 * Invitations: random token (only in the e-mail), stored as SHA-256, expiring after SERVICE_INVITATION_TTL
 * (7 days). Pending invitations count toward the members quota. The e-mail is sent inside the transaction, so an
 * invitation whose e-mail could not be sent does not exist (the caller gets 503 and retries).
 */
export function createInvitationsService(d: OrgServiceDeps) {
  const { db, config } = d;

  function acceptUrl(token: string): string {
    return accountLink(config.http, 'acceptInvitation', token);
  }

  async function sendInvitation(org: OrganizationRow, inv: InvitationRow, token: string, inviterId: string | null): Promise<void> {
    const inviter = inviterId ? await getUser(db, inviterId) : undefined;
    await d.mailer.send(
      invitationEmail({
        to: inv.email,
        organizationName: org.name,
        role: inv.role,
        inviterName: inviter?.name ?? inviter?.email ?? null,
        acceptUrl: acceptUrl(token),
        token,
        expiresAt: inv.expires_at,
      }),
    );
  }

  async function create(org: OrganizationContext, actor: Actor, inviterUserId: string | null, input: { email: string; role: Role }): Promise<InvitationRow> {
    if (input.role === 'owner' && org.role !== 'owner') throw forbidden('only an owner may invite an owner');
    // An admin a key invites would do every human act the key may not (stepUp.ts).
    if (ROLE_RANK[input.role] >= ROLE_RANK.admin) await requireHuman(db, org.organizationId, actor, 'grant the admin role');
    const email = input.email.trim().toLowerCase();
    try {
      return await db.transaction(async (trx) => {
        // Locks the organization row: concurrent invitations are counted one after the other.
        const organization = await getOrganization(trx, org.organizationId, true);
        if (!organization) throw notFound('organization');
        if (await memberWithEmailExists(trx, org.organizationId, email)) {
          throw new AppError('CONFLICT', `${email} is already a member`);
        }
        const limit = config.organizations.plans[organization.plan].members;
        if (limit !== null) {
          const seats = (await countMembers(trx, org.organizationId)) + (await countPendingInvitations(trx, org.organizationId));
          if (seats + 1 > limit) {
            throw new AppError(
              'QUOTA_EXCEEDED',
              `the ${organization.plan} plan allows ${limit} members, pending invitations included (${seats} used); upgrade the plan or revoke an invitation`,
            );
          }
        }
        const { token, hash } = generateToken();
        const inv = await insertInvitation(trx, {
          organizationId: org.organizationId,
          email,
          role: input.role,
          tokenHash: hash,
          invitedBy: inviterUserId,
          expiresAt: new Date(Date.now() + config.organizations.invitationTtlMs),
        });
        await recordAudit(trx, { organizationId: org.organizationId, actor, action: 'invitation.created', target: { type: 'invitation', id: inv.id }, after: { email, role: input.role } });
        await sendInvitation(organization, inv, token, inviterUserId);
        return inv;
      });
    } catch (err) {
      if (isUniqueViolation(err, 'invitations_pending_email')) throw new AppError('CONFLICT', `${email} already has a pending invitation; resend it instead`);
      throw err;
    }
  }

  async function listPending(organizationId: string, limit: number, cursor?: string): Promise<Page<InvitationRow & { sort_key: string }>> {
    const after = decodeCursorOrThrow(cursor);
    const rows = await listPendingInvitations(db, organizationId, limit, after);
    return toPage(rows, limit, (r) => ({ sort: r.sort_key, id: r.id }));
  }

  async function pendingOf(organizationId: string, id: string): Promise<InvitationRow> {
    const inv = await getInvitation(db, organizationId, id);
    if (!inv || inv.status !== 'pending') throw notFound('invitation');
    return inv;
  }

  async function revoke(org: OrganizationContext, actor: Actor, id: string): Promise<void> {
    const inv = await pendingOf(org.organizationId, id);
    if (inv.role === 'owner' && org.role !== 'owner') throw forbidden('only an owner may revoke an owner invitation');
    await db.transaction(async (trx) => {
      await updateInvitation(trx, id, { status: 'revoked' });
      await recordAudit(trx, { organizationId: org.organizationId, actor, action: 'invitation.revoked', target: { type: 'invitation', id }, before: { email: inv.email, role: inv.role } });
    });
  }

  /** A new token and a new expiry; the old token stops working. */
  async function resend(org: OrganizationContext, actor: Actor, inviterUserId: string | null, id: string): Promise<InvitationRow> {
    await pendingOf(org.organizationId, id);
    return db.transaction(async (trx) => {
      const organization = await getOrganization(trx, org.organizationId);
      if (!organization) throw notFound('organization');
      const { token, hash } = generateToken();
      const inv = await updateInvitation(trx, id, { token_hash: hash, expires_at: new Date(Date.now() + config.organizations.invitationTtlMs) });
      await recordAudit(trx, { organizationId: org.organizationId, actor, action: 'invitation.resent', target: { type: 'invitation', id } });
      await sendInvitation(organization, inv, token, inviterUserId);
      return inv;
    });
  }

  async function accept(user: UserPrincipal, actor: Actor, token: string): Promise<{ organization: OrganizationRow; role: Role }> {
    return db.transaction(async (trx) => {
      const inv = await getInvitationByTokenHash(trx, hashToken(token));
      if (!inv) throw notFound('invitation');
      const organization = await getOrganization(trx, inv.organization_id, true);
      if (!organization) throw notFound('invitation');
      if (inv.status !== 'pending' || inv.expires_at.getTime() <= Date.now()) {
        throw new AppError('INVITATION_EXPIRED', 'this invitation has expired, was revoked or was already used; ask for a new one');
      }
      const account = await getUser(trx, user.userId);
      if (!account || account.email.toLowerCase() !== inv.email.toLowerCase()) {
        throw forbidden('this invitation was sent to another e-mail address; sign in with that address');
      }
      if (await getMember(trx, inv.organization_id, user.userId)) throw new AppError('CONFLICT', 'you are already a member');
      if ((await countActiveOrganizationsOfUser(trx, user.userId)) >= config.organizations.maxPerUser) {
        throw new AppError('ORGANIZATION_LIMIT', `a user may belong to at most ${config.organizations.maxPerUser} organizations`);
      }
      await insertMembership(trx, inv.organization_id, user.userId, inv.role);
      await writeEvent(trx, inv.organization_id, 'member.added', { organizationID: inv.organization_id, userId: user.userId, role: inv.role, via: 'invitation' });
      await updateInvitation(trx, inv.id, { status: 'accepted', accepted_by: user.userId });
      await recordAudit(trx, {
        organizationId: inv.organization_id,
        actor,
        action: 'invitation.accepted',
        target: { type: 'invitation', id: inv.id },
        after: { userId: user.userId, role: inv.role },
      });
      return { organization, role: inv.role };
    });
  }

  return { create, listPending, revoke, resend, accept };
}
