import type { Knex } from 'knex';
import type { Db } from '../../db/knex';

type Conn = Db | Knex.Transaction;
export type TransferTable = 'organization_exports' | 'organization_imports';

/** The only writer of organization_exports and organization_imports (migration 1260). */
export interface TransferRow {
  id: string;
  organization_id: string;
  status: 'running' | 'succeeded' | 'failed' | 'expired';
  object_key: string;
  bytes: string | number | null;
  sha256: string | null;
  result: Record<string, unknown> | null;
  error: string | null;
  requested_by: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  expires_at: Date | null;
}

export async function insertTransfer(db: Conn, table: TransferTable, row: { id: string; organization_id: string; object_key: string; requested_by: string | null; bytes?: number; sha256?: string }): Promise<TransferRow> {
  const [inserted] = (await db(table).insert({ ...row, status: 'running' }).returning('*')) as TransferRow[];
  return inserted!;
}

export function getTransfer(db: Conn, table: TransferTable, organizationId: string, id: string): Promise<TransferRow | undefined> {
  return db(table).where({ organization_id: organizationId, id }).first();
}

export function getTransferById(db: Conn, table: TransferTable, id: string): Promise<TransferRow | undefined> {
  return db(table).where({ id }).first();
}

export function listTransfers(db: Conn, table: TransferTable, organizationId: string, limit: number): Promise<TransferRow[]> {
  return db(table).where({ organization_id: organizationId }).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit);
}

export function runningTransfer(db: Conn, table: TransferTable, organizationId: string): Promise<TransferRow | undefined> {
  return db(table).where({ organization_id: organizationId, status: 'running' }).first();
}

/** Serialises starts of one organization's exports or imports (the check for a running one, then the insert). */
export async function lockTransfers(db: Conn, table: TransferTable, organizationId: string): Promise<void> {
  await db.raw('SELECT pg_advisory_xact_lock(hashtext(? || ?))', [`${table}:`, organizationId]);
}

/** `onlyRunning`: changes a running operation only (a late writer never overwrites a failure); true when it changed one. */
export async function updateTransfer(
  db: Conn,
  table: TransferTable,
  id: string,
  patch: Partial<Pick<TransferRow, 'status' | 'bytes' | 'sha256' | 'error' | 'expires_at'>> & { result?: unknown; finished?: boolean },
  options: { onlyRunning?: boolean } = {},
): Promise<boolean> {
  const { result, finished, ...rest } = patch;
  const changed = await db(table)
    .where({ id, ...(options.onlyRunning ? { status: 'running' } : {}) })
    .update({
      ...rest,
      ...(result === undefined ? {} : { result: JSON.stringify(result) }),
      ...(finished ? { finished_at: db.fn.now() } : {}),
      updated_at: db.fn.now(),
    });
  return changed > 0;
}

/** Whether the organization holds content or workflows (an import needs a new, empty one). */
export async function organizationHasData(db: Conn, organizationId: string): Promise<boolean> {
  const [content, workflows] = await Promise.all([
    db('content').where({ organization_id: organizationId }).first('id'),
    db('workflows').where({ organization_id: organizationId }).first('id'),
  ]);
  return Boolean(content || workflows);
}
