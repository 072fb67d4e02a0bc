import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../deps';
import type { Actor, OrganizationContext } from '../principals';
import { recordAudit } from '../audit/record';
import type { ReceiveUpload } from '../content/upload';
import { AppError, notFound } from '../../lib/errors';
import { tenantPriority } from '../../lib/tenantPriority';
import * as q from './transferQueries';

/** What GET .../exports/{id} and .../imports/{id} show. */
export interface TransferView {
  id: string;
  status: q.TransferRow['status'];
  bytes: number | null;
  sha256: string | null;
  /** Exports: a presigned download link while the archive lives. */
  downloadUrl?: string | null;
  expiresAt: string | null;
  /** Exports: counts and what was left out; imports: the report (importArchive.ts). */
  result: Record<string, unknown> | null;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export const onDemandExportKey = (organizationId: string, id: string) => `exports/organizations/${organizationId}/on-demand/${id}.tar.gz`;
export const importArchiveKey = (organizationId: string, id: string) => `imports/organizations/${organizationId}/${id}.tar.gz`;

export interface ExportWorkflowInput {
  exportId: string;
  organizationId: string;
  ttlSeconds: number;
}

export interface ImportWorkflowInput {
  importId: string;
  organizationId: string;
}

function view(row: q.TransferRow, downloadUrl?: string | null): TransferView {
  return {
    id: row.id,
    status: row.status,
    bytes: row.bytes === null ? null : Number(row.bytes),
    sha256: row.sha256,
    ...(downloadUrl === undefined ? {} : { downloadUrl }),
    expiresAt: row.expires_at?.toISOString() ?? null,
    result: row.result,
    error: row.error,
    createdAt: row.created_at.toISOString(),
    finishedAt: row.finished_at?.toISOString() ?? null,
  };
}

/**
 * Exports on demand and imports of organization archives (docs/organizations.md#export-and-import). An export is
 * the deletion export's archive (exportArchive.ts), written by a workflow to its own key and kept for
 * SERVICE_ORGANIZATION_EXPORT_TTL; an import takes such an archive into an empty organization (importArchive.ts),
 * streamed to object storage first and read by a workflow. Owners only: the archive holds every member's address
 * and the whole audit log. Audited.
 */
export function createTransfers(deps: Pick<AppDeps, 'db' | 'config' | 'storage' | 'temporal' | 'logger'>) {
  const { db, config, storage } = deps;
  const bucket = config.minio.bucket;

  async function start(workflowType: string, workflowId: string, organizationId: string, args: unknown, summary: string): Promise<void> {
    await deps.temporal.workflow.start(workflowType, {
      taskQueue: config.temporal.taskQueue,
      workflowId,
      args: [args],
      priority: tenantPriority(organizationId),
      staticSummary: summary,
      memo: { organizationId },
    });
  }

  return {
    async startExport(org: OrganizationContext, actor: Actor): Promise<TransferView> {
      const id = randomUUID();
      const row = await db.transaction(async (trx) => {
        // One export at a time per organization: each reads everything and stores a full copy.
        await q.lockTransfers(trx, 'organization_exports', org.organizationId);
        const running = await q.runningTransfer(trx, 'organization_exports', org.organizationId);
        if (running) throw new AppError('CONFLICT', `an export of this organization is being written (${running.id}): wait for it`);
        const inserted = await q.insertTransfer(trx, 'organization_exports', {
          id,
          organization_id: org.organizationId,
          object_key: onDemandExportKey(org.organizationId, id),
          requested_by: actor.type === 'user' ? actor.id : null,
        });
        await recordAudit(trx, { organizationId: org.organizationId, actor, action: 'organization.export_requested', target: { type: 'organization_export', id } });
        return inserted;
      });
      const input: ExportWorkflowInput = { exportId: id, organizationId: org.organizationId, ttlSeconds: Math.floor(config.organizations.exportTtlMs / 1000) };
      try {
        await start('organizationExportWorkflow', `org-export-${id}`, org.organizationId, input, `Organization export · ${org.organizationId}`);
      } catch (err) {
        deps.logger.warn({ err, exportId: id }, 'organization export could not start');
        await q.updateTransfer(db, 'organization_exports', id, { status: 'failed', error: 'the workflow engine is unavailable; ask again', finished: true });
        throw new AppError('SERVICE_UNAVAILABLE', 'the export could not be started, retry shortly');
      }
      return view(row, null);
    },

    async getExport(org: OrganizationContext, id: string): Promise<TransferView> {
      const row = await q.getTransfer(db, 'organization_exports', org.organizationId, id);
      if (!row) throw notFound('export');
      let url: string | null = null;
      if (row.status === 'succeeded' && row.expires_at && row.expires_at.getTime() > Date.now()) {
        const seconds = Math.max(1, Math.floor((row.expires_at.getTime() - Date.now()) / 1000));
        url = await storage.presignedGetObject(bucket, row.object_key, seconds, {
          'response-content-disposition': `attachment; filename="loom-organization-${org.organizationId}-${row.created_at.toISOString().slice(0, 10)}.tar.gz"`,
          'response-content-type': 'application/gzip',
        });
      }
      return view(row, url);
    },

    async listExports(org: OrganizationContext): Promise<TransferView[]> {
      return (await q.listTransfers(db, 'organization_exports', org.organizationId, 50)).map((r) => view(r));
    },

    /**
     * `receive` streams the request's archive to the import's key (bounded by SERVICE_ORGANIZATION_IMPORT_MAX_BYTES).
     * The organization must hold no content and no workflows: an import fills a new organization, it never merges.
     */
    async startImport(org: OrganizationContext, actor: Actor, receive: ReceiveUpload): Promise<TransferView> {
      if (await q.organizationHasData(db, org.organizationId)) {
        throw new AppError('CONFLICT', 'an archive is imported into a new organization: this one already holds content or workflows');
      }
      if (await q.runningTransfer(db, 'organization_imports', org.organizationId)) throw new AppError('CONFLICT', 'an import into this organization is running');
      const id = randomUUID();
      const key = importArchiveKey(org.organizationId, id);
      const received = await receive({ storage, bucket, key, maxBytes: config.organizations.importMaxBytes, quotaRemaining: null, quota: { usedBytes: 0, limitBytes: null } });
      let row: q.TransferRow;
      try {
        row = await db.transaction(async (trx) => {
          await q.lockTransfers(trx, 'organization_imports', org.organizationId);
          if (await q.runningTransfer(trx, 'organization_imports', org.organizationId)) throw new AppError('CONFLICT', 'an import into this organization is running');
          const inserted = await q.insertTransfer(trx, 'organization_imports', {
            id,
            organization_id: org.organizationId,
            object_key: key,
            requested_by: actor.type === 'user' ? actor.id : null,
            bytes: received.file.size,
            sha256: received.file.sha256,
          });
          await recordAudit(trx, {
            organizationId: org.organizationId,
            actor,
            action: 'organization.import_started',
            target: { type: 'organization_import', id },
            after: { bytes: received.file.size, sha256: received.file.sha256 },
          });
          return inserted;
        });
      } catch (err) {
        await storage.removeObject(bucket, key).catch(() => undefined);
        throw err;
      }
      const input: ImportWorkflowInput = { importId: id, organizationId: org.organizationId };
      try {
        await start('organizationImportWorkflow', `org-import-${id}`, org.organizationId, input, `Organization import · ${org.organizationId}`);
      } catch (err) {
        deps.logger.warn({ err, importId: id }, 'organization import could not start');
        await q.updateTransfer(db, 'organization_imports', id, { status: 'failed', error: 'the workflow engine is unavailable; import again', finished: true });
        await storage.removeObject(bucket, key).catch(() => undefined);
        throw new AppError('SERVICE_UNAVAILABLE', 'the import could not be started, retry shortly');
      }
      return view(row);
    },

    async getImport(org: OrganizationContext, id: string): Promise<TransferView> {
      const row = await q.getTransfer(db, 'organization_imports', org.organizationId, id);
      if (!row) throw notFound('import');
      return view(row);
    },
  };
}

export type Transfers = ReturnType<typeof createTransfers>;
