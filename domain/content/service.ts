import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { z } from 'zod';
import type { AppDeps } from '../deps';
import { recordAudit } from '../audit/record';
import type { Actor, OrganizationContext } from '../principals';
import { AppError, forbidden, notFound } from '../../lib/errors';
import { zodIssueDetails } from '../../lib/zodIssues';
import { decodeCursorOrThrow, encodeCursor } from '../../lib/pagination';
import { contentPrefix, originalKey } from '../../lib/content/keys';
import { mediaTypeOf } from '../../lib/content/mediaTypes';
import { remainingBytes, storageQuotaExceeded, type StorageQuota } from '../../lib/content/quota';
import type { DownloadConditions, ReceivedUpload, ReceiveUpload } from './upload';
import { createProcessingJob, orderedSteps, startProcessing, type ProcessingInput } from './processing';
import { insertOutboxEvent } from '../events/queries';
import * as q from './queries';
import { storageQuota } from './quota';
import type { ContentRow } from './queries';
import type { ProcessingStep } from '../../lib/contentSteps';
import { metadataSchema, tagsSchema, titleSchema, type Variant } from './schemas';
import { serializeContent, serializeJob, serializeVersion } from './serializers';
import { tenantPriority } from '../../lib/tenantPriority';

/**
 * Storage, versions, download, deletion and processing of content. Every read and write is scoped by the
 * organization; an id of another organization is a 404. Members change only what they created (admins and
 * owners anything).
 */
