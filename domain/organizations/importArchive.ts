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
import { embeddingBody, registerEmbeddingModelBody } from '../content/schemas';
import { EXPORT_FORMAT } from './exportArchive';
import { inviteBody } from './schemas';

/** A JSON Lines part or a JSON document larger than this is refused (the writer cuts parts at ~4 MiB). */
const MAX_RECORD_PART_BYTES = 32 * 1024 * 1024;
/** Entries an archive may hold: more is not an export of ours. */
const MAX_ENTRIES = 2_000_000;
/**
 * Records held until they can be used (workflows until their versions are read, content until its files come,
 * caller-supplied vectors until processing is done): their parts' bytes together, at most.
 */
const MAX_HELD_RECORD_BYTES = 256 * 1024 * 1024;
/** How long the import waits for the processing of its content before it stores the caller-supplied vectors. */
const PROCESSING_WAIT_MS = 15 * 60_000;
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
  /** Whether the content's processing (started by its upload) has ended, so a vector stored now stays. */
  processingEnded(organizationId: string, contentId: string): Promise<boolean>;
}

export interface ImportContext {
  org: OrganizationContext;
  actor: Actor;
  /** The importing person's address: they are a member already, not invited. */
  importerEmail: string;
  /** The largest archive, compressed: what it may decompress to is bounded by a multiple of it. */
  maxArchiveBytes: number;
  /** Called often (every record, every chunk read): the activity heartbeats and checks for cancellation here. */
  tick?: () => void;
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
  let first = true;
  let workflowsDone = false;
  let heldBytes = 0;
  const pendingVectors: { contentId: string; oldContentId: string; vector: unknown; model: unknown }[] = [];
  const tick = () => ctx.tick?.();
  const hold = (entry: TarEntry) => {
    heldBytes += entry.size;
    if (heldBytes > MAX_HELD_RECORD_BYTES) throw new ArchiveFormatError(`its workflow, content and vector records exceed ${MAX_HELD_RECORD_BYTES} bytes`);
  };

  async function invite(email: unknown, role: unknown): Promise<void> {
    tick();
    // The route's own schema: one address, of at most 255 characters.
    const parsed = inviteBody.safeParse({ email, role: INVITABLE.includes(role as Role) ? role : 'admin' });
    if (!parsed.success) {
      report.invitations.skipped += 1;
      problem(`invitation of ${String(email).slice(0, 100)}: not a valid address`);
      return;
    }
    if (invited.has(parsed.data.email.toLowerCase())) return void (report.invitations.skipped += 1);
    invited.add(parsed.data.email.toLowerCase());
    try {
      await services.invite(org, actor, parsed.data);
      report.invitations.sent += 1;
    } catch (err) {
      report.invitations.skipped += 1;
      problem(`invitation of ${parsed.data.email}: ${describe(err)}`);
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
        tick();
        try {
          const created = await services.workflows.create(org.organizationId, workflowActor, {
            ...remap(versions[0]),
            name: w.name,
            ...(w.description ? { description: w.description } : {}),
            ...(w.metadata && Object.keys(w.metadata).length ? { metadata: w.metadata } : {}),
          });
          newIds.set(w.id, created.id);
          for (const definition of versions.slice(1)) {
            tick();
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

  const limits = { maxEntries: MAX_ENTRIES, maxTotalBytes: ctx.maxArchiveBytes * 8, onBytes: tick };
  for await (const entry of readTarGz(archive, limits)) {
    tick();
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
        tick();
        await invite(r.email, r.role);
      }
    } else if (part === 'secrets') {
      for (const r of await records(entry)) if (typeof r.name === 'string') report.secretsToSet.push(r.name);
    } else if (part === 'workflows') {
      hold(entry);
      for (const r of await records(entry)) {
        if (typeof r.id === 'string' && typeof r.name === 'string') {
          workflowRecords.push({ id: r.id, name: r.name, description: r.description as string | undefined, status: r.status as string | undefined, metadata: r.metadata as Record<string, unknown> | undefined });
        }
      }
    } else if (part === 'workflow-versions') {
      hold(entry);
      for (const r of await records(entry)) {
        if (typeof r.workflow_id !== 'string') continue;
        const list = workflowVersions.get(r.workflow_id) ?? [];
        list.push(typeof r.definition === 'string' ? JSON.parse(r.definition) : r.definition);
        workflowVersions.set(r.workflow_id, list);
      }
    } else if (part === 'content') {
      hold(entry);
      for (const r of await records(entry)) {
        if (typeof r.id === 'string') contentRecords.set(r.id, { title: (r.title as string | null) ?? null, tags: r.tags ?? [], metadata: r.metadata ?? {} });
      }
    } else if (part === 'embedding-models') {
      for (const r of await records(entry)) {
        tick();
        // The route's own schema: a model name, a dimension of 1 to 8192, a label.
        const parsed = registerEmbeddingModelBody.safeParse({ name: r.name, dimensions: r.dimensions, ...(r.provider === undefined ? {} : { provider: r.provider }) });
        if (!parsed.success) {
          problem(`embedding model ${String(r.name).slice(0, 100)}: not a valid name, dimension or label`);
          continue;
        }
        try {
          await services.embeddingModels.register(org.organizationId, actor, parsed.data);
          report.embeddingModels += 1;
        } catch (err) {
          problem(`embedding model ${parsed.data.name}: ${describe(err)}`);
        }
      }
    } else if (part === 'vectors') {
      // Stored once the content's processing has ended: its embed step would otherwise replace them.
      hold(entry);
      for (const r of await records(entry)) {
        const target = newContentId.get(String(r.content_id));
        if (target) pendingVectors.push({ contentId: target, oldContentId: String(r.content_id), vector: r.vector, model: r.model });
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
  await storeVectors();
  return report;

  async function storeVectors(): Promise<void> {
    const deadline = Date.now() + PROCESSING_WAIT_MS;
    for (const pending of pendingVectors) {
      // The route's own schema: finite numbers, at most 8192 of them, a model name.
      const parsed = embeddingBody.safeParse({ vector: pending.vector, model: pending.model });
      if (!parsed.success) {
        problem(`vector of content ${pending.oldContentId}: not a valid vector`);
        continue;
      }
      while (!(await services.processingEnded(org.organizationId, pending.contentId)) && Date.now() < deadline) {
        tick();
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      tick();
      try {
        await services.search.putEmbedding(org, actor, pending.contentId, parsed.data);
        report.vectors += 1;
      } catch (err) {
        problem(`vector of content ${pending.oldContentId}: ${describe(err)}`);
      }
    }
  }
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
