import { ActivityFailure, defineQuery, isCancellation, patched, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { DeletionProgress, OrganizationExport } from '../lib/organizations/deletion';

/**
 * The organization lifecycle, in the spec's order. Every step is an idempotent activity, so a workflow that
 * resumes after a worker crash simply re-runs the step it was in. Retries are unbounded (backing off to 5 min):
 * a deletion must finish, and a step failing on a bug finishes once the fix is deployed; only a non-retryable
 * failure (e.g. an unknown cleaner name) fails the workflow.
 */

// Short steps (a few SQL statements, one e-mail): a lost attempt (worker crash) is retried after 20 s.
const acts = proxyActivities<Activities>({
  startToCloseTimeout: '20s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '5m' },
});

// Long steps (export, cleaners, object removal) heartbeat every 3 s: a dead worker is noticed within 10 s.
const longActs = proxyActivities<Activities>({
  startToCloseTimeout: '30m',
  heartbeatTimeout: '10s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '5m' },
});

/**
 * The export is one archive (activities/organizations/lifecycle.ts `exportOrganizationArchive`) with its own budget
 * and bounded attempts; when it cannot be written the deletion stops before deleting anything and the organization
 * is given back. Executions that started before this patch keep the unbounded `exportOrganizationData` step.
 */
export const EXPORT_ARCHIVE_PATCH = 'org-delete-export-archive';

// The export reads every row and copies every file of the organization: hours for a large one. Its heartbeats carry
// progress, so a dead worker or a stuck read is noticed within 30 s and the step starts again (it rewrites the whole
// archive). Ten attempts (about 25 minutes of backing off): past that the archive is not written and nothing is deleted.
const exportActs = proxyActivities<Activities>({
  startToCloseTimeout: '12h',
  heartbeatTimeout: '30s',
  retry: { initialInterval: '5s', backoffCoefficient: 2, maximumInterval: '5m', maximumAttempts: 10 },
});

export interface OrganizationCreatedInput {
  organizationId: string;
}

/**
 * `org-create-<id>`: started by the API right after the transaction that creates the organization, default settings
 * and the owner membership commits (executions started before that change were started inside it, so the records
 * may not be committed yet when the first activity runs: it looks a few times; an organization that never appears
 * ends the workflow without effect).
 */
export async function organizationCreatedWorkflow(input: OrganizationCreatedInput): Promise<{ status: 'initialised' | 'skipped' }> {
  let summary = await acts.getOrganizationSummary({ organizationId: input.organizationId });
  for (let attempt = 0; !summary && attempt < 5; attempt++) {
    await sleep('2s');
    summary = await acts.getOrganizationSummary({ organizationId: input.organizationId });
  }
  if (!summary || summary.status !== 'active') return { status: 'skipped' };
  await acts.initialiseBilling({ organizationId: input.organizationId, plan: summary.plan });
  for (const to of summary.ownerEmails) {
    await acts.sendWelcomeEmail({ to, organizationName: summary.name, plan: summary.plan });
  }
  return { status: 'initialised' };
}

export interface OrganizationDeletionInput {
  organizationId: string;
  requestedBy: string;
  requesterEmail: string;
  organizationName: string;
  exportData: boolean;
  /** Lifetime of the export and its link (SERVICE_ORGANIZATION_EXPORT_TTL); the workflow deletes it afterwards. */
  exportTtlSeconds?: number;
}

const DEFAULT_EXPORT_TTL_SECONDS = 7 * 24 * 3600;

export const deletionProgressQuery = defineQuery<DeletionProgress>('deletionProgress');

/**
 * `org-delete-<id>`: owner confirmed by the API (which already set status `deleting`, so the organization is
 * unusable from the first step). Steps: mark deleting; optional export; cancel subscriptions; every domain's
 * cleaner (activities/organizations/cleaners.ts); objects under org/<id>/; the rows (members included); confirmation.
 * The export is written completely and checked before the first step that removes anything; if it cannot be
 * written, the organization is restored (`abort`) and the workflow ends there.
 */
export async function organizationDeletionWorkflow(input: OrganizationDeletionInput): Promise<DeletionProgress> {
  const progress: DeletionProgress = { requestedBy: input.requestedBy, step: 'starting', stepsDone: [], exportUrl: null };
  setHandler(deletionProgressQuery, () => progress);
  const step = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    progress.step = name;
    const result = await run();
    progress.stepsDone.push(name);
    return result;
  };

  const id = input.organizationId;
  await step('mark-deleting', () => acts.markOrganizationDeleting({ organizationId: id }));
  let archive: OrganizationExport | null = null;
  if (input.exportData && patched(EXPORT_ARCHIVE_PATCH)) {
    try {
      archive = await step('export', () =>
        exportActs.exportOrganizationArchive({ organizationId: id, ttlSeconds: input.exportTtlSeconds ?? DEFAULT_EXPORT_TTL_SECONDS }),
      );
    } catch (err) {
      if (isCancellation(err)) throw err;
      // Nothing has been deleted yet: without its export the organization is given back rather than deleted.
      const reason = failureReason(err);
      await step('abort', () => acts.abortOrganizationDeletion({ organizationId: id, reason, requestedBy: input.requestedBy }));
      await acts.sendDeletionAborted({ to: input.requesterEmail, organizationName: input.organizationName, reason });
      progress.step = 'aborted';
      return progress;
    }
    if (archive) {
      const { url, ...facts } = archive;
      progress.exportUrl = url;
      progress.export = facts;
    }
  } else if (input.exportData) {
    const { url } = await step('export', () =>
      longActs.exportOrganizationData({ organizationId: id, ttlSeconds: input.exportTtlSeconds ?? DEFAULT_EXPORT_TTL_SECONDS }),
    );
    progress.exportUrl = url;
  }
  await step('cancel-subscriptions', () => acts.cancelSubscriptions({ organizationId: id }));
  const cleaners = await acts.listOrganizationCleaners();
  for (const name of cleaners) {
    await step(`clean:${name}`, () => longActs.runOrganizationCleaner({ name, organizationId: id }));
  }
  await step('delete-objects', () => longActs.deleteOrganizationObjects({ organizationId: id }));
  await step('delete-records', () => acts.deleteOrganizationRecords({ organizationId: id, requestedBy: input.requestedBy }));
  await step('confirm', () =>
    acts.sendDeletionConfirmation({
      to: input.requesterEmail,
      organizationName: input.organizationName,
      exportUrl: progress.exportUrl,
      exportExpiresAt: archive?.expiresAt ?? null,
      exportSha256: archive?.sha256 ?? null,
      exportBytes: archive?.bytes ?? null,
    }),
  );
  progress.step = 'done';
  if (input.exportData) {
    // A durable timer: the export is removed when its link expires, even across worker restarts.
    await sleep((input.exportTtlSeconds ?? DEFAULT_EXPORT_TTL_SECONDS) * 1000);
    await acts.deleteOrganizationExport({ organizationId: id });
    progress.exportUrl = null;
  }
  return progress;
}

