import { ApplicationFailure, Context } from '@temporalio/activity';
import { createLocalBillingProvider } from '../../domain/billing/localProvider';
import type { BillingPlan } from '../../domain/billing/provider';
import { deletionConfirmationEmail, paymentFailedEmail, welcomeEmail } from '../../lib/emails/organizations';
import { organizationPrefix } from '../../lib/storage';
import { maskSecrets } from '../../domain/audit/mask';
import { purgeExpiredAuditLogs } from '../../domain/audit/queries';
import { clearActiveOrganization } from '../../domain/auth/queries';
import {
  deleteOrganizationWithMemberships,
  getOrganizationAnyStatus,
  markOrganizationDeleting,
  ownerEmails,
} from '../../domain/organizations/queries';
import type { ActivityDeps } from '../deps';
import { organizationCleaners } from './cleaners';

const REMOVE_BATCH = 1000;
const DEFAULT_AUDIT_RETENTION_DAYS = 365;
const HEARTBEAT_EVERY_MS = 3000;

/**
 * Long steps heartbeat while they run, so that when the worker dies Temporal notices within the heartbeat timeout
 * (see workflows/organizations.ts) and retries the step on another worker, instead of waiting for the long
 * start-to-close timeout. Cleaners written by other domains get this for free.
 */
async function withHeartbeat<T>(run: () => Promise<T>): Promise<T> {
  const ctx = Context.current();
  ctx.heartbeat();
  const timer = setInterval(() => ctx.heartbeat(), HEARTBEAT_EVERY_MS);
  try {
    return await run();
  } finally {
    clearInterval(timer);
  }
}

export interface OrganizationSummary {
  name: string;
  plan: BillingPlan;
  status: string;
  ownerEmails: string[];
}

