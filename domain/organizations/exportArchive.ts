import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Db } from '../../db/knex';
import { startMultipartUpload } from '../../lib/archive/multipartUpload';
import { JsonlParts, TarGzWriter } from '../../lib/archive/tarGz';
import type { NodeState, RunError } from '../../lib/dag/model';
import { isEncryptedSecret } from '../../lib/secrets';
import { organizationPrefix, type MinioClient } from '../../lib/storage';
import { MASK, maskSecrets } from '../audit/mask';
import type { RunRow } from '../runs/queries';
import type { VectorStore } from '../../lib/vectors';
import * as xq from './exportQueries';
import { getOrganizationAnyStatus } from './queries';

/**
 * The deletion export (docs/organizations.md#deletion-export): one `.tar.gz` per organization, streamed to object
 * storage with bounded memory (one keyset page of rows, one record part, one upload part and the compressor's
 * window at a time, plus one manifest line per entry), and read back and checked before it is reported written.
 *
 * Layout (format version 2; version 1 had no `embedding-models/` and `vectors/`):
 * - `organization.json`: the record and its settings, every secret masked;
 * - `members/`, `invitations/`, `api-keys/`, `secrets/`, `audit-log/`, `workflows/`, `workflow-versions/`,
 *   `runs/`, `content/`, `embedding-models/`, `content-versions/`, `vectors/`, `objects/`: JSON Lines parts
 *   (`part-00001.jsonl`, ...); `vectors/` holds the caller-supplied document vectors (PUT /content/{id}/embedding);
 * - `files/<contentId>/v<version>/<filename>`: the bytes of every version of every content item;
 * - `workflow-files/...`: files the organization's workflows wrote;
 * - `manifest.json` (last): every other entry with its size and SHA-256, counts, and what is masked or left out.
 */

export const EXPORT_FORMAT = 'loom-organization-export';
export const EXPORT_FORMAT_VERSION = 2;
/** Run parameters and results larger than this (as JSON) are left out of the run summaries. */
export const RUN_VALUE_LIMIT_BYTES = 16 * 1024;
/** Node and run error messages are cut to this many characters; a run keeps at most RUN_ERRORS_LIMIT errors. */
export const ERROR_MESSAGE_LIMIT = 2000;
export const RUN_ERRORS_LIMIT = 100;

export function exportArchiveKey(organizationId: string): string {
  return `exports/organizations/${organizationId}/organization-export.tar.gz`;
}

/** Where exports were written before the archive (a JSON document); still removed when an export expires. */
export function legacyExportKey(organizationId: string): string {
  return `exports/organizations/${organizationId}/export.json`;
}

export interface ExportProgress {
  phase: string;
  entries: number;
  bytes: number;
}

export interface ExportOptions {
  /** Called often (every row and every chunk of a file): the activity heartbeats from it. */
  onProgress?: (progress: ExportProgress) => void;
  /** Aborts the export (the upload is abandoned, nothing is left behind). */
  signal?: AbortSignal;
  /** Upload part size (at least 5 MiB). */
  partBytes?: number;
  /** Size at which a JSON Lines part is cut. */
  recordPartBytes?: number;
  /** Where the archive goes (default: the deletion export's key, exportArchiveKey). */
  key?: string;
}

export interface ExportResult {
  key: string;
  /** Size and SHA-256 of the `.tar.gz` as stored, checked by reading it back. */
  bytes: number;
  sha256: string;
  entries: number;
  contentFiles: number;
  missingFiles: number;
  exportedAt: string;
}

export interface ExportDeps {
  db: Db;
  storage: MinioClient;
  bucket: string;
  /** Reads caller-supplied document vectors for `vectors/` (without it, none are exported). */
  vectors?: Pick<VectorStore, 'getDocumentVector'>;
}

/** Sealed secrets and every value under a secret-looking key become `[masked]`: not even the last characters remain. */
export function maskForExport(value: unknown, depth = 0): unknown {
  if (depth > 32) return MASK;
  if (isEncryptedSecret(value)) return MASK;
  if (Array.isArray(value)) return value.map((v) => maskForExport(v, depth + 1));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return maskSecrets(Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskForExport(v, depth + 1)])));
  }
  return value;
}

const cut = (message: unknown): string => {
  const text = typeof message === 'string' ? message : JSON.stringify(message ?? null);
  return text.length > ERROR_MESSAGE_LIMIT ? `${text.slice(0, ERROR_MESSAGE_LIMIT)}…` : text;
};

