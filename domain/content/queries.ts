import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import type { ProcessingStep } from '../../lib/contentSteps';
import { nestedAt, parseMetadataFilter, type MetadataCondition } from '../../lib/content/metadataFilter';
import type { ContentFilter } from './schemas';

/** All SQL of the content domain. Every function takes the organization id: tenant scoping is never optional. */

export type Queryable = Db | Knex.Transaction;

export interface ContentRow {
  id: string;
  organization_id: string;
  created_by: string | null;
  created_by_api_key_id: string | null;
  title: string | null;
  tags: string[];
  metadata: Record<string, unknown>;
  current_version: number;
  last_version: number;
  filename: string;
  mime_type: string;
  media_type: string;
  size_bytes: string | number;
  sha256: string;
  processing_status: string;
  embedding_model: string | null;
  embedding_dimensions: number | null;
  embedded_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface VersionRow {
  id: string;
  content_id: string;
  organization_id: string;
  version: number;
  object_key: string;
  filename: string;
  mime_type: string;
  declared_mime_type: string | null;
  media_type: string;
  size_bytes: string | number;
  sha256: string;
  extracted: Record<string, unknown>;
  derived: Record<string, DerivedFile>;
  created_by: string | null;
  created_at: Date;
}

export interface DerivedFile {
  key: string;
  mimeType: string;
  size: number;
  [extra: string]: unknown;
}

export interface JobRow {
  id: string;
  content_id: string;
  organization_id: string;
  version: number;
  workflow_id: string;
  status: string;
  trigger: string;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
}

export interface StepRow {
  job_id: string;
  name: string;
  position: number;
  state: string;
  attempts: number;
  error: string | null;
  output: unknown;
  started_at: Date | null;
  completed_at: Date | null;
}

export function getContent(db: Queryable, organizationId: string, id: string): Promise<ContentRow | undefined> {
  return db<ContentRow>('content').where({ organization_id: organizationId, id }).first();
}

export function getContentForUpdate(trx: Knex.Transaction, organizationId: string, id: string): Promise<ContentRow | undefined> {
  return trx<ContentRow>('content').where({ organization_id: organizationId, id }).forUpdate().first();
}

export function getVersion(db: Queryable, organizationId: string, contentId: string, version: number): Promise<VersionRow | undefined> {
  return db<VersionRow>('content_versions')
    .where({ organization_id: organizationId, content_id: contentId, version })
    .first();
}

export function listVersions(
  db: Queryable,
  organizationId: string,
  contentId: string,
  limit: number,
  beforeVersion: number | null,
): Promise<VersionRow[]> {
  const q = db<VersionRow>('content_versions')
    .where({ organization_id: organizationId, content_id: contentId })
    .orderBy('version', 'desc')
    .limit(limit + 1);
  if (beforeVersion !== null) q.where('version', '<', beforeVersion);
  return q;
}

/** Hands out the next version number of an existing content (a counter; gaps are harmless). */
export async function reserveVersion(db: Queryable, organizationId: string, id: string): Promise<number | null> {
  const [row] = await db('content')
    .where({ organization_id: organizationId, id })
    .increment('last_version', 1)
    .returning('last_version');
  return row ? Number(row.last_version) : null;
}

/** Serialises quota checks of one organization (uploads racing each other cannot both squeeze under the quota). */
export async function lockOrganizationStorage(trx: Knex.Transaction, organizationId: string): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 500))', [`content-storage:${organizationId}`]);
}

export async function storageUsed(db: Queryable, organizationId: string): Promise<number> {
  const row = await db('content_versions').where({ organization_id: organizationId }).sum({ total: 'size_bytes' }).first();
  return Number(row?.total ?? 0);
}

export async function insertContent(trx: Knex.Transaction, row: Partial<ContentRow>): Promise<void> {
  await trx('content').insert(row);
}

export async function insertVersion(trx: Knex.Transaction, row: Partial<VersionRow>): Promise<void> {
  await trx('content_versions').insert({
    ...row,
    extracted: JSON.stringify(row.extracted ?? {}),
    derived: JSON.stringify(row.derived ?? {}),
  });
}

