import type { Db } from '../../db/knex';
import type { ContentRow, VersionRow } from '../content/queries';
import type { RunRow } from '../runs/queries';
import type { WorkflowRow, WorkflowVersionRow } from '../workflows/queries';

/**
 * Read-only SQL of the deletion export (exportArchive.ts): one keyset page at a time of every table the archive
 * holds, so an organization of any size is read with bounded memory. Nothing here writes; each table keeps its one
 * writer in its own domain. Columns that must never leave the database are not selected: invitation token hashes,
 * API key hashes, sealed secret values.
 */

export const EXPORT_PAGE_ROWS = 500;

/** Position after the last row of a page ordered by (created_at, id): the timestamp as PostgreSQL text keeps its microseconds. */
export interface TimeKey {
  sort: string;
  id: string;
}

export async function exportMembersPage(db: Db, organizationId: string, afterUserId: string | null) {
  const q = db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.organization_id', organizationId)
    .select('m.user_id', 'u.email', 'u.name', 'm.role', 'm.created_at', 'm.updated_at');
  if (afterUserId) q.where('m.user_id', '>', afterUserId);
  return q.orderBy('m.user_id').limit(EXPORT_PAGE_ROWS) as Promise<{ user_id: string; [column: string]: unknown }[]>;
}

export async function exportInvitationsPage(db: Db, organizationId: string, afterId: string | null) {
  const q = db('invitations')
    .where({ organization_id: organizationId })
    .select('id', 'email', 'role', 'status', 'invited_by', 'accepted_by', 'expires_at', 'created_at', 'updated_at');
  if (afterId) q.where('id', '>', afterId);
  return q.orderBy('id').limit(EXPORT_PAGE_ROWS) as Promise<{ id: string; [column: string]: unknown }[]>;
}

export async function exportApiKeysPage(db: Db, organizationId: string, afterId: string | null) {
  const q = db('api_keys')
    .where({ organization_id: organizationId })
    .select('id', 'name', 'role', 'prefix', 'created_by', 'expires_at', 'last_used_at', 'revoked_at', 'created_at');
  if (afterId) q.where('id', '>', afterId);
  return q.orderBy('id').limit(EXPORT_PAGE_ROWS) as Promise<{ id: string; [column: string]: unknown }[]>;
}

/** Names of the organization's secrets only: neither the sealed value nor its last characters. */
export async function exportSecretNamesPage(db: Db, organizationId: string, afterId: string | null) {
  const q = db('organization_secrets')
    .where({ organization_id: organizationId })
    .select('id', 'name', 'created_by', 'updated_by', 'created_at', 'updated_at');
  if (afterId) q.where('id', '>', afterId);
  return q.orderBy('id').limit(EXPORT_PAGE_ROWS) as Promise<{ id: string; [column: string]: unknown }[]>;
}

export async function exportAuditPage(db: Db, organizationId: string, after: TimeKey | null) {
  const q = db('audit_logs').where({ organization_id: organizationId }).select('*', db.raw('created_at::text AS sort_key'));
  if (after) q.whereRaw('(created_at, id) > (?::timestamptz, ?::uuid)', [after.sort, after.id]);
  return q.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(EXPORT_PAGE_ROWS) as Promise<
    { id: string; sort_key: string; [column: string]: unknown }[]
  >;
}

export async function exportWorkflowsPage(db: Db, organizationId: string, afterId: string | null): Promise<WorkflowRow[]> {
  const q = db<WorkflowRow>('workflows').where({ organization_id: organizationId }).select('*');
  if (afterId) q.where('id', '>', afterId);
  return q.orderBy('id').limit(EXPORT_PAGE_ROWS);
}

export async function exportWorkflowVersionsPage(
  db: Db,
  organizationId: string,
  after: { workflowId: string; version: number } | null,
): Promise<WorkflowVersionRow[]> {
  const q = db<WorkflowVersionRow>('workflow_versions').where({ organization_id: organizationId }).select('*');
  if (after) q.whereRaw('(workflow_id, version) > (?::uuid, ?)', [after.workflowId, after.version]);
  return q.orderBy([{ column: 'workflow_id' }, { column: 'version' }]).limit(EXPORT_PAGE_ROWS);
}

export async function exportRunsPage(db: Db, organizationId: string, after: TimeKey | null): Promise<(RunRow & { sort_key: string })[]> {
  const q = db('workflow_runs').where({ organization_id: organizationId }).select('*', db.raw('created_at::text AS sort_key'));
  if (after) q.whereRaw('(created_at, id) > (?::timestamptz, ?::uuid)', [after.sort, after.id]);
  return q.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(EXPORT_PAGE_ROWS);
}

export async function exportContentPage(db: Db, organizationId: string, afterId: string | null): Promise<ContentRow[]> {
  const q = db<ContentRow>('content').where({ organization_id: organizationId }).select('*');
  if (afterId) q.where('id', '>', afterId);
  return q.orderBy('id').limit(EXPORT_PAGE_ROWS);
}

/** Versions in (content, version) order; smaller pages, since each one's bytes are copied before the next page. */
export async function exportContentVersionsPage(
  db: Db,
  organizationId: string,
  after: { contentId: string; version: number } | null,
): Promise<VersionRow[]> {
  const q = db<VersionRow>('content_versions').where({ organization_id: organizationId }).select('*');
  if (after) q.whereRaw('(content_id, version) > (?::uuid, ?)', [after.contentId, after.version]);
  return q.orderBy([{ column: 'content_id' }, { column: 'version' }]).limit(100);
}

/** The organization's registered custom embedding models (names, dimensions, provider labels). */
export async function exportEmbeddingModelsPage(db: Db, organizationId: string, afterName: string | null) {
  const q = db('embedding_models').where({ organization_id: organizationId }).select('name', 'dimensions', 'provider', 'created_at');
  if (afterName) q.where('name', '>', afterName);
  return q.orderBy('name').limit(EXPORT_PAGE_ROWS) as Promise<{ name: string; [column: string]: unknown }[]>;
}

/** Content whose vectors are of a registered custom model: where caller-supplied vectors can be. */
export async function exportCustomModelContentPage(db: Db, organizationId: string, afterId: string | null): Promise<{ id: string }[]> {
  const q = db('content as c')
    .where('c.organization_id', organizationId)
    .whereExists(db('embedding_models as m').where('m.organization_id', organizationId).whereRaw('m.name = c.embedding_model'))
    .select('c.id');
  if (afterId) q.where('c.id', '>', afterId);
  return q.orderBy('c.id').limit(EXPORT_PAGE_ROWS);
}
