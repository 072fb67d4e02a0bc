import type { Db } from '../../db/knex';
import type { CursorPosition } from '../../lib/pagination';

export interface AuditRow {
  id: string;
  organization_id: string;
  actor_type: string;
  actor_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  changes: unknown;
  ip: string | null;
  user_agent: string | null;
  created_at: Date;
  /** created_at as PostgreSQL text: keeps the microseconds a JS Date would lose, for exact keyset cursors. */
  sort_key: string;
}

export interface AuditFilter {
  action?: string;
  actor?: string;
  from?: Date;
  to?: Date;
}

/** Newest first, keyset on (created_at, id). */
export async function listAuditLogs(
  db: Db,
  organizationId: string,
  filter: AuditFilter,
  limit: number,
  after: CursorPosition | null,
): Promise<AuditRow[]> {
  const q = db('audit_logs')
    .select('*', db.raw('created_at::text AS sort_key'))
    .where({ organization_id: organizationId });
  if (filter.action) {
    // `member.*` selects a family of actions.
    if (filter.action.endsWith('.*')) q.where('action', 'like', `${filter.action.slice(0, -1).replace(/[%_\\]/g, '\\$&')}%`);
    else q.where({ action: filter.action });
  }
  if (filter.actor) q.where({ actor_id: filter.actor });
  if (filter.from) q.where('created_at', '>=', filter.from);
  if (filter.to) q.where('created_at', '<', filter.to);
  if (after) q.whereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [after.sort, after.id]);
  return q.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit + 1);
}

/** Deletes entries older than each organization's retention (security.auditLogRetentionDays, default 365). */
export async function purgeExpiredAuditLogs(db: Db, defaultRetentionDays: number): Promise<number> {
  const result = await db.raw(
    `DELETE FROM audit_logs a USING organizations o
      WHERE a.organization_id = o.id
        AND a.created_at < now() - make_interval(days => COALESCE((o.settings->'security'->>'auditLogRetentionDays')::int, ?))`,
    [defaultRetentionDays],
  );
  return (result as { rowCount: number }).rowCount;
}