export async function updateContent(
  db: Queryable,
  organizationId: string,
  id: string,
  changes: Record<string, unknown>,
): Promise<ContentRow | undefined> {
  const [row] = await db<ContentRow>('content')
    .where({ organization_id: organizationId, id })
    .update({ ...changes, updated_at: db.fn.now() })
    .returning('*');
  return row as ContentRow | undefined;
}

export async function deleteContent(trx: Knex.Transaction, organizationId: string, id: string): Promise<number> {
  return trx('content').where({ organization_id: organizationId, id }).delete();
}

export function contentExists(db: Queryable, organizationId: string, id: string): Promise<{ id: string } | undefined> {
  return db('content').where({ organization_id: organizationId, id }).first('id');
}

/** The processing status shown on the content, set only while `version` is still its current version. */
export async function setProcessingStatusOfVersion(
  db: Queryable,
  version: { organizationId: string; contentId: string; version: number },
  status: 'processing' | 'processed' | 'failed',
): Promise<void> {
  await db('content')
    .where({ organization_id: version.organizationId, id: version.contentId, current_version: version.version })
    .update({ processing_status: status });
}

/** The embedding the content's vectors were computed with (the embed step, once they are stored). */
export async function recordEmbedding(
  db: Queryable,
  organizationId: string,
  id: string,
  embedding: { model: string; dimensions: number },
): Promise<void> {
  await db('content')
    .where({ organization_id: organizationId, id })
    .update({ embedding_model: embedding.model, embedding_dimensions: embedding.dimensions, embedded_at: db.fn.now() });
}

// ---- versions: what processing derives

export interface VersionKey {
  organizationId: string;
  contentId: string;
  version: number;
}

const versionWhere = (v: VersionKey) => ({ organization_id: v.organizationId, content_id: v.contentId, version: v.version });

export function versionExists(db: Queryable, v: VersionKey): Promise<{ id: string } | undefined> {
  return db('content_versions').where(versionWhere(v)).first('id');
}

/**
 * Records one derived file on the version under `name`; false when the version is gone (content deleted).
 * jsonb_set keeps concurrent writers of other derived files intact.
 */
export async function setDerivedFile(db: Queryable, v: VersionKey, name: string, file: DerivedFile): Promise<boolean> {
  const updated = await db('content_versions')
    .where(versionWhere(v))
    .update({ derived: db.raw(`jsonb_set(derived, ?, ?::jsonb)`, [`{${name}}`, JSON.stringify(file)]) });
  return updated > 0;
}

/** Merges extracted metadata into the version's (keys of `values` win). */
export async function mergeVersionExtracted(db: Queryable, v: VersionKey, values: Record<string, unknown>): Promise<void> {
  await db('content_versions')
    .where(versionWhere(v))
    .update({ extracted: db.raw('extracted || ?::jsonb', [JSON.stringify(values)]) });
}

// ---- processing jobs

export async function createJob(
  trx: Knex.Transaction,
  job: { id: string; contentId: string; organizationId: string; version: number; workflowId: string; trigger: string },
  steps: ProcessingStep[],
): Promise<void> {
  await trx('content_processing_jobs').insert({
    id: job.id,
    content_id: job.contentId,
    organization_id: job.organizationId,
    version: job.version,
    workflow_id: job.workflowId,
    trigger: job.trigger,
  });
  await trx('content_processing_steps').insert(steps.map((name, position) => ({ job_id: job.id, name, position })));
}

export function getJob(db: Queryable, organizationId: string, contentId: string, jobId?: string): Promise<JobRow | undefined> {
  const q = db<JobRow>('content_processing_jobs').where({ organization_id: organizationId, content_id: contentId });
  if (jobId) q.where({ id: jobId });
  return q.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).first();
}

export function jobSteps(db: Queryable, jobId: string): Promise<StepRow[]> {
  return db<StepRow>('content_processing_steps').where({ job_id: jobId }).orderBy('position');
}

export function activeJobs(db: Queryable, organizationId: string, contentId: string): Promise<JobRow[]> {
  return db<JobRow>('content_processing_jobs')
    .where({ organization_id: organizationId, content_id: contentId })
    .whereIn('status', ['pending', 'running']);
}