/** Activities of the organization lifecycle. Each is idempotent: Temporal may run it more than once. */
export function createOrganizationActivities(deps: ActivityDeps) {
  const { db, storage, config } = deps;
  const billing = createLocalBillingProvider(db);
  const bucket = config.minio.bucket;

  async function getOrganizationSummary(input: { organizationId: string }): Promise<OrganizationSummary | null> {
    const org = await getOrganizationAnyStatus(db, input.organizationId);
    if (!org) return null;
    return { name: org.name, plan: org.plan, status: org.status, ownerEmails: await ownerEmails(db, input.organizationId) };
  }

  return {
    getOrganizationSummary,

    async initialiseBilling(input: { organizationId: string; plan: BillingPlan }): Promise<{ subscriptionId: string }> {
      const sub = await billing.initialise(input.organizationId, input.plan);
      return { subscriptionId: sub.id };
    },

    async sendWelcomeEmail(input: { to: string; organizationName: string; plan: string }): Promise<void> {
      await deps.mailer.send(welcomeEmail(input));
    },

    async markOrganizationDeleting(input: { organizationId: string }): Promise<void> {
      await markOrganizationDeleting(db, input.organizationId);
    },

    /** A JSON export of the organization's records, kept outside `org/<id>/` so it survives the deletion. */
    async exportOrganizationData(input: { organizationId: string; ttlSeconds: number }): Promise<{ url: string | null }> {
      return withHeartbeat(() => exportData(input.organizationId, input.ttlSeconds));
    },

    /** The export outlives the organization only as long as its link. */
    async deleteOrganizationExport(input: { organizationId: string }): Promise<void> {
      await storage.removeObject(bucket, exportKey(input.organizationId));
    },

    async cancelSubscriptions(input: { organizationId: string }): Promise<{ cancelled: number }> {
      return { cancelled: await billing.cancelAll(input.organizationId) };
    },

    async listOrganizationCleaners(): Promise<string[]> {
      return organizationCleaners.map((c) => c.name);
    },

    async runOrganizationCleaner(input: { name: string; organizationId: string }): Promise<void> {
      const cleaner = organizationCleaners.find((c) => c.name === input.name);
      if (!cleaner) throw ApplicationFailure.nonRetryable(`no organization cleaner named ${input.name}`, 'UnknownCleaner');
      await withHeartbeat(() => cleaner.deleteAll(input.organizationId, deps));
    },

    async deleteOrganizationObjects(input: { organizationId: string }): Promise<{ removed: number }> {
      return withHeartbeat(() => deleteObjects(input.organizationId));
    },

    /** Members, settings, keys, invitations, audit log, usage, subscriptions: all cascade from the organization row. */
    async deleteOrganizationRecords(input: { organizationId: string }): Promise<void> {
      await db.transaction(async (trx) => {
        await clearActiveOrganization(trx, input.organizationId);
        await deleteOrganizationWithMemberships(trx, input.organizationId);
      });
    },

    async sendDeletionConfirmation(input: { to: string; organizationName: string; exportUrl: string | null }): Promise<void> {
      await deps.mailer.send(deletionConfirmationEmail(input));
    },

    async sendPaymentFailedEmail(input: { to: string; organizationName: string; reason: string }): Promise<void> {
      await deps.mailer.send(paymentFailedEmail(input));
    },

    async purgeAuditLogs(): Promise<{ deleted: number }> {
      return { deleted: await purgeExpiredAuditLogs(db, DEFAULT_AUDIT_RETENTION_DAYS) };
    },
  };

  /** A JSON export of the organization's records, kept outside `org/<id>/` so it survives the deletion. */
  async function exportData(id: string, ttlSeconds: number): Promise<{ url: string | null }> {
    const org = await getOrganizationAnyStatus(db, id);
    if (!org) return { url: null };
    const [members, invitations, apiKeys, auditLogs] = await Promise.all([
      db('memberships as m').join('users as u', 'u.id', 'm.user_id').where('m.organization_id', id).select('u.email', 'u.name', 'm.role', 'm.created_at'),
      db('invitations').where({ organization_id: id }).select('email', 'role', 'status', 'created_at', 'expires_at'),
      db('api_keys').where({ organization_id: id }).select('name', 'role', 'prefix', 'created_at', 'revoked_at', 'last_used_at'),
      db('audit_logs').where({ organization_id: id }).orderBy('created_at', 'desc').limit(10_000).select('*'),
    ]);
    const objects: { key: string; size: number }[] = [];
    for await (const item of storage.listObjectsV2(bucket, organizationPrefix(id), true)) {
      if (item.name) objects.push({ key: item.name, size: item.size ?? 0 });
    }
    const document = {
      exportedAt: new Date().toISOString(),
      organization: { id: org.id, name: org.name, slug: org.slug, plan: org.plan, createdAt: org.created_at, settings: maskSecrets(org.settings) },
      members,
      invitations,
      apiKeys,
      auditLogs: maskSecrets(auditLogs),
      objects,
    };
    const key = exportKey(id);
    const body = Buffer.from(JSON.stringify(document, null, 2));
    await storage.putObject(bucket, key, body, body.length, { 'Content-Type': 'application/json' });
    return { url: await storage.presignedGetObject(bucket, key, Math.max(1, Math.min(ttlSeconds, 7 * 24 * 3600))) };
  }

  async function deleteObjects(organizationId: string): Promise<{ removed: number }> {
    let removed = 0;
    let batch: string[] = [];
    for await (const item of storage.listObjectsV2(bucket, organizationPrefix(organizationId), true)) {
      if (!item.name) continue;
      batch.push(item.name);
      if (batch.length >= REMOVE_BATCH) {
        await storage.removeObjects(bucket, batch);
        removed += batch.length;
        batch = [];
      }
    }
    if (batch.length) {
      await storage.removeObjects(bucket, batch);
      removed += batch.length;
    }
    return { removed };
  }
}

export function exportKey(organizationId: string): string {
  return `exports/organizations/${organizationId}/export.json`;
}
