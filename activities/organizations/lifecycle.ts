import { ApplicationFailure, Context } from '@temporalio/activity';
import { createBillingProvider } from '../../domain/billing/providers';
import type { BillingPlan } from '../../domain/billing/provider';
import { deletionAbortedEmail, deletionConfirmationEmail, paymentFailedEmail, welcomeEmail } from '../../lib/emails/organizations';
import { ObjectTooLargeError } from '../../lib/archive/multipartUpload';
import { organizationPrefix } from '../../lib/storage';
import { purgeExpiredAuditLogs } from '../../domain/audit/queries';
import { clearActiveOrganization } from '../../domain/auth/queries';
import { exportArchiveKey, legacyExportKey, writeOrganizationExport } from '../../domain/organizations/exportArchive';
import { abortDeletion } from '../../domain/organizations/lifecycleService';
import {
  deleteOrganizationWithMemberships,
  getOrganizationAnyStatus,
  markOrganizationDeleting,
  memberEmails,
  ownerEmails,
} from '../../domain/organizations/queries';
import type { OrganizationExport } from '../../lib/organizations/deletion';
import type { ActivityDeps } from '../deps';
import { organizationCleaners } from './cleaners';
import { createVectorStore } from '../../lib/vectors';
import { deliverMail, enqueueMail } from '../../domain/notifications/mailOutbox';
import { organizationDeletedNotice } from '../../lib/emails/security';

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

/** The most a presigned link may live (S3's limit), and so the longest an export is kept. */
const MAX_EXPORT_TTL_SECONDS = 7 * 24 * 3600;

export interface OrganizationSummary {
  name: string;
  plan: BillingPlan;
  status: string;
  ownerEmails: string[];
}

/** Activities of the organization lifecycle. Each is idempotent: Temporal may run it more than once. */
export function createOrganizationActivities(deps: ActivityDeps) {
  const { db, storage, config } = deps;
  const billing = createBillingProvider(config, db);
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

    /**
     * The deletion export (domain/organizations/exportArchive.ts): the archive of everything the deletion removes,
     * written and read back before the workflow deletes anything, kept outside `org/<id>/` so it survives the
     * deletion. Null when the organization is already gone (a repeated deletion).
     */
    async exportOrganizationArchive(input: { organizationId: string; ttlSeconds: number }): Promise<OrganizationExport | null> {
      return exportArchive(input.organizationId, input.ttlSeconds);
    },

    /** Workflows started before the archive existed call this name: they get the same archive. */
    async exportOrganizationData(input: { organizationId: string; ttlSeconds: number }): Promise<{ url: string | null }> {
      const archive = await exportArchive(input.organizationId, input.ttlSeconds);
      return { url: archive?.url ?? null };
    },

    /** The export outlives the organization only as long as its link (the JSON export of older workflows too). */
    async deleteOrganizationExport(input: { organizationId: string }): Promise<void> {
      await storage.removeObjects(bucket, [exportArchiveKey(input.organizationId), legacyExportKey(input.organizationId)]);
    },

    /**
     * The export could not be written, so nothing was deleted: the organization is given back (status `active`,
     * audited) and the requester told. Changes nothing when the organization is not `deleting` any more.
     */
    async abortOrganizationDeletion(input: { organizationId: string; reason: string; requestedBy: string }): Promise<{ restored: boolean }> {
      const restored = await abortDeletion(db, input.organizationId, input.reason, input.requestedBy);
      if (restored) await storage.removeIncompleteUpload(bucket, exportArchiveKey(input.organizationId)).catch(() => undefined);
      return { restored };
    },

    async sendDeletionAborted(input: { to: string; organizationName: string; reason: string }): Promise<void> {
      await deps.mailer.send(deletionAbortedEmail(input));
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

    /**
     * Members, settings, keys, invitations, audit log, usage, subscriptions: all cascade from the organization row.
     * Every member but the requester (who gets the confirmation with the export) is told, through the mail outbox in
     * the same transaction: the notices exist exactly when the organization no longer does.
     */
    async deleteOrganizationRecords(input: { organizationId: string; requestedBy?: string }): Promise<void> {
      const mails = await db.transaction(async (trx) => {
        const org = await getOrganizationAnyStatus(trx, input.organizationId);
        const queued: string[] = [];
        if (org) {
          const at = new Date();
          for (const member of await memberEmails(trx, input.organizationId)) {
            if (member.user_id === input.requestedBy) continue;
            const notice = organizationDeletedNotice({ organizationName: org.name, at, role: member.role });
            queued.push(await enqueueMail(trx, deps.box, { organizationId: null, topic: 'organization_deleted', topicId: null, to: member.email, ...notice }));
          }
        }
        await clearActiveOrganization(trx, input.organizationId);
        await deleteOrganizationWithMemberships(trx, input.organizationId);
        return queued;
      });
      for (const id of mails) await deliverMail(deps, id);
    },

    async sendDeletionConfirmation(input: {
      to: string;
      organizationName: string;
      exportUrl: string | null;
      exportExpiresAt?: string | null;
      exportSha256?: string | null;
      exportBytes?: number | null;
    }): Promise<void> {
      await deps.mailer.send(deletionConfirmationEmail(input));
    },

    async sendPaymentFailedEmail(input: { to: string; organizationName: string; reason: string }): Promise<void> {
      await deps.mailer.send(paymentFailedEmail(input));
    },

    async purgeAuditLogs(): Promise<{ deleted: number }> {
      return { deleted: await purgeExpiredAuditLogs(db, DEFAULT_AUDIT_RETENTION_DAYS) };
    },
  };

  /** Writes and checks the archive (heartbeating as it goes), then presigns its link for `ttlSeconds` (max 7 days). */
  async function exportArchive(organizationId: string, ttlSeconds: number): Promise<OrganizationExport | null> {
    const ctx = Context.current();
    ctx.heartbeat();
    let result;
    const vectors = createVectorStore(deps.config.content, deps.config.minio);
    try {
      result = await writeOrganizationExport({ db, storage, bucket, vectors }, organizationId, {
        // Heartbeats carry progress and are throttled by the SDK; a stuck read stops them, and the step is retried.
        onProgress: (progress) => ctx.heartbeat(progress),
        signal: ctx.cancellationSignal,
      });
    } catch (err) {
      if (err instanceof ObjectTooLargeError) throw ApplicationFailure.nonRetryable(err.message, 'ExportTooLarge');
      throw err;
    } finally {
      await vectors.close();
    }
    if (!result) return null;
    const lifetime = Math.max(1, Math.min(Math.floor(ttlSeconds), MAX_EXPORT_TTL_SECONDS));
    const expiresAt = new Date(Date.now() + lifetime * 1000).toISOString();
    const day = result.exportedAt.slice(0, 10);
    const url = await storage.presignedGetObject(bucket, result.key, lifetime, {
      'response-content-disposition': `attachment; filename="loom-organization-${organizationId}-${day}.tar.gz"`,
      'response-content-type': 'application/gzip',
    });
    return {
      url,
      expiresAt,
      key: result.key,
      bytes: result.bytes,
      sha256: result.sha256,
      entries: result.entries,
      contentFiles: result.contentFiles,
      missingFiles: result.missingFiles,
    };
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

/** Where the deletion export is kept (exportArchive.ts). */
export const exportKey = exportArchiveKey;