/** Marks the job running; its content and version, or undefined when the job is gone. */
export async function markJobRunning(db: Queryable, jobId: string): Promise<VersionKey | undefined> {
  const [job] = (await db('content_processing_jobs')
    .where({ id: jobId })
    .update({ status: 'running', started_at: db.fn.now() })
    .returning(['organization_id', 'content_id', 'version'])) as Pick<JobRow, 'organization_id' | 'content_id' | 'version'>[];
  return job ? { organizationId: job.organization_id, contentId: job.content_id, version: job.version } : undefined;
}

export function getJobById(db: Queryable, jobId: string): Promise<JobRow | undefined> {
  return db<JobRow>('content_processing_jobs').where({ id: jobId }).first();
}

export async function finishJob(db: Queryable, jobId: string, status: 'succeeded' | 'failed'): Promise<void> {
  await db('content_processing_jobs').where({ id: jobId }).update({ status, completed_at: db.fn.now() });
}

const stepRow = (db: Queryable, jobId: string, name: string) => db('content_processing_steps').where({ job_id: jobId, name });

/** A step's attempt begins: running, its attempt number, no completion time (a retry runs again). */
export async function startStepAttempt(db: Queryable, jobId: string, name: string, attempt: number): Promise<void> {
  await stepRow(db, jobId, name).update({ state: 'running', attempts: attempt, started_at: db.fn.now(), completed_at: null });
}

/** A failed attempt that will be retried: the error shows at /status meanwhile. */
export async function markStepRetrying(db: Queryable, jobId: string, name: string, error: string): Promise<void> {
  await stepRow(db, jobId, name).update({ state: 'retrying', error });
}

/** A step's final state; `output` (JSON text) only when the step produced one. */
export async function finishStep(
  db: Queryable,
  jobId: string,
  name: string,
  outcome: { state: 'succeeded' | 'failed' | 'skipped'; error: string | null; output?: string },
): Promise<void> {
  await stepRow(db, jobId, name).update({
    state: outcome.state,
    error: outcome.error,
    ...(outcome.output !== undefined ? { output: outcome.output } : {}),
    completed_at: db.fn.now(),
  });
}

export async function markJobFailedToStart(db: Queryable, jobId: string, error: string): Promise<void> {
  await db('content_processing_jobs').where({ id: jobId }).update({ status: 'failed', completed_at: db.fn.now() });
  await db('content_processing_steps')
    .where({ job_id: jobId })
    .update({ state: 'failed', error, completed_at: db.fn.now() });
}

// ---- filters, query and search candidates

const SORT_COLUMNS = { createdAt: 'created_at', updatedAt: 'updated_at', size: 'size_bytes', title: 'title_sort' } as const;

/** One metadata condition as SQL over `metadata` (every value bound; the path as text[]). */
function applyMetadataCondition(q: Knex.QueryBuilder, c: MetadataCondition): void {
  const field = 'metadata #> ?::text[]';
  switch (c.kind) {
    case 'contains':
      q.whereRaw('metadata @> ?::jsonb', [JSON.stringify(nestedAt(c.path, c.value))]);
      return;
    case 'compare':
      q.whereRaw(`(${field}) ${c.op === '$eq' ? 'IS NOT DISTINCT FROM' : 'IS DISTINCT FROM'} ?::jsonb`, [c.path, JSON.stringify(c.value)]);
      return;
    case 'order': {
      const sign = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[c.op];
      // CASE keeps the cast from running on a value of another type (a string that is not a number).
      if (typeof c.value === 'number') {
        q.whereRaw(`CASE WHEN jsonb_typeof(${field}) = 'number' THEN (metadata #>> ?::text[])::numeric ${sign} ? ELSE false END`, [c.path, c.path, c.value]);
      } else {
        q.whereRaw(`CASE WHEN jsonb_typeof(${field}) = 'string' THEN (metadata #>> ?::text[]) COLLATE "C" ${sign} ? COLLATE "C" ELSE false END`, [c.path, c.path, c.value]);
      }
      return;
    }
    case 'member':
      if (c.op === '$in') q.whereRaw(`(${field}) IN (SELECT jsonb_array_elements(?::jsonb))`, [c.path, JSON.stringify(c.values)]);
      else q.whereRaw(`((${field}) IS NULL OR (${field}) NOT IN (SELECT jsonb_array_elements(?::jsonb)))`, [c.path, c.path, JSON.stringify(c.values)]);
      return;
    case 'exists':
      q.whereRaw(`(${field}) IS ${c.exists ? 'NOT ' : ''}NULL`, [c.path]);
      return;
  }
}