export function createContentService(deps: AppDeps) {
  const { db, storage, config } = deps;
  const bucket = config.minio.bucket;

  async function load(organizationId: string, id: string, conn: q.Queryable = db): Promise<ContentRow> {
    const row = await q.getContent(conn, organizationId, id);
    if (!row) throw notFound('content');
    return row;
  }

  function assertMayModify(org: OrganizationContext, actor: Actor | null, row: ContentRow): void {
    if (org.role === 'owner' || org.role === 'admin') return;
    const own = actor && (actor.type === 'user' ? row.created_by === actor.id : row.created_by_api_key_id === actor.id);
    if (!own) throw forbidden('members may change only content they created');
  }

  /** The organization's storage quota; refused at once when nothing is left. */
  async function quotaBeforeUpload(organizationId: string): Promise<StorageQuota> {
    const quota = await storageQuota(db, config, organizationId);
    if (remainingBytes(quota) === 0) throw storageQuotaExceeded(quota);
    return quota;
  }

  /** Streams the request's file into its object, cut at the upload limit and at what is left of the quota. */
  function receiveFile(receive: ReceiveUpload, key: string, quota: StorageQuota): Promise<ReceivedUpload> {
    return receive({ storage, bucket, key, maxBytes: config.content.maxUploadBytes, quotaRemaining: remainingBytes(quota), quota });
  }

  /** The row of an uploaded file's version: where its bytes are, what they are, who sent them. */
  function versionRow(organizationId: string, contentId: string, version: number, key: string, file: ReceivedUpload['file'], actor: Actor | null) {
    return {
      content_id: contentId,
      organization_id: organizationId,
      version,
      object_key: key,
      filename: file.filename,
      mime_type: file.mimeType,
      declared_mime_type: file.declaredMimeType,
      media_type: mediaTypeOf(file.mimeType),
      size_bytes: file.size,
      sha256: file.sha256,
      created_by: actor?.type === 'user' ? actor.id : null,
    };
  }

  function parseFields(received: ReceivedUpload) {
    const schema = z.object({ title: titleSchema.optional(), tags: tagsSchema.optional(), metadata: metadataSchema.optional() });
    const parsed = schema.safeParse(received.fields);
    if (!parsed.success) throw new AppError('VALIDATION_ERROR', 'invalid upload fields', zodIssueDetails(parsed.error));
    return parsed.data;
  }

  /** The quota check that counts: under an organization-wide lock, with the exact size. */
  async function assertQuotaInTransaction(trx: Parameters<typeof q.lockOrganizationStorage>[0], organizationId: string, size: number) {
    await q.lockOrganizationStorage(trx, organizationId);
    const quota = await storageQuota(trx, config, organizationId);
    if (quota.limitBytes !== null && quota.usedBytes + size > quota.limitBytes) throw storageQuotaExceeded(quota, { bytes: size });
  }

  function uploadedEvent(row: { id: string; organization_id: string }, version: number, key: string, file: ReceivedUpload['file']) {
    return {
      contentId: row.id,
      organizationID: row.organization_id,
      version,
      bucket,
      key,
      filename: file.filename,
      mimeType: file.mimeType,
      size: file.size,
      sha256: file.sha256,
    };
  }

  async function detail(organizationId: string, id: string) {
    const row = await load(organizationId, id);
    const version = await q.getVersion(db, organizationId, id, row.current_version);
    return { ...serializeContent(row), currentVersion: serializeVersion(version!) };
  }

  return {
    detail,

    /** `receive` reads the request's file and fields (the route binds it to its request). */
    async upload(receive: ReceiveUpload, org: OrganizationContext, actor: Actor | null) {
      const organizationId = org.organizationId;
      const contentId = randomUUID();
      const key = originalKey(organizationId, contentId, 1);
      const quota = await quotaBeforeUpload(organizationId);
      const received = await receiveFile(receive, key, quota);
      const { file } = received;
      let job = null as ProcessingInput | null;
      try {
        const fields = parseFields(received);
        await db.transaction(async (trx) => {
          await assertQuotaInTransaction(trx, organizationId, file.size);
          const mediaType = mediaTypeOf(file.mimeType);
          await q.insertContent(trx, {
            id: contentId,
            organization_id: organizationId,
            created_by: actor?.type === 'user' ? actor.id : null,
            created_by_api_key_id: actor?.type === 'apiKey' ? actor.id : null,
            title: fields.title ?? null,
            tags: fields.tags ?? [],
            metadata: (fields.metadata ?? {}) as Record<string, unknown>,
            current_version: 1,
            last_version: 1,
            filename: file.filename,
            mime_type: file.mimeType,
            media_type: mediaType,
            size_bytes: file.size,
            sha256: file.sha256,
            processing_status: config.content.processOnUpload ? 'pending' : 'none',
          });
          await q.insertVersion(trx, versionRow(organizationId, contentId, 1, key, file, actor));
          await insertOutboxEvent(trx, { organizationId, type: 'content.uploaded', payload: uploadedEvent({ id: contentId, organization_id: organizationId }, 1, key, file) });
          if (config.content.processOnUpload) {
            job = await createProcessingJob(deps, trx, { organizationId, contentId, version: 1 }, orderedSteps(undefined), 'upload');
          }
        });
      } catch (err) {
        await storage.removeObject(bucket, key).catch(() => undefined);
        throw err;
      }
      if (job) await startProcessing(deps, job);
      return detail(organizationId, contentId);
    },

    async uploadVersion(receive: ReceiveUpload, org: OrganizationContext, actor: Actor | null, id: string) {
      const organizationId = org.organizationId;
      assertMayModify(org, actor, await load(organizationId, id));
      const quota = await quotaBeforeUpload(organizationId);
      const version = await q.reserveVersion(db, organizationId, id);
      if (version === null) throw notFound('content');
      const key = originalKey(organizationId, id, version);
      const received = await receiveFile(receive, key, quota);
      const { file } = received;
      let job = null as ProcessingInput | null;
      try {
        const fields = parseFields(received);
        await db.transaction(async (trx) => {
          const row = await q.getContentForUpdate(trx, organizationId, id);
          if (!row) throw notFound('content');
          await assertQuotaInTransaction(trx, organizationId, file.size);
          const mediaType = mediaTypeOf(file.mimeType);
          await q.insertVersion(trx, versionRow(organizationId, id, version, key, file, actor));
          // Versions may finish out of order; the highest number stays current.
          if (version > row.current_version) {
            await q.updateContent(trx, organizationId, id, {
              current_version: version,
              filename: file.filename,
              mime_type: file.mimeType,
              media_type: mediaType,
              size_bytes: file.size,
              sha256: file.sha256,
              processing_status: config.content.processOnUpload ? 'pending' : 'none',
              ...(fields.title !== undefined ? { title: fields.title } : {}),
              ...(fields.tags !== undefined ? { tags: fields.tags } : {}),
              ...(fields.metadata !== undefined ? { metadata: JSON.stringify(fields.metadata) } : {}),
            });
          }
          await insertOutboxEvent(trx, { organizationId, type: 'content.uploaded', payload: uploadedEvent(row, version, key, file) });
          if (config.content.processOnUpload) {
            job = await createProcessingJob(deps, trx, { organizationId, contentId: id, version }, orderedSteps(undefined), 'upload');
          }
        });
      } catch (err) {
        await storage.removeObject(bucket, key).catch(() => undefined);
        throw err;
      }
      if (job) await startProcessing(deps, job);
      const row = await load(organizationId, id);
      const stored = await q.getVersion(db, organizationId, id, version);
      return { ...serializeContent(row), currentVersion: serializeVersion(stored!) };
    },

    async listVersions(organizationId: string, id: string, limit: number, cursor: string | undefined) {
      await load(organizationId, id);
      const position = decodeCursorOrThrow(cursor, 'version');
      const before = position ? Number(position.sort) : null;
      const rows = await q.listVersions(db, organizationId, id, limit, before);
      const data = rows.slice(0, limit);
      const last = data[data.length - 1];
      return {
        data: data.map(serializeVersion),
        nextCursor: rows.length > limit && last ? encodeCursor({ sort: String(last.version), id: last.id }) : null,
      };
    },

    async update(org: OrganizationContext, actor: Actor | null, id: string, body: { title?: string | null; metadata?: Record<string, unknown>; tags?: string[] }) {
      const row = await load(org.organizationId, id);
      assertMayModify(org, actor, row);
      await db.transaction(async (trx) => {
        await q.updateContent(trx, org.organizationId, id, {
          ...(body.title !== undefined ? { title: body.title } : {}),
          ...(body.tags !== undefined ? { tags: body.tags } : {}),
          ...(body.metadata !== undefined ? { metadata: JSON.stringify(body.metadata) } : {}),
        });
        if (actor) {
          // Only what changed is kept (recordAudit diffs the snapshots).
          const before = { title: row.title, tags: row.tags ?? [], metadata: row.metadata ?? {} };
          const after = { ...before, ...Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) };
          await recordAudit(trx, { organizationId: org.organizationId, actor, action: 'content.updated', target: { type: 'content', id }, before, after });
        }
      });
      return detail(org.organizationId, id);
    },

    /**
     * Streams the object. Strong ETag = the SHA-256 of the bytes (same bytes, same tag across versions); single
     * byte ranges answer 206; several ranges are answered with the whole object (allowed by RFC 9110).
     */
    async download(
      organizationId: string,
      id: string,
      query: { version?: number; variant: Variant; disposition: 'attachment' | 'inline' },
      conditions: DownloadConditions,
    ) {
      const row = await load(organizationId, id);
      const version = await q.getVersion(db, organizationId, id, query.version ?? row.current_version);
      if (!version) throw notFound('version');
      let key = version.object_key;
      let mimeType = version.mime_type;
      let size = Number(version.size_bytes);
      let etag = `"${version.sha256}"`;
      let filename = version.filename;
      if (query.variant !== 'original') {
        const derived = version.derived?.[query.variant];
        if (!derived) throw notFound(`${query.variant} of this version (not produced yet, or not for this type)`);
        key = derived.key;
        mimeType = derived.mimeType;
        size = derived.size;
        etag = `"${version.sha256}-${query.variant}"`;
        filename = `${filename.replace(/\.[^.]*$/, '')}.${derivedExtension(mimeType)}`;
      }
      const headers: Record<string, string> = {
        'Content-Type': mimeType,
        'Content-Disposition': contentDisposition(query.disposition, filename),
        ETag: etag,
        'Accept-Ranges': 'bytes',
        'Cache-Control': 'private, no-cache',
        'X-Content-Type-Options': 'nosniff',
        // Uploaded HTML or SVG opened inline must not run script on the API's origin.
        'Content-Security-Policy': "sandbox; default-src 'none'",
      };
      const { ifNoneMatch } = conditions;
      if (ifNoneMatch && ifNoneMatch.split(',').map((s) => s.trim()).some((t) => t === etag || t === '*')) {
        return { status: 304, headers };
      }
      // A resumed download names the representation it began with (If-Range): when that is no longer this one (a
      // newer version became current), a range of the new bytes would be glued onto the old ones, so the whole current
      // file answers instead (RFC 9110 §13.1.5: strong comparison; a date never matches, there is no Last-Modified).
      const range = ifRangeHolds(conditions.ifRange, etag) ? parseRange(conditions.range, size) : null;
      if (range === 'unsatisfiable') {
        throw new AppError('RANGE_NOT_SATISFIABLE', `range not satisfiable for ${size} bytes`, undefined, {
          'Content-Range': `bytes */${size}`,
        });
      }
      if (range) {
        const body: Readable = await storage.getPartialObject(bucket, key, range.start, range.end - range.start + 1);
        return {
          status: 206,
          body,
          headers: {
            ...headers,
            'Content-Range': `bytes ${range.start}-${range.end}/${size}`,
            'Content-Length': String(range.end - range.start + 1),
          },
        };
      }
      const body: Readable = size === 0 ? Readable.from([]) : await storage.getObject(bucket, key);
      return { status: 200, body, headers: { ...headers, 'Content-Length': String(size) } };
    },

    /**
     * Deletes the record (versions, jobs cascade) and records content.deleted in one transaction. The clean-up
     * workflow is started just before it, never inside it (no transaction waits for Temporal): if Temporal cannot
     * take it, nothing is deleted and the caller gets a 503; the workflow first confirms the record is gone and
     * removes nothing when the transaction rolled back (workflows/content.ts).
     */
    async remove(org: OrganizationContext, actor: Actor | null, id: string) {
      const organizationId = org.organizationId;
      const workflowId = `content-delete-${id}`;
      // Checked first as well, so a refused or unknown delete starts no workflow.
      assertMayModify(org, actor, await load(organizationId, id));
      const running = await q.activeJobs(db, organizationId, id);
      try {
        await deps.temporal.workflow.start('contentDeletionWorkflow', {
          taskQueue: config.temporal.taskQueue,
          workflowId,
          args: [{ organizationId, contentId: id, processingWorkflowIds: running.map((j) => j.workflow_id) }],
          priority: tenantPriority(organizationId),
        });
      } catch (err) {
        // A parallel delete of the same content started it: the transaction below decides (404 for the loser).
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      }
      await db.transaction(async (trx) => {
        const row = await q.getContentForUpdate(trx, organizationId, id);
        if (!row) throw notFound('content');
        assertMayModify(org, actor, row);
        await q.deleteContent(trx, organizationId, id);
        await insertOutboxEvent(trx, {
          organizationId,
          type: 'content.deleted',
          payload: { contentId: id, organizationID: organizationId, bucket, prefix: contentPrefix(organizationId, id), versions: row.last_version },
        });
        if (actor) {
          await recordAudit(trx, { organizationId, actor, action: 'content.deleted', target: { type: 'content', id }, before: { title: row.title, versions: row.last_version } });
        }
      });
      return { id, status: 'deleted' as const, cleanup: { workflowId } };
    },

    async process(org: OrganizationContext, actor: Actor | null, id: string, body: { steps?: ProcessingStep[]; version?: number }, trigger: 'manual' | 'embed' = 'manual') {
      const organizationId = org.organizationId;
      let input = null as ProcessingInput | null;
      await db.transaction(async (trx) => {
        const row = await q.getContentForUpdate(trx, organizationId, id);
        if (!row) throw notFound('content');
        assertMayModify(org, actor, row);
        const version = body.version ?? row.current_version;
        if (!(await q.getVersion(trx, organizationId, id, version))) throw notFound('version');
        if ((await q.activeJobs(trx, organizationId, id)).length) {
          throw new AppError('INVALID_STATE', 'a processing job is already running for this content; see /status');
        }
        input = await createProcessingJob(deps, trx, { organizationId, contentId: id, version }, orderedSteps(body.steps), trigger);
        if (version === row.current_version) await q.updateContent(trx, organizationId, id, { processing_status: 'pending' });
      });
      await startProcessing(deps, input!, true);
      return this.status(organizationId, id, input!.jobId);
    },

    async status(organizationId: string, id: string, jobId?: string) {
      // One snapshot for the three reads: the job's end commits together with the content's status, and separate
      // reads could pair a job that succeeded with content still 'processing'.
      return db.transaction(
        async (trx) => {
          const row = await load(organizationId, id, trx);
          const job = await q.getJob(trx, organizationId, id, jobId);
          if (jobId && !job) throw notFound('job');
          return {
            contentId: id,
            version: row.current_version,
            status: row.processing_status,
            job: job ? serializeJob(job, await q.jobSteps(trx, job.id)) : null,
          };
        },
        { isolationLevel: 'repeatable read', readOnly: true },
      );
    },
  };
}

export type ContentService = ReturnType<typeof createContentService>;

export function contentDisposition(kind: 'attachment' | 'inline', filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  // RFC 8187 attr-chars only: encodeURIComponent leaves ' ( ) * as they are, which the ext-value grammar forbids.
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

function derivedExtension(mimeType: string): string {
  const map: Record<string, string> = { 'image/webp': 'webp', 'text/plain': 'txt', 'text/markdown': 'md', 'image/png': 'png', 'image/jpeg': 'jpg' };
  return map[mimeType] ?? 'bin';
}

/** Whether a Range may be honoured: no If-Range, or one naming exactly this strong ETag. */
export function ifRangeHolds(ifRange: string, etag: string): boolean {
  return ifRange.trim() === '' || ifRange.trim() === etag;
}

/** One `bytes=` range, or null to send everything; 'unsatisfiable' when it starts past the end. */
export function parseRange(header: string, size: number): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, from, to] = match;
  if (from === '' && to === '') return null;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  if (start >= size) return 'unsatisfiable';
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (end < start) return null;
  return { start, end };
}
