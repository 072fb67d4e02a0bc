import type { Db } from '../../db/knex';
import { isUuid } from '../../lib/ids';

/**
 * The SQL of what runs leave behind when their nodes fail: dead letters (a node's last failed attempt, to replay)
 * and circuit breakers (per organization and tool). The one module that writes those tables.
 */

// ---- dead letters ----

export interface DeadLetterRow {
  id: string;
  organization_id: string;
  workflow_id: string;
  workflow_version: number;
  run_id: string;
  node_id: string;
  queue: string;
  tool: string | null;
  input: unknown;
  error: { code: string; message: string };
  attempts: number;
  status: 'pending' | 'replayed';
  replay_run_id: string | null;
  replayed_at: Date | null;
  expires_at: Date;
  created_at: Date;
}

export async function listDeadLetters(
  db: Db,
  organizationId: string,
  filter: {
    workflowId?: string;
    runId?: string;
    queue?: string;
    status?: DeadLetterRow['status'];
    after?: { createdAt: string; id: string };
    limit: number;
  },
): Promise<DeadLetterRow[]> {
  const q = db<DeadLetterRow>('dead_letters')
    .where({ organization_id: organizationId })
    .andWhere('expires_at', '>', db.fn.now())
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(filter.limit);
  if (filter.workflowId) q.andWhere('workflow_id', filter.workflowId);
  if (filter.runId) q.andWhere('run_id', filter.runId);
  if (filter.queue) q.andWhere('queue', filter.queue);
  if (filter.status) q.andWhere('status', filter.status);
  if (filter.after) q.andWhereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [filter.after.createdAt, filter.after.id]);
  return q;
}

export async function findDeadLetter(db: Db, organizationId: string, id: string): Promise<DeadLetterRow | null> {
  if (!isUuid(id)) return null;
  const row = await db<DeadLetterRow>('dead_letters')
    .where({ id, organization_id: organizationId })
    .andWhere('expires_at', '>', db.fn.now())
    .first();
  return row ?? null;
}

export async function markDeadLetterReplayed(db: Db, organizationId: string, id: string, replayRunId: string): Promise<DeadLetterRow> {
  const [row] = (await db('dead_letters')
    .where({ id, organization_id: organizationId })
    .update({ status: 'replayed', replay_run_id: replayRunId, replayed_at: db.fn.now() })
    .returning('*')) as DeadLetterRow[];
  return row!;
}

/**
 * Records a node that exhausted its retries; a retried activity for the same (run, node) updates the error and
 * the attempt count of the letter already there.
 */
export async function upsertDeadLetter(
  db: Db,
  values: {
    organizationId: string;
    workflowId: string;
    workflowVersion: number;
    runId: string;
    nodeId: string;
    queue: string;
    tool: string | null;
    input: unknown;
    error: { code: string; message: string };
    attempts: number;
    expiresAt: Date;
  },
): Promise<{ id: string }> {
  const [row] = (await db('dead_letters')
    .insert({
      organization_id: values.organizationId,
      workflow_id: values.workflowId,
      workflow_version: values.workflowVersion,
      run_id: values.runId,
      node_id: values.nodeId,
      queue: values.queue,
      tool: values.tool,
      input: JSON.stringify(values.input ?? null),
      error: JSON.stringify(values.error),
      attempts: values.attempts,
      expires_at: values.expiresAt,
    })
    .onConflict(['run_id', 'node_id'])
    .merge({ error: JSON.stringify(values.error), attempts: values.attempts })
    .returning('id')) as { id: string }[];
  return { id: row!.id };
}

/** Deletes the dead letters of every organization whose retention ended; returns how many. */
export async function purgeExpiredDeadLetters(db: Db): Promise<number> {
  return db('dead_letters').where('expires_at', '<', db.fn.now()).delete();
}

export async function deleteDeadLetter(db: Db, organizationId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  return (await db('dead_letters').where({ id, organization_id: organizationId }).delete()) > 0;
}

// ---- circuit breakers ----

export interface CircuitBreakerRow {
  organization_id: string;
  tool: string;
  /** the breaker's destination: a node's explicit key, the host of the tool's `url`, or '' (migration 1180) */
  scope: string;
  state: 'closed' | 'open' | 'half_open';
  consecutive_failures: number;
  opened_at: Date | null;
  open_timeout_ms: number | null;
  half_open_attempts: number;
  half_open_successes: number;
  last_error: { code: string; message: string } | null;
  updated_at: Date;
}

export async function listCircuitBreakers(db: Db, organizationId: string): Promise<CircuitBreakerRow[]> {
  return db<CircuitBreakerRow>('circuit_breakers').where({ organization_id: organizationId }).orderBy(['tool', 'scope']);
}

/** Closes the tool's breaker of `scope`, or every breaker of the tool without one; the first of them (by scope), or null. */
export async function resetCircuitBreaker(db: Db, organizationId: string, tool: string, scope?: string): Promise<CircuitBreakerRow | null> {
  const rows = (await db('circuit_breakers')
    .where({ organization_id: organizationId, tool, ...(scope !== undefined ? { scope } : {}) })
    .update({
      state: 'closed',
      consecutive_failures: 0,
      opened_at: null,
      half_open_attempts: 0,
      half_open_successes: 0,
      updated_at: db.fn.now(),
    })
    .returning('*')) as CircuitBreakerRow[];
  return rows.sort((a, b) => (a.scope < b.scope ? -1 : a.scope > b.scope ? 1 : 0))[0] ?? null;
}

/**
 * Locks the breaker of one (organization, tool) until the transaction ends (`FOR UPDATE`), creating it closed on
 * first use, so concurrent calls from several workers decide on one state.
 */
/** One breaker: a tool of an organization, for one scope (a destination or an explicit key; '' for none). */
export interface BreakerKey {
  organizationId: string;
  tool: string;
  scope: string;
}

export async function lockCircuitBreaker(trx: Db, key: BreakerKey): Promise<CircuitBreakerRow> {
  const where = { organization_id: key.organizationId, tool: key.tool, scope: key.scope };
  await trx('circuit_breakers').insert(where).onConflict(['organization_id', 'tool', 'scope']).ignore();
  return (await trx<CircuitBreakerRow>('circuit_breakers')
    .where(where)
    .forUpdate()
    .first()) as CircuitBreakerRow;
}

/** Columns a breaker transition may change; `opened_at: 'now'` takes the database's clock. */
export type CircuitBreakerChanges = Partial<
  Pick<CircuitBreakerRow, 'state' | 'consecutive_failures' | 'open_timeout_ms' | 'half_open_attempts' | 'half_open_successes'>
> & {
  opened_at?: 'now' | null;
  last_error?: { code: string; message: string };
};

/** Writes a breaker transition (under the lock of `lockCircuitBreaker`); `updated_at` is always set. */
export async function updateCircuitBreaker(trx: Db, key: BreakerKey, changes: CircuitBreakerChanges): Promise<void> {
  const { opened_at: openedAt, last_error: lastError, ...plain } = changes;
  await trx('circuit_breakers')
    .where({ organization_id: key.organizationId, tool: key.tool, scope: key.scope })
    .update({
      ...plain,
      ...(lastError !== undefined ? { last_error: JSON.stringify(lastError) } : {}),
      ...(openedAt !== undefined ? { opened_at: openedAt === 'now' ? trx.fn.now() : null } : {}),
      updated_at: trx.fn.now(),
    });
}