/** What the requester is told when the export failed: the last attempt's error. */
function failureReason(err: unknown): string {
  const cause = err instanceof ActivityFailure ? (err.cause ?? err) : err;
  const message = cause instanceof Error ? cause.message : String(cause);
  return message.slice(0, 300) || 'unknown error';
}

/**
 * `org-payment-failed-<orgId>-<paymentId>`: started by the billing service (domain/billing/service.ts) in the
 * transaction that records a failed renewal; alerts the owners.
 */
export async function organizationPaymentFailedWorkflow(input: { organizationId: string; reason: string }): Promise<{ notified: number }> {
  const summary = await acts.getOrganizationSummary({ organizationId: input.organizationId });
  if (!summary) return { notified: 0 };
  for (const to of summary.ownerEmails) {
    await acts.sendPaymentFailedEmail({ to, organizationName: summary.name, reason: input.reason });
  }
  return { notified: summary.ownerEmails.length };
}

/** Deletes audit entries older than each organization's retention; run by a Temporal schedule (see README). */
export async function auditRetentionPurgeWorkflow(): Promise<{ deleted: number }> {
  return acts.purgeAuditLogs();
}

export interface OnDemandExportInput {
  exportId: string;
  organizationId: string;
  ttlSeconds: number;
}

/**
 * `org-export-<id>` (domain/organizations/transfers.ts): writes the archive (the deletion export's, to its own key,
 * with the same bounded attempts), then keeps it for its lifetime on a durable timer and removes it.
 */
export async function organizationExportWorkflow(input: OnDemandExportInput): Promise<{ written: boolean }> {
  let written: boolean;
  try {
    ({ written } = await exportActs.writeOnDemandExport(input));
  } catch (err) {
    if (isCancellation(err)) throw err;
    await acts.failTransfer({ table: 'organization_exports', id: input.exportId, message: failureReason(err) });
    return { written: false };
  }
  if (written) {
    await sleep(input.ttlSeconds * 1000);
    await acts.expireOnDemandExport(input);
  }
  return { written };
}

// An import is not repeated: a second attempt would create its records again. A failure (a worker lost mid-way
// too, noticed by the heartbeat) ends the import with the reason; what it created stays, listed in the audit log.
const importActs = proxyActivities<Activities>({
  startToCloseTimeout: '12h',
  heartbeatTimeout: '60s',
  retry: { maximumAttempts: 1 },
});

export interface OrganizationImportInput {
  importId: string;
  organizationId: string;
}

/** `org-import-<id>` (domain/organizations/transfers.ts): one import of an uploaded archive. */
export async function organizationImportWorkflow(input: OrganizationImportInput): Promise<{ imported: boolean }> {
  try {
    return await importActs.runOrganizationImport(input);
  } catch (err) {
    if (isCancellation(err)) throw err;
    await acts.failTransfer({ table: 'organization_imports', id: input.importId, message: failureReason(err) });
    return { imported: false };
  }
}
