import { randomUUID } from 'node:crypto';
import bcrypt from 'bcrypt';
import { AppError, notFound } from '../../lib/errors';
import { decodeCursorOrThrow, toPage, type Page } from '../../lib/pagination';
import { storageQuota } from '../content/quota';
import { recordAudit } from '../audit/record';
import { createBillingService } from '../billing/service';
import type { Actor, UserPrincipal } from '../principals';
import {
  countActiveOrganizationsOfUser,
  countMembers,
  countPendingInvitations,
  deleteOrganizationWithMemberships,
  getOrganization,
  getUser,
  insertMembership,
  insertOrganization,
  listOrganizationsOfUser,
  lockUserOrganizations,
  restoreDeletingOrganization,
  slugInUse,
  updateOrganization,
  type OrganizationRow,
  type Plan,
  type UserOrganizationRow,
} from './queries';
import type { OrgServiceDeps } from './serviceDeps';
import { defaultSettings } from './settingsModel';
import { oneLine } from '../../lib/runs/searchAttributes';
import { isUniqueViolation } from '../../lib/db/errors';
import { currentPeriod } from './usageMeter';
import { tenantPriority } from '../../lib/tenantPriority';
import { isUuid } from '../../lib/ids';

export const createWorkflowId = (organizationId: string): string => `org-create-${organizationId}`;
export const deleteWorkflowId = (organizationId: string): string => `org-delete-${organizationId}`;

/** Lower-case ASCII letters, digits and single hyphens, from any name ("Ünïcode & Co" → "unicode-co"). */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/g, '');
  // A slug may not look like an organization id (domain/organizations/schemas.ts slugSchema).
  if (isUuid(slug)) return `org-${slug}`;
  return slug || `org-${randomUUID().slice(0, 8)}`;
}

