import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import { queryNamed } from '../../db/namedStatement';
import type { CursorPosition } from '../../lib/pagination';

export interface AuditRow {
  id: string;
  /** Null for account events (login, password, sessions). */
  organization_id: string | null;
  /** The account an account event concerns. */
  user_id: string | null;
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

/** One entry as stored: `changes` already masked and diffed (domain/audit/record.ts builds it). */
export interface NewAuditLog {
  organization_id: string | null;
  user_id: string | null;
  actor_type: string;
  actor_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  /** JSON text, or null when the entry records no change. */
  changes: string | null;
  ip: string | null;
  user_agent: string | null;
}

/**
 * Pass the transaction of the change the entry records, so both commit together. A named statement
 * (db/namedStatement.ts): every run start and every login writes one.
 */
export async function insertAuditLog(db: Knex | Knex.Transaction, row: NewAuditLog): Promise<void> {
  await queryNamed(db, 'audit_log_insert', INSERT_AUDIT_LOG, [
    row.organization_id,
    row.user_id,
    row.actor_type,
    row.actor_id,
    row.action,
    row.target_type,
    row.target_id,
    row.changes,
    row.ip,
    row.user_agent,
  ]);
}

const INSERT_AUDIT_LOG = `
  INSERT INTO audit_logs (organization_id, user_id, actor_type, actor_id, action, target_type, target_id, changes, ip, user_agent)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;

export interface AuditFilter {
  action?: string;
  actor?: string;
  from?: Date;
  to?: Date;
}

/** An exact action, or a family such as `member.*`. */
function whereAction(q: Knex.QueryBuilder, action: string): void {
  if (action.endsWith('.*')) q.where('action', 'like', `${action.slice(0, -1).replace(/[%_\\]/g, '\\$&')}%`);
  else q.where({ action });
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
  if (filter.action) whereAction(q, filter.action);
  if (filter.actor) q.where({ actor_id: filter.actor });
  if (filter.from) q.where('created_at', '>=', filter.from);
  if (filter.to) q.where('created_at', '<', filter.to);
  if (after) q.whereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [after.sort, after.id]);
  return q.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit + 1);
}

/** The account events of one user (no organization), newest first, keyset on (created_at, id). */
export async function listAccountEvents(
  db: Db,
  userId: string,
  filter: Pick<AuditFilter, 'action'>,
  limit: number,
  after: CursorPosition | null,
): Promise<AuditRow[]> {
  const q = db('audit_logs')
    .select('*', db.raw('created_at::text AS sort_key'))
    .where({ user_id: userId })
    .whereNull('organization_id');
  if (filter.action) whereAction(q, filter.action);
  if (after) q.whereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [after.sort, after.id]);
  return q.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit + 1);
}

/**
 * Deletes entries older than each organization's retention (security.auditLogRetentionDays, default 365), and
 * account events (no organization) older than the default.
 */
export async function purgeExpiredAuditLogs(db: Db, defaultRetentionDays: number): Promise<number> {
  const result = await db.raw(
    `DELETE FROM audit_logs a USING organizations o
      WHERE a.organization_id = o.id
        AND a.created_at < now() - make_interval(days => COALESCE((o.settings->'security'->>'auditLogRetentionDays')::int, ?))`,
    [defaultRetentionDays],
  );
  const accounts = await db('audit_logs')
    .whereNull('organization_id')
    .where('created_at', '<', db.raw('now() - make_interval(days => ?)', [defaultRetentionDays]))
    .delete();
  return (result as { rowCount: number }).rowCount + accounts;
}