/** A small value as it is; a large one replaced by its size. */
function bounded(value: unknown): { value?: unknown; omittedBytes?: number } {
  const bytes = Buffer.byteLength(JSON.stringify(value ?? null), 'utf8');
  return bytes <= RUN_VALUE_LIMIT_BYTES ? { value } : { omittedBytes: bytes };
}

/** What the archive keeps of a run: status, times, each node's state without its output, errors, small values. */
export function runSummary(run: RunRow): Record<string, unknown> {
  const states = Object.entries((run.node_states ?? {}) as Record<string, NodeState>);
  const byStatus: Record<string, number> = {};
  for (const [, s] of states) byStatus[s.status] = (byStatus[s.status] ?? 0) + 1;
  const errors = (run.errors ?? []) as RunError[];
  const parameters = bounded(run.parameters);
  const results = bounded(run.results);
  return {
    id: run.id,
    workflow_id: run.workflow_id,
    workflow_version: run.workflow_version,
    status: run.status,
    trigger: run.trigger,
    retry_of: run.retry_of,
    created_by: run.created_by,
    created_at: run.created_at,
    started_at: run.started_at,
    completed_at: run.completed_at,
    duration_ms: run.started_at && run.completed_at ? new Date(run.completed_at).getTime() - new Date(run.started_at).getTime() : null,
    nodes: { total: states.length, byStatus },
    node_states: Object.fromEntries(
      states.map(([id, s]) => [
        id,
        {
          status: s.status,
          attempts: s.attempts,
          startedAt: s.startedAt,
          finishedAt: s.finishedAt,
          ...(s.via ? { via: s.via } : {}),
          error: s.error ? { code: s.error.code, message: cut(s.error.message) } : null,
        },
      ]),
    ),
    errors: errors.slice(0, RUN_ERRORS_LIMIT).map((e) => ({ ...e, message: cut(e.message) })),
    ...(errors.length > RUN_ERRORS_LIMIT ? { errorsOmitted: errors.length - RUN_ERRORS_LIMIT } : {}),
    ...('value' in parameters ? { parameters: parameters.value } : { parametersOmittedBytes: parameters.omittedBytes }),
    ...('value' in results ? { results: results.value } : { resultsOmittedBytes: results.omittedBytes }),
  };
}

/** A file name safe to unpack anywhere: one path segment, no control characters, no leading dots. */
export function archiveFileName(filename: string): string {
  const safe = [...filename.normalize('NFC')]
    .map((ch) => (ch.charCodeAt(0) < 0x20 || ch === '\u007f' || ch === '/' || ch === '\\' ? '_' : ch))
    .join('')
    .replace(/^[.\s]+/, '')
    .trim();
  const limited = Buffer.byteLength(safe) > 200 ? Buffer.from(safe).subarray(0, 200).toString('utf8').replace(/\uFFFD+$/, '') : safe;
  return limited || 'original';
}

/** Which objects under `org/<id>/` the archive holds, and where. */
function objectCoverage(relativeKey: string): 'content-version' | 'workflow-file' | null {
  if (/^content\/[^/]+\/\d+\/original$/.test(relativeKey)) return 'content-version';
  if (relativeKey.startsWith('workflow-files/')) return 'workflow-file';
  return null;
}

const isNotFound = (err: unknown): boolean => {
  const code = (err as { code?: string }).code;
  return code === 'NotFound' || code === 'NoSuchKey';
};

async function* keyset<R, K>(fetch: (after: K | null) => Promise<R[]>, keyOf: (row: R) => K): AsyncGenerator<R> {
  let after: K | null = null;
  for (;;) {
    const rows = await fetch(after);
    for (const row of rows) yield row;
    if (rows.length === 0) return;
    after = keyOf(rows[rows.length - 1]!);
  }
}

/**
 * Writes the organization's archive to `exportArchiveKey(id)` (replacing an earlier one: the step may run again),
 * checks it, and answers its size and checksum; null when the organization does not exist (any more).
 */