export function createOrganizationsService(d: OrgServiceDeps) {
  const { db, config } = d;
  const billing = createBillingService(d);

  async function create(user: UserPrincipal, actor: Actor, input: { name: string; slug?: string }): Promise<OrganizationRow> {
    const slug = input.slug ?? slugify(input.name);
    if (await slugInUse(db, slug)) throw new AppError('SLUG_TAKEN', `the slug ${slug} is already in use`);
    const id = randomUUID();
    let org: OrganizationRow;
    try {
      org = await db.transaction(async (trx) => {
        // One user's organizations are created one after the other, so parallel requests cannot all pass the count.
        await lockUserOrganizations(trx, user.userId);
        if ((await countActiveOrganizationsOfUser(trx, user.userId)) >= config.organizations.maxPerUser) {
          throw new AppError('ORGANIZATION_LIMIT', `a user may belong to at most ${config.organizations.maxPerUser} organizations`);
        }
        const row = await insertOrganization(trx, { id, name: input.name, slug, plan: 'free', settings: defaultSettings(), createdBy: user.userId });
        await insertMembership(trx, id, user.userId, 'owner');
        await recordAudit(trx, { organizationId: id, actor, action: 'organization.created', target: { type: 'organization', id }, after: { name: row.name, slug, plan: row.plan } });
        return row;
      });
    } catch (err) {
      if (isUniqueViolation(err, 'organizations_slug_unique')) throw new AppError('SLUG_TAKEN', `the slug ${slug} is already in use`);
      throw err;
    }
    // Started after commit, never inside the transaction (no transaction waits for Temporal). If Temporal is down
    // the organization is taken back and the caller gets the 503, so an organization never lacks its lifecycle.
    try {
      await d.temporal.workflow.start('organizationCreatedWorkflow', {
        taskQueue: config.temporal.taskQueue,
        workflowId: createWorkflowId(id),
        args: [{ organizationId: id }],
        priority: tenantPriority(id),
        // What Temporal Web shows of it (docs/operating.md#temporal-web)
        staticSummary: `Organization created · ${oneLine(org.name, 200)}`,
        memo: { organizationId: id, organizationName: org.name, ...(actor.requestId ? { requestId: actor.requestId } : {}) },
      });
    } catch (err) {
      await db.transaction((trx) => deleteOrganizationWithMemberships(trx, id)).catch((undo: unknown) => d.logger.error({ err: undo, organizationId: id }, 'organization without its lifecycle workflow could not be taken back'));
      throw err;
    }
    return org;
  }

  /**
   * The organizations of a user. A session opened by an organization's single sign-on acts in that organization
   * only (docs/security.md): it lists that one, so it does not even learn the names of the user's others.
   */
  async function listForUser(
    principal: { userId: string; ssoOrganizationId?: string | null },
    limit: number,
    cursor?: string,
  ): Promise<Page<UserOrganizationRow>> {
    const after = decodeCursorOrThrow(cursor);
    const rows = await listOrganizationsOfUser(db, principal.userId, limit, after, principal.ssoOrganizationId ?? null);
    return toPage(rows, limit, (r) => ({ sort: r.sort_key, id: r.id }));
  }

  async function get(organizationId: string): Promise<OrganizationRow> {
    const org = await getOrganization(db, organizationId);
    if (!org) throw notFound('organization');
    return org;
  }

  async function update(organizationId: string, actor: Actor, patch: { name?: string; slug?: string }): Promise<OrganizationRow> {
    try {
      return await db.transaction(async (trx) => {
        const before = await getOrganization(trx, organizationId, true);
        if (!before) throw notFound('organization');
        if (patch.slug && patch.slug !== before.slug && (await slugInUse(trx, patch.slug, organizationId))) {
          throw new AppError('SLUG_TAKEN', `the slug ${patch.slug} is already in use`);
        }
        const after = await updateOrganization(trx, organizationId, patch);
        await recordAudit(trx, {
          organizationId,
          actor,
          action: 'organization.updated',
          target: { type: 'organization', id: organizationId },
          before: { name: before.name, slug: before.slug },
          after: { name: after.name, slug: after.slug },
        });
        return after;
      });
    } catch (err) {
      if (isUniqueViolation(err, 'organizations_slug_unique')) throw new AppError('SLUG_TAKEN', `the slug ${patch.slug} is already in use`);
      throw err;
    }
  }

  /**
   * Plan change by the owner, through the billing provider. A downgrade must fit the members already there; an
   * upgrade the provider fails to charge is refused (402 PAYMENT_FAILED) and the plan stays.
   */
  async function changePlan(organizationId: string, actor: Actor, plan: Plan): Promise<OrganizationRow> {
    const org = await get(organizationId);
    if (org.plan === plan) return org;
    const limit = config.organizations.plans[plan].members;
    if (limit !== null) {
      const seats = (await countMembers(db, organizationId)) + (await countPendingInvitations(db, organizationId));
      if (seats > limit) {
        throw new AppError('QUOTA_EXCEEDED', `the ${plan} plan allows ${limit} members (pending invitations included); the organization has ${seats}`);
      }
    }
    const result = await d.billing.changePlan(organizationId, plan, org.plan);
    if (!result.ok) {
      // The provider kept the old plan: record the failed charge (audited), change nothing else, answer 402.
      await db.transaction((trx) => billing.recordPayment(trx, result.payment, actor));
      throw new AppError(
        'PAYMENT_FAILED',
        `the payment for the ${plan} plan failed (${result.payment.reason ?? 'declined'}); the organization stays on the ${org.plan} plan`,
        [{ path: 'plan', problem: `payment ${result.payment.paymentId} failed: ${result.payment.reason ?? 'declined'}` }],
      );
    }
    return db.transaction(async (trx) => {
      const after = await updateOrganization(trx, organizationId, { plan });
      await recordAudit(trx, { organizationId, actor, action: 'organization.plan_changed', target: { type: 'organization', id: organizationId }, before: { plan: org.plan }, after: { plan } });
      // A successful charge also ends a past-due streak.
      if (result.payment) await billing.recordPayment(trx, result.payment, actor);
      return after;
    });
  }

  /**
   * Owner confirmed by password; the organization becomes unusable at once (status `deleting`), then the deletion
   * workflow does the rest. The workflow id is fixed per organization (USE_EXISTING on conflict), so a retried
   * request that raced the first one joins the same execution.
   */
  async function requestDeletion(
    organizationId: string,
    user: UserPrincipal,
    actor: Actor,
    input: { password: string; exportData: boolean },
  ): Promise<{ workflowId: string }> {
    const account = await getUser(db, user.userId);
    if (!account?.password_hash || !(await bcrypt.compare(input.password, account.password_hash))) {
      throw new AppError('INVALID_CREDENTIALS', 'password confirmation failed');
    }
    const workflowId = deleteWorkflowId(organizationId);
    const org = await db.transaction(async (trx) => {
      const row = await getOrganization(trx, organizationId, true);
      if (!row) throw notFound('organization');
      await updateOrganization(trx, organizationId, { status: 'deleting', deletion_requested_at: new Date() });
      await recordAudit(trx, { organizationId, actor, action: 'organization.deletion_requested', target: { type: 'organization', id: organizationId }, after: { exportData: input.exportData } });
      return row;
    });
    // Started after commit (no transaction waits for Temporal); when it cannot start, the organization is given back
    // (active again) and the caller gets the 503 to retry.
    try {
      await d.temporal.workflow.start('organizationDeletionWorkflow', {
        taskQueue: config.temporal.taskQueue,
        workflowId,
        workflowIdConflictPolicy: 'USE_EXISTING',
        priority: tenantPriority(organizationId),
        staticSummary: `Organization deletion · ${oneLine(org.name, 200)}`,
        memo: { organizationId, organizationName: org.name, ...(actor.requestId ? { requestId: actor.requestId } : {}) },
        args: [
          {
            organizationId,
            requestedBy: user.userId,
            requesterEmail: account.email,
            organizationName: org.name,
            exportData: input.exportData,
            exportTtlSeconds: Math.ceil(config.organizations.exportTtlMs / 1000),
          },
        ],
      });
    } catch (err) {
      await restoreDeletingOrganization(db, organizationId).catch((undo: unknown) =>
        d.logger.error({ err: undo, organizationId }, 'organization left deleting without its deletion workflow'),
      );
      throw err;
    }
    return { workflowId };
  }

  async function usage(organizationId: string) {
    const org = await get(organizationId);
    const quotas = config.organizations.plans[org.plan];
    const [members, pending, apiCalls, storage] = await Promise.all([
      countMembers(db, organizationId),
      countPendingInvitations(db, organizationId),
      d.meter.used(organizationId),
      storageQuota(db, config, organizationId),
    ]);
    return {
      organizationID: organizationId,
      plan: org.plan,
      period: currentPeriod(),
      members: { used: members + pending, pendingInvitations: pending, limit: quotas.members },
      // The figures the upload checks (domain/content/quota.ts): stored versions against the plan's content quota.
      storage: { used: storage.usedBytes, limit: storage.limitBytes },
      apiCalls: { used: apiCalls, limit: quotas.apiCallsPerMonth },
    };
  }

  return { create, listForUser, get, update, changePlan, requestDeletion, usage };
}
