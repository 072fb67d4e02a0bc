import type { Readable } from 'node:stream';
import { sanitizeFilename } from '../../lib/content/filename';
import { sniffMimeType, SNIFF_BYTES } from '../../lib/content/mediaTypes';
import { UploadLimitError, writeStreamToObject } from '../../lib/content/objectWriter';
import { storageQuotaExceeded } from '../../lib/content/quota';
import { ArchiveFormatError, readEntryBody, readTarGz, type TarEntry } from '../../lib/archive/tarReader';
import { AppError } from '../../lib/errors';
import type { Role } from '../../lib/permissions';
import type { Actor, OrganizationContext } from '../principals';
import type { ContentService } from '../content/service';
import type { ContentSearch } from '../content/search';
import type { EmbeddingModels } from '../content/embeddingModels';
import type { ReceiveUpload } from '../content/upload';
import type { WorkflowActor } from '../workflows/service';
import { EXPORT_FORMAT } from './exportArchive';

/** A JSON Lines part or a JSON document larger than this is refused (the writer cuts parts at ~4 MiB). */
const MAX_RECORD_PART_BYTES = 32 * 1024 * 1024;
/** Entries an archive may hold: more is not an export of ours. */
const MAX_ENTRIES = 2_000_000;
/** Problems listed in the report (the counts hold them all). */
const MAX_PROBLEMS = 200;
const FILE_PATH = /^files\/([0-9a-f-]{36})\/v(\d{1,9})\/([^/]{1,255})$/;
const PART_PATH = /^([a-z-]+)\/part-\d{5}\.jsonl$/;
const UUID_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** What the import uses of the domain services: each record goes through the same rules as the API's. */
export interface ImportServices {
  content: Pick<ContentService, 'upload' | 'uploadVersion'>;
  search: Pick<ContentSearch, 'putEmbedding'>;
  embeddingModels: Pick<EmbeddingModels, 'register'>;
  workflows: {
    create(organizationId: string, actor: WorkflowActor, body: unknown): Promise<{ id: string }>;
    update(organizationId: string, actor: WorkflowActor, id: string, body: unknown): Promise<unknown>;
  };
  invite(org: OrganizationContext, actor: Actor, input: { email: string; role: Role }): Promise<unknown>;
}

export interface ImportContext {
  org: OrganizationContext;
  actor: Actor;
  /** The importing person's address: they are a member already, not invited. */
  importerEmail: string;
  onProgress?: (report: ImportReport) => void;
}

export interface ImportReport {
  source: { organizationId: string | null; name: string | null; exportedAt: string | null; formatVersion: number | null };
  content: { items: number; versions: number; skipped: number };
  workflows: { created: number; versions: number; failed: number };
  invitations: { sent: number; skipped: number };
  embeddingModels: number;
  vectors: number;
  /** Secret names the workflows may use: their values are never exported; set them with PUT /api/v1/secrets/{name}. */
  secretsToSet: string[];
  problems: string[];
}

interface WorkflowRecord {
  id: string;
  name: string;
  description?: string;
  status?: string;
  metadata?: Record<string, unknown>;
}

const INVITABLE: readonly Role[] = ['admin', 'member', 'viewer'];

/**
 * Imports an organization archive (exportArchive.ts, format versions 1 and 2) into an empty organization, in one
 * pass over the archive, every record through the domain service the API uses (so the same validation, quotas,
 * limits and audit apply: an archive is a tenant's input like any request):
 * - content: each version's file, in order (the first creates the content, later ones add versions), with the
 *   content's title, tags and metadata; processing runs as for an upload;
 * - workflows with every version (the first creates the workflow, each later one is an update), created as drafts,
 *   so none of their triggers is active until an admin enables the workflow; references between the archive's
 *   workflows (subworkflow nodes) are rewritten to the new ids, referenced workflows first;
 * - members and pending invitations become invitations with their role (owners as admins), within the plan's seats;
 * - registered custom embedding models, and the caller-supplied document vectors (format 2);
 * - secret names are listed in the report, never values.
 * A record the service refuses is reported (problems) and the import goes on.
 */
