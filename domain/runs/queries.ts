import type { Db } from '../../db/knex';
import type { NodeState, RunError, RunStatus } from '../../lib/dag/model';
import type { RunTrigger } from '../../workflows/runs/types';

/** All SQL of the runs domain (runs, dead letters, circuit breakers). Every query takes the organization id. */

export interface RunRow {
  id: string;
  organization_id: string;
  workflow_id: string;
  workflow_version: number;
  status: RunStatus;
  parameters: Record<string, unknown>;
  node_states: Record<string, NodeState>;
  results: Record<string, unknown>;
  errors: RunError[];
  trigger: RunTrigger;
  retry_of: string | null;
  started_at: Date | null;
  completed_at: Date | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string): boolean => UUID.test(value);

export async function insertRun(
  db: Db,
  values: {
    id: string;
    organizationId: string;
    workflowId: string;
    workflowVersion: number;
    parameters: Record<string, unknown>;
    trigger: RunTrigger;
    retryOf: string | null;
    createdBy: string | null;
    nodeStates?: Record<string, NodeState>;
  },
): Promise<RunRow> {
  const [row] = (await db('workflow_runs')
    .insert({
      id: values.id,
      organization_id: values.organizationId,
      workflow_id: values.workflowId,
      workflow_version: values.workflowVersion,
      status: 'pending',
      parameters: JSON.stringify(values.parameters),
      node_states: JSON.stringify(values.nodeStates ?? {}),
      trigger: JSON.stringify(values.trigger),
      retry_of: values.retryOf,
      created_by: values.createdBy,
      started_at: db.fn.now(),
    })
    .returning('*')) as RunRow[];
  return row!;
}

export async function findRun(db: Db, organizationId: string, workflowId: string, runId: string): Promise<RunRow | null> {
  if (!isUuid(runId) || !isUuid(workflowId)) return null;
  const row = await db<RunRow>('workflow_runs')
    .where({ id: runId, organization_id: organizationId, workflow_id: workflowId })
    .first();
  return row ?? null;
}

export async function findRunById(db: Db, organizationId: string, runId: string): Promise<RunRow | null> {
  if (!isUuid(runId)) return null;
  const row = await db<RunRow>('workflow_runs').where({ id: runId, organization_id: organizationId }).first();
  return row ?? null;
}

export async function listRuns(
  db: Db,
  organizationId: string,
  workflowId: string,
  filter: { status?: RunStatus; after?: { createdAt: string; id: string }; limit: number },
): Promise<RunRow[]> {
  const q = db<RunRow>('workflow_runs')
    .where({ organization_id: organizationId, workflow_id: workflowId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(filter.limit);
  if (filter.status) q.andWhere('status', filter.status);
  if (filter.after) q.andWhereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [filter.after.createdAt, filter.after.id]);
  return q;
}

/** Terminal state written by the API itself (a start that failed, or a closed execution the worker never reported). */
export async function markRunFinished(
  db: Db,
  runId: string,
  status: RunStatus,
  errors: RunError[],
): Promise<void> {
  await db('workflow_runs')
    .where({ id: runId })
    .whereIn('status', ['pending', 'running'])
    .update({ status, errors: JSON.stringify(errors), completed_at: db.fn.now(), updated_at: db.fn.now() });
}

/**
 * Open (pending or running) runs of an organization, counted up to `upTo`: enough to compare with a cap, and served
 * by the partial index `workflow_runs_open_by_org_idx` however many finished runs the organization keeps.
 */
export async function countOpenRuns(db: Db, organizationId: string, upTo: number): Promise<number> {
  const result = await db.raw<{ rows: { n: string }[] }>(
    `SELECT count(*) AS n FROM (
       SELECT 1 FROM workflow_runs WHERE organization_id = ? AND status IN ('pending', 'running') LIMIT ?
     ) open_runs`,
    [organizationId, upTo],
  );
  return Number(result.rows[0]!.n);
}

/** Serializes the run admission of one organization until the transaction ends; other organizations never wait. */
export async function lockRunAdmission(trx: Db, organizationId: string): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 400))', [`run-admission:${organizationId}`]);
}

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

export async function deleteDeadLetter(db: Db, organizationId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  return (await db('dead_letters').where({ id, organization_id: organizationId }).delete()) > 0;
}

// ---- circuit breakers ----

export interface CircuitBreakerRow {
  organization_id: string;
  tool: string;
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
  return db<CircuitBreakerRow>('circuit_breakers').where({ organization_id: organizationId }).orderBy('tool');
}

export async function resetCircuitBreaker(db: Db, organizationId: string, tool: string): Promise<CircuitBreakerRow | null> {
  const [row] = (await db('circuit_breakers')
    .where({ organization_id: organizationId, tool })
    .update({
      state: 'closed',
      consecutive_failures: 0,
      opened_at: null,
      half_open_attempts: 0,
      half_open_successes: 0,
      updated_at: db.fn.now(),
    })
    .returning('*')) as CircuitBreakerRow[];
  return row ?? null;
}
