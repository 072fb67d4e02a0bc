import type { Readable } from 'node:stream';
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { ActivityDeps } from '../deps';
import { recordAudit } from '../../domain/audit/record';
import { writeOrganizationExport } from '../../domain/organizations/exportArchive';
import { importOrganizationArchive, type ImportServices } from '../../domain/organizations/importArchive';
import type { ExportWorkflowInput, ImportWorkflowInput } from '../../domain/organizations/transfers';
import * as q from '../../domain/organizations/transferQueries';
import { getMember, getUser } from '../../domain/organizations/queries';
import { getContent } from '../../domain/content/queries';
import { onDemandExportKey } from '../../domain/organizations/transfers';
import { createServices } from '../../domain/services';
import { ArchiveFormatError } from '../../lib/archive/tarReader';
import { ObjectTooLargeError } from '../../lib/archive/multipartUpload';
import { createVectorStore } from '../../lib/vectors';

/**
 * Activities of on-demand exports and imports (domain/organizations/transfers.ts). The import builds the API's
 * domain services on this worker's connections (with the activity's Temporal client): every record of the archive
 * goes through them.
 */
export function createTransferActivities(deps: ActivityDeps) {
  const { db, storage } = deps;
  const bucket = deps.config.minio.bucket;

  return {
    async writeOnDemandExport(input: ExportWorkflowInput): Promise<{ written: boolean }> {
      const row = await q.getTransferById(db, 'organization_exports', input.exportId);
      if (!row || row.status !== 'running') return { written: false };
      const ctx = Context.current();
      const vectors = createVectorStore(deps.config.content, deps.config.minio);
      try {
        const result = await writeOrganizationExport({ db, storage, bucket, vectors }, input.organizationId, {
          key: row.object_key,
          onProgress: (progress) => ctx.heartbeat(progress),
          signal: ctx.cancellationSignal,
        });
        if (!result) return { written: false };
        await q.updateTransfer(db, 'organization_exports', row.id, {
          status: 'succeeded',
          bytes: result.bytes,
          sha256: result.sha256,
          expires_at: new Date(Date.now() + input.ttlSeconds * 1000),
          result: { entries: result.entries, contentFiles: result.contentFiles, missingFiles: result.missingFiles, exportedAt: result.exportedAt },
          finished: true,
        });
        return { written: true };
      } catch (err) {
        if (err instanceof ObjectTooLargeError) throw ApplicationFailure.nonRetryable(err.message, 'ExportTooLarge');
        throw err;
      } finally {
        await vectors.close();
      }
    },

    /** Ends a running export or import with the reason; an import's uploaded archive goes with it. */
    async failTransfer(input: { table: q.TransferTable; id: string; message: string }): Promise<void> {
      const row = await q.getTransferById(db, input.table, input.id);
      await q.updateTransfer(db, input.table, input.id, { status: 'failed', error: input.message.slice(0, 2000), finished: true }, { onlyRunning: true });
      if (row) await storage.removeObject(bucket, row.object_key).catch(() => undefined);
    },

    /**
     * The export's lifetime is over: its archive goes (by its key: the row is gone with its organization if that was
     * deleted meanwhile, the archive must go all the same), and the row says so.
     */
    async expireOnDemandExport(input: ExportWorkflowInput): Promise<void> {
      await storage.removeObject(bucket, onDemandExportKey(input.organizationId, input.exportId));
      await q.updateTransfer(db, 'organization_exports', input.exportId, { status: 'expired' });
    },

    async runOrganizationImport(input: ImportWorkflowInput): Promise<{ imported: boolean }> {
      const row = await q.getTransferById(db, 'organization_imports', input.importId);
      if (!row || row.status !== 'running') return { imported: false };
      const requester = row.requested_by ? await getUser(db, row.requested_by) : undefined;
      if (!requester) throw ApplicationFailure.nonRetryable('the person who started the import no longer exists', 'ImportRequester');
      // Everything is created in the requester's name, as an owner: they must still be one when it starts.
      if ((await getMember(db, input.organizationId, requester.id))?.role !== 'owner') {
        throw ApplicationFailure.nonRetryable('the person who started the import is no longer an owner of the organization', 'ImportRequester');
      }
      const ctx = Context.current();
      const services = createServices({ ...deps, temporal: ctx.client }, { admitRunStarts: false });
      const actor = { type: 'user' as const, id: requester.id, ip: '', userAgent: 'organization import' };
      const org = { organizationId: input.organizationId, role: 'owner' as const };
      const importServices: ImportServices = {
        content: services.content.service,
        search: services.content.search,
        embeddingModels: services.content.embeddingModels,
        workflows: services.workflows,
        invite: (o, a, invitation) => services.organizations.invitations.create(o, a, a.type === 'user' ? a.id : null, invitation),
        // 'pending' until the job starts, 'processing' while it runs: either way its embed step is still to come.
        processingEnded: async (organizationId, contentId) => !['pending', 'processing'].includes((await getContent(db, organizationId, contentId))?.processing_status ?? 'none'),
      };
      let lastWrite = 0;
      // One progress write at a time, awaited before the final one: a late progress write never replaces the report.
      let progressWrite: Promise<unknown> = Promise.resolve();
      try {
        const archive = (await storage.getObject(bucket, row.object_key)) as Readable;
        const report = await importOrganizationArchive(archive, importServices, {
          org,
          actor,
          importerEmail: requester.email,
          maxArchiveBytes: deps.config.organizations.importMaxBytes,
          tick: () => {
            // Timed out (the workflow has failed the import) or cancelled: stop creating records now.
            if (ctx.cancellationSignal.aborted) throw new Error('the import was stopped');
            ctx.heartbeat();
          },
          onProgress: (progress) => {
            // Progress visible at GET .../imports/{id}, at most every 2 s.
            if (Date.now() - lastWrite > 2000) {
              lastWrite = Date.now();
              progressWrite = progressWrite.then(() => q.updateTransfer(db, 'organization_imports', row.id, { result: progress }, { onlyRunning: true })).catch(() => undefined);
            }
          },
        });
        await progressWrite;
        await db.transaction(async (trx) => {
          const finished = await q.updateTransfer(trx, 'organization_imports', row.id, { status: 'succeeded', result: report, finished: true }, { onlyRunning: true });
          if (!finished) return;
          await recordAudit(trx, {
            organizationId: input.organizationId,
            actor,
            action: 'organization.import_finished',
            target: { type: 'organization_import', id: row.id },
            after: { content: report.content, workflows: report.workflows, invitations: report.invitations, problems: report.problems.length },
          });
        });
        await storage.removeObject(bucket, row.object_key).catch(() => undefined);
        return { imported: true };
      } catch (err) {
        // A malformed archive will not get better on a retry.
        if (err instanceof ArchiveFormatError || err instanceof SyntaxError) throw ApplicationFailure.nonRetryable(`the archive is not a valid organization export: ${err.message}`, 'ImportArchiveInvalid');
        throw err;
      } finally {
        await services.close();
      }
    },
  };
}
