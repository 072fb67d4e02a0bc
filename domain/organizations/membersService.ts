import { AppError, forbidden, notFound } from '../../lib/errors';
import { decodeCursorOrThrow, toPage, type Page } from '../../lib/pagination';
import { can, ROLE_RANK, type Role } from '../../lib/permissions';
import { recordAudit } from '../audit/record';
import { revokeKeysOfCreator } from './apiKeysService';
import { writeEvent } from '../events/outbox';
import type { Actor, OrganizationContext } from '../principals';
import { deleteMembership, getMember, listMembers, lockOwners, setMemberRole, type MemberRow } from './queries';
import type { OrgServiceDeps } from './serviceDeps';
import { requireHuman } from './stepUp';

/**
 * Member rules on top of the permission table:
 * - `members:manage` (owner, admin) changes roles and removes members; anyone may remove themselves (leave);
 * - only an owner grants the owner role or changes/removes an owner;
 * - the last owner can be neither demoted nor removed (transfer ownership first);
 * - the owner rows are locked while a rule about owners is checked, so concurrent requests cannot both pass;
 * - a removed, leaving or demoted member's API keys go in the same transaction (apiKeysService.ts#revokeKeysOfCreator).
 */
export function createMembersService(d: OrgServiceDeps) {
  const { db } = d;

  async function list(organizationId: string, limit: number, cursor?: string): Promise<Page<MemberRow>> {
    const after = decodeCursorOrThrow(cursor);
    const rows = await listMembers(db, organizationId, limit, after);
    return toPage(rows, limit, (r) => ({ sort: r.sort_key, id: r.user_id }));
  }

  function assertMayTouchOwner(caller: OrganizationContext, targetRole: Role, newRole?: Role): void {
    if ((targetRole === 'owner' || newRole === 'owner') && caller.role !== 'owner') {
      throw forbidden('only an owner may grant, change or remove the owner role');
    }
  }

  async function changeRole(org: OrganizationContext, actor: Actor, userId: string, role: Role): Promise<MemberRow> {
    return db.transaction(async (trx) => {
      const owners = await lockOwners(trx, org.organizationId);
      const member = await getMember(trx, org.organizationId, userId, true);
      if (!member) throw notFound('member');
      assertMayTouchOwner(org, member.role, role);
      if (member.role === role) return member;
      // An admin a key appoints would do every human act the key may not (stepUp.ts).
      if (ROLE_RANK[role] >= ROLE_RANK.admin) await requireHuman(trx, org.organizationId, actor, 'grant the admin role');
      if (member.role === 'owner' && owners.length <= 1) {
        throw new AppError('LAST_OWNER', 'the last owner cannot be demoted; transfer ownership first');
      }
      await setMemberRole(trx, org.organizationId, userId, role);
      await recordAudit(trx, {
        organizationId: org.organizationId,
        actor,
        action: 'member.role_changed',
        target: { type: 'user', id: userId },
        before: { role: member.role },
        after: { role },
      });
      await revokeKeysOfCreator(trx, { organizationId: org.organizationId, userId, newRole: role, reason: 'creator_demoted', actor });
      return { ...member, role };
    });
  }

  async function remove(org: OrganizationContext, actor: Actor, callerUserId: string | null, userId: string): Promise<void> {
    const leaving = callerUserId === userId;
    if (!leaving && !can(org.role, 'members:manage')) throw forbidden(`role ${org.role} may not members:manage`);
    await db.transaction(async (trx) => {
      const owners = await lockOwners(trx, org.organizationId);
      const member = await getMember(trx, org.organizationId, userId, true);
      if (!member) throw notFound('member');
      if (!leaving) assertMayTouchOwner(org, member.role);
      if (member.role === 'owner' && owners.length <= 1) {
        throw new AppError('LAST_OWNER', 'the last owner cannot leave or be removed; transfer ownership or delete the organization');
      }
      await deleteMembership(trx, org.organizationId, userId);
      await writeEvent(trx, org.organizationId, 'member.removed', {
        organizationID: org.organizationId,
        userId,
        role: member.role,
        reason: leaving ? 'left' : 'removed',
      });
      await recordAudit(trx, {
        organizationId: org.organizationId,
        actor,
        action: leaving ? 'member.left' : 'member.removed',
        target: { type: 'user', id: userId },
        before: { role: member.role, email: member.email },
      });
      await revokeKeysOfCreator(trx, {
        organizationId: org.organizationId,
        userId,
        newRole: null,
        reason: leaving ? 'creator_left' : 'creator_removed',
        actor,
      });
    });
  }

  /** The target becomes owner; the caller (an owner) becomes admin. */
  async function transferOwnership(org: OrganizationContext, actor: Actor, callerUserId: string, userId: string): Promise<void> {
    if (callerUserId === userId) throw new AppError('CONFLICT', 'you are already an owner');
    await db.transaction(async (trx) => {
      await lockOwners(trx, org.organizationId);
      const target = await getMember(trx, org.organizationId, userId, true);
      if (!target) throw notFound('member');
      await setMemberRole(trx, org.organizationId, userId, 'owner');
      await setMemberRole(trx, org.organizationId, callerUserId, 'admin');
      await recordAudit(trx, {
        organizationId: org.organizationId,
        actor,
        action: 'organization.ownership_transferred',
        target: { type: 'user', id: userId },
        before: { owner: callerUserId, targetRole: target.role },
        after: { owner: userId, previousOwnerRole: 'admin' },
      });
      // Keys are never owner keys, so this revokes nothing today; it keeps the rule in one place if that changes.
      await revokeKeysOfCreator(trx, { organizationId: org.organizationId, userId: callerUserId, newRole: 'admin', reason: 'creator_demoted', actor });
    });
  }

  return { list, changeRole, remove, transferOwnership };
}