export function applyFilter(q: Knex.QueryBuilder, filter: ContentFilter | undefined): Knex.QueryBuilder {
  if (!filter) return q;
  if (filter.type !== undefined) {
    const types = Array.isArray(filter.type) ? filter.type : [filter.type];
    q.where((w) => {
      for (const type of types) {
        if (type.endsWith('/*')) w.orWhere('mime_type', 'like', `${type.slice(0, -1).replace(/[%_\\]/g, '\\$&')}%`);
        else if (type.includes('/')) w.orWhere('mime_type', type);
        else w.orWhere('media_type', type);
      }
    });
  }
  if (filter.tags?.length) q.whereRaw('tags @> ?::text[]', [filter.tags]);
  if (filter.tagsAny?.length) q.whereRaw('tags && ?::text[]', [filter.tagsAny]);
  if (filter.metadata) for (const condition of parseMetadataFilter(filter.metadata).conditions) applyMetadataCondition(q, condition);
  if (filter.createdAt?.gte) q.where('created_at', '>=', filter.createdAt.gte);
  if (filter.createdAt?.lte) q.where('created_at', '<=', filter.createdAt.lte);
  if (filter.updatedAt?.gte) q.where('updated_at', '>=', filter.updatedAt.gte);
  if (filter.updatedAt?.lte) q.where('updated_at', '<=', filter.updatedAt.lte);
  if (filter.size?.gte !== undefined) q.where('size_bytes', '>=', filter.size.gte);
  if (filter.size?.lte !== undefined) q.where('size_bytes', '<=', filter.size.lte);
  if (filter.status) q.whereIn('processing_status', filter.status);
  if (filter.titleContains) {
    q.whereRaw("title ILIKE ? ESCAPE '\\'", [`%${filter.titleContains.replace(/[%_\\]/g, '\\$&')}%`]);
  }
  if (filter.ids) q.whereIn('id', filter.ids);
  return q;
}

export interface QueryPosition {
  sort: string;
  id: string;
}

export function queryContent(
  db: Queryable,
  organizationId: string,
  options: {
    filter?: ContentFilter;
    sortField: keyof typeof SORT_COLUMNS;
    direction: 'asc' | 'desc';
    limit: number;
    after: QueryPosition | null;
  },
): Promise<(ContentRow & { sort_value: unknown })[]> {
  const column = SORT_COLUMNS[options.sortField];
  const sortExpr = column === 'title_sort' ? "coalesce(title, '')" : column;
  const q = db('content')
    .select('*', db.raw(`${sortExpr} AS sort_value`))
    .where({ organization_id: organizationId });
  applyFilter(q, options.filter);
  if (options.after) {
    const op = options.direction === 'desc' ? '<' : '>';
    const cast = column === 'size_bytes' ? '::bigint' : column === 'title_sort' ? '::text' : '::timestamptz';
    q.whereRaw(`(${sortExpr}, id) ${op} (?${cast}, ?::uuid)`, [options.after.sort, options.after.id]);
  }
  return q
    .orderByRaw(`${sortExpr} ${options.direction}, id ${options.direction}`)
    .limit(options.limit + 1) as unknown as Promise<(ContentRow & { sort_value: unknown })[]>;
}

export function contentByIds(db: Queryable, organizationId: string, ids: string[], filter?: ContentFilter): Promise<ContentRow[]> {
  if (!ids.length) return Promise.resolve([]);
  const q = db<ContentRow>('content').where({ organization_id: organizationId }).whereIn('id', ids);
  applyFilter(q, filter);
  return q as unknown as Promise<ContentRow[]>;
}

