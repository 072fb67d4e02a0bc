import type { Knex } from 'knex';
import { AppError, forbidden, notFound } from '../../lib/errors';
import { accountLink } from '../../lib/emails/links';
import { invitationEmail } from '../../lib/emails/organizations';
import { decodeCursorOrThrow, toPage, type Page } from '../../lib/pagination';
import { ROLE_RANK, type Role } from '../../lib/permissions';
import { recordAudit } from '../audit/record';
import { writeEvent } from '../events/outbox';
import { deliverMail, dropMail, enqueueMail } from '../notifications/mailOutbox';
import { createRateLimiter } from '../ratelimit/limiter';
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
  lockUserOrganizations,
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
 * (7 days). Pending invitations count toward the members quota. The e-mail is written to the mail outbox in the
 * invitation's transaction and sent after commit (domain/notifications/mailOutbox.ts): the transaction, which
 * holds the organization's row lock, never waits for SMTP, and a mail that cannot be sent now is retried by the
 * worker. Invitation mail has budgets (SERVICE_INVITATION_*_LIMIT): resends per invitation and all invitation mail
 * per organization, counted before any transaction; beyond them 429 RATE_LIMITED with Retry-After.
 */
export function createInvitationsService(d: OrgServiceDeps) {
  const { db, config } = d;
  const limiter = createRateLimiter(db);
  const mailDeps = { db, mailer: d.mailer, box: d.box, logger: d.logger };

  function acceptUrl(token: string): string {
    return accountLink(config.http, 'acceptInvitation', token);
  }

  /** Writes the invitation mail in `trx`; the caller sends it with `deliverMail` after commit. */
  async function queueInvitationMail(trx: Knex.Transaction, org: OrganizationRow, inv: InvitationRow, token: string, inviterId: string | null): Promise<string> {
    const inviter = inviterId ? await getUser(trx, inviterId) : undefined;
    const mail = invitationEmail({
      to: inv.email,
      organizationName: org.name,
      role: inv.role,
      inviterName: inviter?.name ?? inviter?.email ?? null,
      acceptUrl: acceptUrl(token),
      token,
      expiresAt: inv.expires_at,
    });
    return enqueueMail(trx, d.box, { organizationId: org.id, topic: 'invitation', topicId: inv.id, to: inv.email, subject: mail.subject, text: mail.text });
  }

  /** The organization's budget of invitation mail (new and resent). */
  const mailBudget = (organizationId: string) => ({ bucket: 'invitations.mail', key: organizationId, rule: config.organizations.invitationMailRate });

  async function create(org: OrganizationContext, actor: Actor, inviterUserId: string | null, input: { email: string; role: Role }): Promise<InvitationRow> {
    if (input.role === 'owner' && org.role !== 'owner') throw forbidden('only an owner may invite an owner');
    // An admin a key invites would do every human act the key may not (stepUp.ts).
    if (ROLE_RANK[input.role] >= ROLE_RANK.admin) await requireHuman(db, org.organizationId, actor, 'grant the admin role');
    const email = input.email.trim().toLowerCase();
    await limiter.consume([mailBudget(org.organizationId)]);
    let mailId = '';
    try {
      const created = await db.transaction(async (trx) => {
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
        mailId = await queueInvitationMail(trx, organization, inv, token, inviterUserId);
        return inv;
      });
      await deliverMail(mailDeps, mailId);
      return created;
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
      await dropMail(trx, 'invitation', id);
      await recordAudit(trx, { organizationId: org.organizationId, actor, action: 'invitation.revoked', target: { type: 'invitation', id }, before: { email: inv.email, role: inv.role } });
    });
  }

  /**
   * A new token and a new expiry; the old token stops working. Counted against the invitation's resend limits and
   * the organization's mail budget before anything changes, so a refused resend keeps the current token.
   */
  async function resend(org: OrganizationContext, actor: Actor, inviterUserId: string | null, id: string): Promise<InvitationRow> {
    await pendingOf(org.organizationId, id);
    await limiter.consume([
      { bucket: 'invitations.resend', key: id, rule: config.organizations.invitationResendRate },
      { bucket: 'invitations.resend.daily', key: id, rule: config.organizations.invitationResendDailyRate },
      mailBudget(org.organizationId),
    ]);
    let mailId = '';
    const inv = await db.transaction(async (trx) => {
      const organization = await getOrganization(trx, org.organizationId);
      if (!organization) throw notFound('organization');
      const { token, hash } = generateToken();
      const updated = await updateInvitation(trx, id, { token_hash: hash, expires_at: new Date(Date.now() + config.organizations.invitationTtlMs) });
      await recordAudit(trx, { organizationId: org.organizationId, actor, action: 'invitation.resent', target: { type: 'invitation', id } });
      mailId = await queueInvitationMail(trx, organization, updated, token, inviterUserId);
      return updated;
    });
    await deliverMail(mailDeps, mailId);
    return inv;
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
      await lockUserOrganizations(trx, user.userId);
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