export async function writeOrganizationExport(deps: ExportDeps, organizationId: string, options: ExportOptions = {}): Promise<ExportResult | null> {
  const { db, storage, bucket } = deps;
  const org = await getOrganizationAnyStatus(db, organizationId);
  if (!org) return null;
  const key = options.key ?? exportArchiveKey(organizationId);
  const exportedAt = new Date();
  const prefix = organizationPrefix(organizationId);

  // A crashed earlier attempt may have left an incomplete upload of the same key.
  await storage.removeIncompleteUpload(bucket, key).catch(() => undefined);
  const upload = await startMultipartUpload(storage, bucket, key, {
    contentType: 'application/gzip',
    metadata: { 'loom-export-format': `${EXPORT_FORMAT}/${EXPORT_FORMAT_VERSION}` },
    partBytes: options.partBytes,
  });
  const writer = new TarGzWriter(upload.stream);
  let phase = 'organization';
  let bytesCopied = 0;
  const tick = (bytes = 0) => {
    bytesCopied += bytes;
    if (options.signal?.aborted) throw new Error('export cancelled');
    options.onProgress?.({ phase, entries: writer.entries.length, bytes: bytesCopied });
  };
  const parts = (dir: string) => new JsonlParts(writer, dir, exportedAt, options.recordPartBytes);
  const counts: Record<string, number> = {};
  const missingFiles: { contentId: string; version: number; objectKey: string }[] = [];

  async function collection<R, K>(dir: string, fetch: (after: K | null) => Promise<R[]>, keyOf: (row: R) => K, map: (row: R) => unknown): Promise<void> {
    phase = dir;
    const out = parts(dir);
    for await (const row of keyset(fetch, keyOf)) {
      tick();
      await out.add(map(row));
    }
    await out.close();
    counts[dir] = out.total;
  }

  async function copyObject(path: string, objectKey: string, size: number, mtime: Date, extra: Record<string, unknown>) {
    const body = (await storage.getObject(bucket, objectKey)) as Readable;
    try {
      return await writer.addStream(path, size, mtime, body, extra, tick);
    } finally {
      body.destroy();
    }
  }

  try {
    await writer.addBuffer(
      'organization.json',
      Buffer.from(
        JSON.stringify(
          {
            id: org.id,
            name: org.name,
            slug: org.slug,
            plan: org.plan,
            status: org.status,
            created_by: org.created_by,
            created_at: org.created_at,
            updated_at: org.updated_at,
            deletion_requested_at: org.deletion_requested_at,
            settings: maskForExport(org.settings),
          },
          null,
          2,
        ),
      ),
      exportedAt,
      { kind: 'document' },
    );

    await collection('members', (a: string | null) => xq.exportMembersPage(db, organizationId, a), (r) => r.user_id, (r) => r);
    await collection('invitations', (a: string | null) => xq.exportInvitationsPage(db, organizationId, a), (r) => r.id, (r) => r);
    await collection('api-keys', (a: string | null) => xq.exportApiKeysPage(db, organizationId, a), (r) => r.id, (r) => r);
    await collection('secrets', (a: string | null) => xq.exportSecretNamesPage(db, organizationId, a), (r) => r.id, (r) => r);
    await collection(
      'audit-log',
      (a: xq.TimeKey | null) => xq.exportAuditPage(db, organizationId, a),
      (r) => ({ sort: r.sort_key, id: r.id }),
      ({ sort_key: _sort, ...r }) => maskSecrets(r),
    );
    await collection('workflows', (a: string | null) => xq.exportWorkflowsPage(db, organizationId, a), (r) => r.id, (r) => r);
    await collection(
      'workflow-versions',
      (a: { workflowId: string; version: number } | null) => xq.exportWorkflowVersionsPage(db, organizationId, a),
      (r) => ({ workflowId: r.workflow_id, version: r.version }),
      (r) => r,
    );
    await collection('runs', (a: xq.TimeKey | null) => xq.exportRunsPage(db, organizationId, a), (r) => ({ sort: r.sort_key, id: r.id }), runSummary);
    await collection('content', (a: string | null) => xq.exportContentPage(db, organizationId, a), (r) => r.id, (r) => r);
    await collection('embedding-models', (a: string | null) => xq.exportEmbeddingModelsPage(db, organizationId, a), (r) => r.name, (r) => r);

    // Every version's record, and its bytes beside it.
    phase = 'content-versions';
    const versions = parts('content-versions');
    let contentFiles = 0;
    for await (const v of keyset(
      (a: { contentId: string; version: number } | null) => xq.exportContentVersionsPage(db, organizationId, a),
      (r) => ({ contentId: r.content_id, version: r.version }),
    )) {
      tick();
      let file: string | null = `files/${v.content_id}/v${v.version}/${archiveFileName(v.filename)}`;
      let size: number | null = null;
      try {
        size = (await storage.statObject(bucket, v.object_key)).size;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
      let matchesRecord: boolean | null = null;
      if (size === null) {
        missingFiles.push({ contentId: v.content_id, version: v.version, objectKey: v.object_key });
        file = null;
      } else {
        const entry = await copyObject(file, v.object_key, size, new Date(v.created_at), { kind: 'content-file', contentId: v.content_id, version: v.version });
        matchesRecord = entry.sha256 === v.sha256;
        entry.matchesRecord = matchesRecord;
        contentFiles++;
      }
      await versions.add({ ...v, file, fileMissing: file === null, fileMatchesRecord: matchesRecord });
    }
    await versions.close();
    counts['content-versions'] = versions.total;
    counts['files'] = contentFiles;

    // Caller-supplied document vectors (of the organization's registered models): computed ones are made again.
    phase = 'vectors';
    const vectorParts = parts('vectors');
    if (deps.vectors) {
      for await (const c of keyset((a: string | null) => xq.exportCustomModelContentPage(db, organizationId, a), (r) => r.id)) {
        tick();
        const stored = await deps.vectors.getDocumentVector(organizationId, c.id);
        if (stored?.source === 'provided') await vectorParts.add({ content_id: c.id, model: stored.model, dimensions: stored.dimensions, vector: stored.vector });
      }
    }
    await vectorParts.close();
    counts['vectors'] = vectorParts.total;

    // Files the organization's workflows wrote, then the list of every object under the organization's prefix.
    phase = 'workflow-files';
    let workflowFiles = 0;
    for await (const item of storage.listObjectsV2(bucket, `${prefix}workflow-files/`, true)) {
      if (!item.name) continue;
      tick();
      const relative = item.name.slice(prefix.length);
      await copyObject(relative, item.name, item.size ?? 0, item.lastModified ?? exportedAt, { kind: 'workflow-file' });
      workflowFiles++;
    }
    counts['workflow-files'] = workflowFiles;
    phase = 'objects';
    const objects = parts('objects');
    for await (const item of storage.listObjectsV2(bucket, prefix, true)) {
      if (!item.name) continue;
      tick();
      const relative = item.name.slice(prefix.length);
      await objects.add({ key: relative, size: item.size ?? 0, lastModified: item.lastModified ?? null, archivedAs: objectCoverage(relative) });
    }
    await objects.close();
    counts['objects'] = objects.total;

    phase = 'manifest';
    const manifest = {
      format: EXPORT_FORMAT,
      formatVersion: EXPORT_FORMAT_VERSION,
      container: 'tar (POSIX, PAX headers for long or non-ASCII names), gzip-compressed',
      checksum: 'sha256',
      organization: { id: org.id, name: org.name, slug: org.slug },
      exportedAt: exportedAt.toISOString(),
      completedAt: new Date().toISOString(),
      counts,
      missingFiles,
      masked: [
        'settings: every sealed secret and every value under a secret-looking key (webhook secrets, SSO client secrets, third-party secrets) is "[masked]"',
        'secrets: names only, never values',
        'api-keys: no key hashes; invitations: no tokens or token hashes',
        'audit-log: secret values were already masked when the entries were written',
      ],
      leftOut: [
        `runs: node outputs; parameters and results over ${RUN_VALUE_LIMIT_BYTES} bytes as JSON (their size is given); error messages cut at ${ERROR_MESSAGE_LIMIT} characters, at most ${RUN_ERRORS_LIMIT} errors per run`,
        'objects not marked archivedAs: derived content files (thumbnails, extracted text: processing makes them again) and large run values',
        'computed search vectors (made again by processing; caller-supplied ones are in vectors/), processing jobs, usage counters, billing records, sessions',
      ],
      entries: writer.entries,
    };
    await writer.addBuffer('manifest.json', Buffer.from(JSON.stringify(manifest, null, 2)), exportedAt, { kind: 'manifest' });
    await writer.finish();
    await upload.done;
  } catch (err) {
    writer.abort(err as Error);
    await upload.done.catch(() => undefined);
    throw err;
  }

  // Written completely: the stored object has the length and checksum of what was sent.
  phase = 'verify';
  const stored = await storage.statObject(bucket, key);
  if (stored.size !== writer.compressedBytes) {
    throw new Error(`export ${key}: stored ${stored.size} bytes, wrote ${writer.compressedBytes}`);
  }
  const check = createHash('sha256');
  const readBack = (await storage.getObject(bucket, key)) as Readable;
  for await (const chunk of readBack) {
    check.update(chunk as Buffer);
    tick();
  }
  if (check.digest('hex') !== writer.sha256()) throw new Error(`export ${key}: the stored archive does not match what was written`);

  return {
    key,
    bytes: writer.compressedBytes,
    sha256: writer.sha256(),
    entries: writer.entries.length,
    contentFiles: counts['files'] ?? 0,
    missingFiles: missingFiles.length,
    exportedAt: exportedAt.toISOString(),
  };
}