/** Ids of the contents matching a filter, up to `cap` (more than that and the caller post-filters instead). */
export async function filterCandidates(db: Queryable, organizationId: string, filter: ContentFilter, cap: number): Promise<string[]> {
  const q = db('content').select('id').where({ organization_id: organizationId }).limit(cap + 1);
  applyFilter(q, filter);
  return (await q).map((r: { id: string }) => r.id);
}

/** A custom embedding model of one organization (migration 1030). */
export interface EmbeddingModelRow {
  id: string;
  organization_id: string;
  name: string;
  dimensions: number;
  provider: string;
  created_by: string | null;
  created_by_api_key_id: string | null;
  created_at: Date;
}

export function listEmbeddingModels(db: Queryable, organizationId: string): Promise<EmbeddingModelRow[]> {
  return db<EmbeddingModelRow>('embedding_models').where({ organization_id: organizationId }).orderBy('name');
}

/**
 * Serialises the registrations of one organization's models until the transaction ends, so that a count against
 * the limit and the insert after it cannot interleave with another request's (parallel registrations past the limit).
 */
export async function lockEmbeddingModels(trx: Knex.Transaction, organizationId: string): Promise<void> {
  await trx.raw(`SELECT pg_advisory_xact_lock(hashtext('embedding_models:' || ?))`, [organizationId]);
}

export function countEmbeddingModels(db: Queryable, organizationId: string): Promise<number> {
  return db('embedding_models')
    .where({ organization_id: organizationId })
    .count({ n: '*' })
    .first()
    .then((r) => Number(r?.n ?? 0));
}

export function getEmbeddingModel(db: Queryable, organizationId: string, name: string): Promise<EmbeddingModelRow | undefined> {
  return db<EmbeddingModelRow>('embedding_models').where({ organization_id: organizationId, name }).first();
}

/** Inserts the model unless the organization already has one of that name; returns the stored row either way. */
export async function insertEmbeddingModelIfAbsent(
  db: Queryable,
  row: Pick<EmbeddingModelRow, 'organization_id' | 'name' | 'dimensions' | 'provider' | 'created_by' | 'created_by_api_key_id'>,
): Promise<{ row: EmbeddingModelRow; created: boolean }> {
  const inserted = (await db('embedding_models').insert(row).onConflict(['organization_id', 'name']).ignore().returning('*')) as EmbeddingModelRow[];
  if (inserted[0]) return { row: inserted[0], created: true };
  return { row: (await getEmbeddingModel(db, row.organization_id, row.name))!, created: false };
}

export async function deleteEmbeddingModel(db: Queryable, organizationId: string, name: string): Promise<boolean> {
  return (await db('embedding_models').where({ organization_id: organizationId, name }).del()) > 0;
}

export async function contentUsingModel(db: Queryable, organizationId: string, model: string): Promise<number> {
  const row = await db('content').where({ organization_id: organizationId, embedding_model: model }).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

export interface HeldModel {
  model: string;
  dimensions: number;
}

/**
 * The embedding models that hold this organization's content vectors, at most `limit`: a recursive skip scan of
 * content_organization_embedding_model (one index probe per model, not a scan of the organization's content).
 */
export async function embeddingModelsHeld(db: Queryable, organizationId: string, limit: number): Promise<HeldModel[]> {
  const { rows } = await db.raw<{ rows: { model: string; dimensions: number }[] }>(
    `WITH RECURSIVE held AS (
       (SELECT embedding_model AS model, embedding_dimensions AS dimensions FROM content
         WHERE organization_id = :org AND embedding_model IS NOT NULL
         ORDER BY embedding_model, embedding_dimensions LIMIT 1)
       UNION ALL
       SELECT next.model, next.dimensions FROM held, LATERAL (
         SELECT embedding_model AS model, embedding_dimensions AS dimensions FROM content
          WHERE organization_id = :org AND embedding_model IS NOT NULL
            AND (embedding_model, embedding_dimensions) > (held.model, held.dimensions)
          ORDER BY embedding_model, embedding_dimensions LIMIT 1) next
     )
     SELECT model, dimensions FROM held WHERE dimensions IS NOT NULL LIMIT :limit`,
    { org: organizationId, limit },
  );
  return rows.map((r) => ({ model: r.model, dimensions: Number(r.dimensions) }));
}