export async function importOrganizationArchive(archive: Readable, services: ImportServices, ctx: ImportContext): Promise<ImportReport> {
  const report: ImportReport = {
    source: { organizationId: null, name: null, exportedAt: null, formatVersion: null },
    content: { items: 0, versions: 0, skipped: 0 },
    workflows: { created: 0, versions: 0, failed: 0 },
    invitations: { sent: 0, skipped: 0 },
    embeddingModels: 0,
    vectors: 0,
    secretsToSet: [],
    problems: [],
  };
  const problem = (text: string) => {
    if (report.problems.length < MAX_PROBLEMS) report.problems.push(text.slice(0, 500));
  };
  const { org, actor } = ctx;
  const workflowActor: WorkflowActor = { role: org.role, userId: actor.type === 'user' ? actor.id : null, audit: actor };
  const contentRecords = new Map<string, { title: string | null; tags: unknown; metadata: unknown }>();
  const newContentId = new Map<string, string>();
  const workflowRecords: WorkflowRecord[] = [];
  const workflowVersions = new Map<string, unknown[]>();
  const invited = new Set<string>([ctx.importerEmail.toLowerCase()]);
  let entries = 0;
  let first = true;
  let workflowsDone = false;

  async function invite(email: unknown, role: unknown): Promise<void> {
    if (typeof email !== 'string' || invited.has(email.toLowerCase())) return void (report.invitations.skipped += 1);
    invited.add(email.toLowerCase());
    const asRole: Role = INVITABLE.includes(role as Role) ? (role as Role) : 'admin';
    try {
      await services.invite(org, actor, { email, role: asRole });
      report.invitations.sent += 1;
    } catch (err) {
      report.invitations.skipped += 1;
      problem(`invitation of ${email}: ${(err as Error).message}`);
    }
  }

  async function createWorkflows(): Promise<void> {
    workflowsDone = true;
    const oldIds = new Set(workflowRecords.map((w) => w.id));
    const newIds = new Map<string, string>();
    const referencesOf = (id: string) =>
      new Set([...JSON.stringify(workflowVersions.get(id) ?? []).matchAll(UUID_IN_TEXT)].map((m) => m[0]).filter((ref) => ref !== id && oldIds.has(ref)));
    // Referenced workflows first; a cycle cannot be created (its members are reported).
    const pending = new Map(workflowRecords.map((w) => [w.id, w]));
    while (pending.size) {
      const ready = [...pending.values()].filter((w) => [...referencesOf(w.id)].every((ref) => newIds.has(ref) || !pending.has(ref)));
      if (ready.length === 0) {
        for (const w of pending.values()) problem(`workflow ${w.name}: its subworkflow references form a cycle`);
        report.workflows.failed += pending.size;
        return;
      }
      for (const w of ready) {
        pending.delete(w.id);
        const remap = (definition: unknown) =>
          apiShape(JSON.parse(JSON.stringify(definition).replace(UUID_IN_TEXT, (id) => newIds.get(id) ?? id)) as Record<string, unknown>);
        const versions = workflowVersions.get(w.id) ?? [];
        if (versions.length === 0) {
          problem(`workflow ${w.name}: no versions in the archive`);
          report.workflows.failed += 1;
          continue;
        }
        try {
          const created = await services.workflows.create(org.organizationId, workflowActor, {
            ...remap(versions[0]),
            name: w.name,
            ...(w.description ? { description: w.description } : {}),
            ...(w.metadata && Object.keys(w.metadata).length ? { metadata: w.metadata } : {}),
          });
          newIds.set(w.id, created.id);
          for (const definition of versions.slice(1)) {
            await services.workflows.update(org.organizationId, workflowActor, created.id, remap(definition));
          }
          report.workflows.created += 1;
          report.workflows.versions += versions.length;
        } catch (err) {
          report.workflows.failed += 1;
          problem(`workflow ${w.name}: ${describe(err)}`);
        }
      }
      ctx.onProgress?.(report);
    }
  }

  async function records(entry: TarEntry): Promise<Record<string, unknown>[]> {
    const text = (await readEntryBody(entry, MAX_RECORD_PART_BYTES)).toString('utf8');
    return text
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => {
        const parsed = JSON.parse(line) as unknown;
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new ArchiveFormatError(`${entry.path}: a record is not an object`);
        return parsed as Record<string, unknown>;
      });
  }

  async function importFile(entry: TarEntry, oldContentId: string, version: number, archivedName: string): Promise<void> {
    const filename = sanitizeFilename(archivedName);
    const record = contentRecords.get(oldContentId);
    const target = newContentId.get(oldContentId);
    if (!record || (version > 1 && !target)) {
      report.content.skipped += 1;
      return;
    }
    // The file is stored the way an upload's is: the same limits, the same sniffing; a refusal leaves no object.
    const receive: ReceiveUpload = async (upload) => {
      try {
        const written = await writeStreamToObject(entry.body, {
          storage: upload.storage,
          bucket: upload.bucket,
          key: upload.key,
          maxBytes: upload.maxBytes,
          quotaBytes: upload.quotaRemaining,
          headBytes: SNIFF_BYTES,
          contentType: (head) => sniffMimeType(head, filename, null),
        });
        return { fields: { title: record.title ?? undefined, tags: record.tags, metadata: record.metadata }, file: { ...written, filename, declaredMimeType: null } };
      } catch (err) {
        await upload.storage.removeObject(upload.bucket, upload.key).catch(() => undefined);
        if (err instanceof UploadLimitError) {
          throw err.reason === 'size'
            ? new AppError('PAYLOAD_TOO_LARGE', `file larger than the upload limit of ${err.limit} bytes`)
            : storageQuotaExceeded(upload.quota, { bytes: err.limit, atLeast: true });
        }
        throw err;
      }
    };
    try {
      if (!target) {
        const created = (await services.content.upload(receive, org, actor)) as { id: string };
        newContentId.set(oldContentId, created.id);
        report.content.items += 1;
      } else {
        await services.content.uploadVersion(receive, org, actor, target);
      }
      report.content.versions += 1;
    } catch (err) {
      report.content.skipped += 1;
      problem(`content ${oldContentId} version ${version}: ${describe(err)}`);
      // A refusal before the file was read (quota) leaves its bytes in the archive: the reader skips them.
    }
  }

  for await (const entry of readTarGz(archive)) {
    entries += 1;
    if (entries > MAX_ENTRIES) throw new ArchiveFormatError(`more than ${MAX_ENTRIES} entries: not an organization archive`);
    if (first) {
      first = false;
      if (entry.path !== 'organization.json') throw new ArchiveFormatError('not an organization archive (it does not start with organization.json)');
      const document = JSON.parse((await readEntryBody(entry, MAX_RECORD_PART_BYTES)).toString('utf8')) as { id?: string; name?: string };
      report.source.organizationId = typeof document.id === 'string' ? document.id : null;
      report.source.name = typeof document.name === 'string' ? document.name : null;
      continue;
    }
    const part = PART_PATH.exec(entry.path)?.[1];
    // Workflows are created once their versions are all read (the parts that follow them are other collections).
    if (!workflowsDone && workflowRecords.length && part !== 'workflows' && part !== 'workflow-versions') await createWorkflows();
    const file = FILE_PATH.exec(entry.path);
    if (file) {
      await importFile(entry, file[1]!, Number(file[2]), file[3]!);
    } else if (part === 'members' || part === 'invitations') {
      for (const r of await records(entry)) {
        if (part === 'invitations' && r.status !== 'pending') continue;
        await invite(r.email, r.role);
      }
    } else if (part === 'secrets') {
      for (const r of await records(entry)) if (typeof r.name === 'string') report.secretsToSet.push(r.name);
    } else if (part === 'workflows') {
      for (const r of await records(entry)) {
        if (typeof r.id === 'string' && typeof r.name === 'string') {
          workflowRecords.push({ id: r.id, name: r.name, description: r.description as string | undefined, status: r.status as string | undefined, metadata: r.metadata as Record<string, unknown> | undefined });
        }
      }
    } else if (part === 'workflow-versions') {
      for (const r of await records(entry)) {
        if (typeof r.workflow_id !== 'string') continue;
        const list = workflowVersions.get(r.workflow_id) ?? [];
        list.push(typeof r.definition === 'string' ? JSON.parse(r.definition) : r.definition);
        workflowVersions.set(r.workflow_id, list);
      }
    } else if (part === 'content') {
      for (const r of await records(entry)) {
        if (typeof r.id === 'string') contentRecords.set(r.id, { title: (r.title as string | null) ?? null, tags: r.tags ?? [], metadata: r.metadata ?? {} });
      }
    } else if (part === 'embedding-models') {
      for (const r of await records(entry)) {
        try {
          await services.embeddingModels.register(org.organizationId, actor, { name: String(r.name), dimensions: Number(r.dimensions), provider: String(r.provider ?? 'custom') });
          report.embeddingModels += 1;
        } catch (err) {
          problem(`embedding model ${String(r.name)}: ${describe(err)}`);
        }
      }
    } else if (part === 'vectors') {
      for (const r of await records(entry)) {
        const target = newContentId.get(String(r.content_id));
        if (!target || !Array.isArray(r.vector)) continue;
        try {
          await services.search.putEmbedding(org, actor, target, { vector: r.vector as number[], model: String(r.model) });
          report.vectors += 1;
        } catch (err) {
          problem(`vector of content ${String(r.content_id)}: ${describe(err)}`);
        }
      }
    } else if (entry.path === 'manifest.json') {
      const manifest = JSON.parse((await readEntryBody(entry, MAX_RECORD_PART_BYTES)).toString('utf8')) as { format?: string; formatVersion?: number; exportedAt?: string };
      if (manifest.format !== EXPORT_FORMAT) problem(`the manifest names format ${String(manifest.format)}, not ${EXPORT_FORMAT}`);
      report.source.formatVersion = typeof manifest.formatVersion === 'number' ? manifest.formatVersion : null;
      report.source.exportedAt = typeof manifest.exportedAt === 'string' ? manifest.exportedAt : null;
    }
    // Everything else (runs, audit log, API keys, content-version records, workflow files, the object list) stays
    // in the archive: history and credentials are not recreated.
    ctx.onProgress?.(report);
  }
  if (!workflowsDone && workflowRecords.length) await createWorkflows();
  if (first) throw new ArchiveFormatError('the archive is empty');
  return report;
}

/** A stored definition in the API's create/update shape (the fields a save accepts, `error_handling` in snake case). */
function apiShape(stored: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const key of ['dag', 'tools', 'triggers', 'parameters'] as const) if (stored[key] !== undefined) body[key] = stored[key];
  if (stored.errorHandling !== undefined) body.error_handling = stored.errorHandling;
  return body;
}

function describe(err: unknown): string {
  if (err instanceof AppError) {
    const details = err.details?.slice(0, 3).map((d) => `${d.path}: ${d.problem}`).join('; ');
    return details ? `${err.code}: ${err.message} (${details})` : `${err.code}: ${err.message}`;
  }
  return (err as Error).message;
}
