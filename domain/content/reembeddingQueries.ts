import type { Queryable } from './queries';

/** The only writer of content_reembeddings (migration 1240). */
export interface ReembeddingRow {
  id: string;
  organization_id: string;
  target_model: string;
  target_dimensions: number;
  from_model: string | null;
  status: 'running' | 'succeeded' | 'failed' | 'cancelled';
  total: number;
  done: number;
  skipped: number;
  failed: number;
  last_error: string | null;
  cursor: string | null;
  workflow_id: string;
  created_by: string | null;
  created_by_api_key_id: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

export interface Selection {
  targetModel: string;
  targetDimensions: number;
  /** Only content of this model; null: every model but the target and the organization's registered custom models. */
  fromModel: string | null;
}

/**
 * The content a re-embedding covers: content with vectors of another model than the target. Without a named
 * model, caller-supplied vectors of registered custom models are left alone (re-embedding would replace them).
 */
function selected(db: Queryable, organizationId: string, selection: Selection) {
  const query = db('content')
    .where('content.organization_id', organizationId)
    .whereNotNull('content.embedding_model')
    .whereRaw('(content.embedding_model, content.embedding_dimensions) IS DISTINCT FROM (?, ?)', [selection.targetModel, selection.targetDimensions]);
  if (selection.fromModel !== null) return query.where('content.embedding_model', selection.fromModel);
  return query.whereNotExists(
    db('embedding_models').where('embedding_models.organization_id', organizationId).whereRaw('embedding_models.name = content.embedding_model'),
  );
}

export async function countSelected(db: Queryable, organizationId: string, selection: Selection): Promise<number> {
  const row = await selected(db, organizationId, selection).count({ n: '*' }).first();
  return Number(row?.n ?? 0);
}

/** The next contents to re-embed after `cursor`, in id order (a retried batch resumes where the last one ended). */
export async function nextSelected(
  db: Queryable,
  organizationId: string,
  selection: Selection,
  cursor: string | null,
  limit: number,
): Promise<{ id: string; current_version: number }[]> {
  const query = selected(db, organizationId, selection).orderBy('content.id').limit(limit).select('content.id', 'content.current_version');
  return cursor === null ? query : query.where('content.id', '>', cursor);
}

/** Serialises starts of one organization (the caller's transaction): the check for a running one, then the insert. */
export async function lockReembeddings(db: Queryable, organizationId: string): Promise<void> {
  await db.raw("SELECT pg_advisory_xact_lock(hashtext('content_reembeddings:' || ?))", [organizationId]);
}

export async function insertReembedding(
  db: Queryable,
  row: Omit<ReembeddingRow, 'done' | 'skipped' | 'failed' | 'last_error' | 'cursor' | 'created_at' | 'updated_at' | 'finished_at' | 'status'>,
): Promise<ReembeddingRow> {
  const [inserted] = (await db('content_reembeddings').insert({ ...row, status: 'running' }).returning('*')) as ReembeddingRow[];
  return inserted!;
}

export function getReembedding(db: Queryable, organizationId: string, id: string): Promise<ReembeddingRow | undefined> {
  return db('content_reembeddings').where({ organization_id: organizationId, id }).first();
}

export function runningReembedding(db: Queryable, organizationId: string): Promise<ReembeddingRow | undefined> {
  return db('content_reembeddings').where({ organization_id: organizationId, status: 'running' }).first();
}

export function listReembeddings(db: Queryable, organizationId: string, limit: number, after: { createdAt: string; id: string } | null): Promise<ReembeddingRow[]> {
  const query = db('content_reembeddings').where({ organization_id: organizationId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit);
  return after ? query.whereRaw('(created_at, id) < (?, ?)', [after.createdAt, after.id]) : query;
}

/** One batch's progress, only while the operation still runs (a cancel in between wins). */
export async function recordBatch(
  db: Queryable,
  id: string,
  batch: { cursor: string; done: number; skipped: number; failed: number; lastError: string | null },
): Promise<boolean> {
  const updated = await db('content_reembeddings')
    .where({ id, status: 'running' })
    .update({
      cursor: batch.cursor,
      done: db.raw('done + ?', [batch.done]),
      skipped: db.raw('skipped + ?', [batch.skipped]),
      failed: db.raw('failed + ?', [batch.failed]),
      last_error: batch.lastError === null ? db.raw('last_error') : batch.lastError,
      updated_at: db.fn.now(),
    });
  return updated > 0;
}

/** Ends a running operation; false when it had already ended (cancelled, or finished by another attempt). */
export async function finishReembedding(db: Queryable, id: string, status: 'succeeded' | 'failed' | 'cancelled', lastError?: string): Promise<ReembeddingRow | null> {
  const [row] = (await db('content_reembeddings')
    .where({ id, status: 'running' })
    .update({ status, finished_at: db.fn.now(), updated_at: db.fn.now(), ...(lastError ? { last_error: lastError } : {}) })
    .returning('*')) as ReembeddingRow[];
  return row ?? null;
}
