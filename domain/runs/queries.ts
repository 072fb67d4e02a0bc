import type { Db } from '../../db/knex';
import type { NodeState, RunError, RunStatus } from '../../lib/dag/model';
import type { ApprovalRecord } from '../../lib/triggers/approval';
import type { RunTrigger } from '../../lib/runs/types';

/**
 * The SQL of runs (dead letters and circuit breakers: failureQueries.ts): the one module that writes that table.
 * Queries of the API take the organization id; the worker's bookkeeping finds a run by its id alone.
 */

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
  /** subworkflow children (migration 1001): the parent run (null once it was deleted) and the parent's node */
  parent_run_id: string | null;
  parent_node_id: string | null;
  started_at: Date | null;
  completed_at: Date | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  /** the webhook answer its first respond node gave (migration 1200); null before, or without one */
  response?: WebhookResponse | null;
  /** flow control (migration 1280): the run's groups, its priority, its singleton key */
  flow_keys?: FlowKeys | null;
  priority?: number | null;
  singleton_key?: string | null;
}

import { isUniqueViolation } from '../../lib/db/errors';
import type { WebhookResponse } from '../../lib/runs/webhookResponse';
import type { FlowKeys } from '../../lib/runs/flowPlan';
import { isUuid } from '../../lib/ids';
import { queryNamed } from '../../db/namedStatement';
import { outboxInsertClause } from '../events/queries';
export { isUuid };

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
    /** flow control: the run's groups, priority and singleton key (lib/runs/flowPlan.ts) */
    flow?: { keys: FlowKeys; priority: number | null; singletonKey: string | null } | null;
  },
): Promise<RunRow> {
  // Every run start writes one: a named statement (db/namedStatement.ts), planned once per connection.
  const [row] = await queryNamed<RunRow>(db, 'workflow_run_insert', INSERT_RUN, [
    values.id,
    values.organizationId,
    values.workflowId,
    values.workflowVersion,
    JSON.stringify(values.parameters),
    JSON.stringify(values.nodeStates ?? {}),
    JSON.stringify(values.trigger),
    values.retryOf,
    values.createdBy,
    values.flow ? JSON.stringify(values.flow.keys) : null,
    values.flow?.priority ?? null,
    values.flow?.singletonKey ?? null,
  ]);
  return row!;
}

/**
 * A run row's columns, named: a prepared statement's result may not change shape while it is cached, so a column
 * added by a later migration must not change what the statements below answer until they select it.
 */
const RUN_COLUMNS = `id, organization_id, workflow_id, workflow_version, status, parameters, node_states, results, errors, trigger,
    retry_of, parent_run_id, parent_node_id, started_at, completed_at, created_by, created_at, updated_at, response, flow_keys,
    priority, singleton_key`;

const INSERT_RUN = `
  INSERT INTO workflow_runs (id, organization_id, workflow_id, workflow_version, status, parameters, node_states, trigger,
                             retry_of, created_by, started_at, flow_keys, priority, singleton_key)
  VALUES ($1, $2, $3, $4, 'pending', $5, $6, $7, $8, $9, CURRENT_TIMESTAMP, $10, $11, $12)
  RETURNING ${RUN_COLUMNS}`;

/** The partial unique index of one open run per workflow and singleton key (migration 1281). */
const SINGLETON_INDEX = 'workflow_runs_singleton_open';

/**
 * After a run insert failed: the open run of the same workflow and singleton key it collided with (answered instead
 * of a new run); 'ended' when that run ended between the two statements (inserting again makes the new singleton);
 * null when the failure was something else.
 */
export async function singletonCollision(
  db: Db,
  err: unknown,
  run: { organizationId: string; workflowId: string; singletonKey: string | null },
): Promise<RunRow | 'ended' | null> {
  if (run.singletonKey === null || !isUniqueViolation(err, SINGLETON_INDEX)) return null;
  const open = await db<RunRow>('workflow_runs')
    .where({ organization_id: run.organizationId, workflow_id: run.workflowId, singleton_key: run.singletonKey })
    .whereIn('status', ['pending', 'running'])
    .first();
  return open ?? 'ended';
}

/**
 * The row of a subworkflow child, written by its parent's interpreter before it starts the child execution (whose
 * workflow id is this run id). Idempotent: a retried activity inserts nothing more. `created_by` is the parent's.
 */
export async function insertChildRun(
  db: Db,
  values: {
    id: string;
    organizationId: string;
    workflowId: string;
    workflowVersion: number;
    parameters: Record<string, unknown>;
    trigger: RunTrigger;
    parentRunId: string;
    parentNodeId: string;
  },
): Promise<void> {
  await db.raw(
    `INSERT INTO workflow_runs
       (id, organization_id, workflow_id, workflow_version, status, parameters, trigger, parent_run_id, parent_node_id,
        created_by, started_at)
     SELECT ?, ?, ?, ?, 'pending', ?::jsonb, ?::jsonb, p.id, ?, p.created_by, now()
       FROM workflow_runs p
      WHERE p.id = ? AND p.organization_id = ?
     ON CONFLICT (id) DO NOTHING`,
    [
      values.id,
      values.organizationId,
      values.workflowId,
      values.workflowVersion,
      JSON.stringify(values.parameters),
      JSON.stringify(values.trigger),
      values.parentNodeId,
      values.parentRunId,
      values.organizationId,
    ],
  );
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

/** The ids among `runIds` of the organization's runs that are still open (pending or running). */
export async function openRunIds(db: Db, organizationId: string, runIds: string[]): Promise<string[]> {
  const ids = runIds.filter(isUuid);
  if (!ids.length) return [];
  const rows: { id: string }[] = await db('workflow_runs')
    .where({ organization_id: organizationId })
    .whereIn('id', ids)
    .whereIn('status', ['pending', 'running'])
    .select('id');
  return rows.map((r) => r.id);
}

/**
 * Whose run this is, by its id alone: for the operator CLI, which is given a run id and looks across tenants; every
 * later read of the run goes through the runs service with the organization found here.
 */
export async function findRunOwner(db: Db, runId: string): Promise<{ organization_id: string; workflow_id: string } | null> {
  if (!isUuid(runId)) return null;
  const row = await db('workflow_runs').where({ id: runId }).first('organization_id', 'workflow_id');
  return (row as { organization_id: string; workflow_id: string } | undefined) ?? null;
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

/** `created_at` to the microsecond, UTC, as the runs list's cursor carries it (a JS Date keeps milliseconds only). */
const SORT_KEY = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_key`;

/**
 * An organization's runs across its workflows, newest first (keyset by created_at, id), served by
 * `workflow_runs_org_created_idx` (migration 1050); with `workflowId` by `workflow_runs_list_idx`. The other filters
 * are applied while walking the index.
 */
export async function listOrganizationRuns(
  db: Db,
  organizationId: string,
  filter: {
    status?: RunStatus;
    workflowId?: string;
    triggerType?: string;
    createdAfter?: string;
    createdBefore?: string;
    runId?: string;
    /** Runs whose parameters contain any of these objects (jsonb @>, served by workflow_runs_parameters_idx). */
    parameterAlternatives?: Record<string, unknown>[];
    after?: { createdAt: string; id: string };
    limit: number;
  },
): Promise<(RunRow & { sort_key: string })[]> {
  const q = db<RunRow>('workflow_runs')
    .select('*', db.raw(SORT_KEY))
    .where({ organization_id: organizationId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(filter.limit);
  if (filter.workflowId) q.andWhere('workflow_id', filter.workflowId);
  if (filter.status) q.andWhere('status', filter.status);
  if (filter.triggerType) q.andWhereRaw("trigger->>'type' = ?", [filter.triggerType]);
  if (filter.createdAfter) q.andWhere('created_at', '>=', filter.createdAfter);
  if (filter.createdBefore) q.andWhere('created_at', '<', filter.createdBefore);
  if (filter.runId) q.andWhere('id', filter.runId);
  const alternatives = filter.parameterAlternatives ?? [];
  if (alternatives.length > 0) {
    q.andWhere((or) => {
      for (const wanted of alternatives) or.orWhereRaw('parameters @> ?::jsonb', [JSON.stringify(wanted)]);
    });
  }
  if (filter.after) q.andWhereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [filter.after.createdAt, filter.after.id]);
  return (await q) as (RunRow & { sort_key: string })[];
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
 * The worker's first write of a run: pending -> running (a retried or late activity changes nothing else).
 * `startedAt`: a run its flow control held starts when its gate admitted it (its queue time is not its duration);
 * other runs keep the time they were created.
 */
export async function markRunRunning(db: Db, runId: string, startedAt?: string): Promise<void> {
  // Every run's first write from the worker: a named statement (db/namedStatement.ts), planned once per connection.
  await queryNamed(db, 'workflow_run_mark_running', MARK_RUNNING, [runId, startedAt ?? null]);
}

const MARK_RUNNING = `
  UPDATE workflow_runs
     SET status = 'running', updated_at = CURRENT_TIMESTAMP, started_at = COALESCE($2::timestamptz, started_at)
   WHERE id = $1 AND status = 'pending'`;

/** A respond node's answer, kept when the run has none yet (the first respond node answers); whether it was kept. */
export async function setRunResponse(db: Db, organizationId: string, runId: string, response: WebhookResponse): Promise<boolean> {
  const updated = await db('workflow_runs')
    .where({ id: runId, organization_id: organizationId })
    .whereNull('response')
    .update({ response: JSON.stringify(response), updated_at: db.fn.now() });
  return updated > 0;
}

/** Merges node states into the stored ones (jsonb `||`): large runs save theirs in chunks before the final write. */
export async function mergeRunNodeStates(db: Db, runId: string, nodeStates: Record<string, NodeState>): Promise<void> {
  await db('workflow_runs')
    .where({ id: runId })
    .update({
      node_states: db.raw('node_states || ?::jsonb', [JSON.stringify(nodeStates)]),
      updated_at: db.fn.now(),
    });
}

/** What a run was before its final write: enough to tell a transition and to describe it (run events). */
export interface RunBeforeFinish {
  id: string;
  organization_id: string;
  workflow_id: string;
  workflow_version: number;
  status: RunStatus;
  trigger: Record<string, unknown> | null;
}

/**
 * The event a final write records with it (run.completed / run.failed, docs/events.md): its id, its type, and the
 * payload's fields the writer knows. The run's own fields (runId, workflow_id, organizationID, workflowVersion,
 * trigger, chainDepth) are added from the row in the same statement (activities/events/runEvents.ts says which).
 */
export interface RunFinishedEvent {
  id: string;
  type: string;
  payload: Record<string, unknown>;
}

/**
 * The worker's final write of a run, whatever its organization; `nodeStates` is absent when they were already saved
 * in chunks. One statement locks the row (`FOR UPDATE` in its first part, so a concurrent finish waits and then
 * sees this one's status), writes the final state, and inserts `event` into the outbox only when the run was open
 * before (a retried finish emits nothing again); it answers the status the run had before, so the caller tells a
 * first finish from a retried one. One statement is one commit: the event commits with the final state or not at
 * all (outbox; docs/events.md), without a transaction's BEGIN and COMMIT round trips. A named statement (planned
 * once per connection, db/namedStatement.ts): every run ends here. Null when no such run. (The outbox's notice,
 * a statement trigger, is sent by a finish that inserts no event too: a dispatcher wakes and finds nothing.)
 */
export async function finishRun(
  db: Db,
  runId: string,
  final: {
    status: RunStatus;
    nodeStates?: Record<string, NodeState>;
    results: Record<string, unknown>;
    errors: RunError[];
    completedAt: string;
  },
  event: RunFinishedEvent | null = null,
): Promise<RunBeforeFinish | null> {
  const [row] = await queryNamed<RunBeforeFinish>(db, 'workflow_run_finish', FINISH_RUN, [
    runId,
    final.status,
    final.nodeStates ? JSON.stringify(final.nodeStates) : null,
    JSON.stringify(final.results),
    JSON.stringify(final.errors),
    final.completedAt,
    event?.id ?? null,
    event?.type ?? null,
    event ? JSON.stringify(event.payload) : null,
  ]);
  return row ?? null;
}

const FINISH_RUN = `
  WITH before AS (
    SELECT id, organization_id, workflow_id, workflow_version, status, trigger
      FROM workflow_runs WHERE id = $1 FOR UPDATE
  ), finished AS (
    UPDATE workflow_runs AS r
       SET status = $2::text,
           node_states = CASE WHEN $3::jsonb IS NULL THEN r.node_states ELSE r.node_states || $3::jsonb END,
           results = $4::jsonb,
           errors = $5::jsonb,
           completed_at = $6::timestamptz,
           updated_at = CURRENT_TIMESTAMP
      FROM before
     WHERE r.id = before.id
    RETURNING before.id, before.organization_id, before.workflow_id, before.workflow_version, before.status, before.trigger
  ), event AS (
    ${outboxInsertClause(
      'finished f',
      {
        id: '$7::uuid',
        organizationId: 'f.organization_id',
        type: '$8::text',
        payload: `$9::jsonb || jsonb_build_object(
             'runId', f.id,
             'workflow_id', f.workflow_id,
             'organizationID', f.organization_id,
             'workflowVersion', f.workflow_version,
             'trigger', CASE WHEN jsonb_typeof(f.trigger -> 'type') = 'string' THEN f.trigger -> 'type' ELSE '"manual"'::jsonb END,
             'chainDepth', CASE WHEN jsonb_typeof(f.trigger -> 'chainDepth') = 'number' THEN f.trigger -> 'chainDepth' ELSE '0'::jsonb END)`,
      },
      "$7::uuid IS NOT NULL AND f.status IN ('pending', 'running')",
    )}
  )
  SELECT * FROM finished`;

// ---- approvals (the run's `trigger.approval`, docs/triggers.md#manual-approval) ----

export interface RunApprovalRow {
  id: string;
  organization_id: string;
  status: RunStatus;
  /** `approval` is present on runs that wait (or waited) for one. */
  trigger: RunTrigger & { approval?: ApprovalRecord };
}

/**
 * Locks a run's row (`FOR UPDATE`) for an approval decision and reads what the decision needs. `scope` limits it
 * to one organization's workflow (a decision by a user); without it the run is found by id (the worker's timeout).
 */
export async function lockRunForApproval(
  trx: Db,
  runId: string,
  scope?: { organizationId: string; workflowId: string },
): Promise<RunApprovalRow | null> {
  const where = scope ? { id: runId, workflow_id: scope.workflowId, organization_id: scope.organizationId } : { id: runId };
  const row = await trx<RunApprovalRow>('workflow_runs')
    .where(where)
    .forUpdate()
    .first('id', 'organization_id', 'status', 'trigger');
  return row ?? null;
}

/** Replaces `trigger.approval` of a run (jsonb_set), leaving the rest of its trigger as it is. */
export async function setRunApproval(trx: Db, runId: string, approval: ApprovalRecord): Promise<void> {
  await trx('workflow_runs')
    .where({ id: runId })
    .update({ trigger: trx.raw(`jsonb_set(trigger, '{approval}', ?::jsonb)`, [JSON.stringify(approval)]), updated_at: trx.fn.now() });
}

/**
 * Open (pending or running) runs of an organization, counted up to `upTo`: enough to compare with a cap, and served
 * by the partial index `workflow_runs_open_by_org_idx` however many finished runs the organization keeps. Subworkflow
 * children belong to their parent run, which counts: they are not counted again.
 */
export async function countOpenRuns(db: Db, organizationId: string, upTo: number): Promise<number> {
  // A named statement (db/namedStatement.ts): every capped run admission counts.
  const [row] = await queryNamed<{ n: string }>(db, 'workflow_runs_count_open', COUNT_OPEN_RUNS, [organizationId, upTo]);
  return Number(row!.n);
}

const COUNT_OPEN_RUNS = `
  SELECT count(*) AS n FROM (
    SELECT 1 FROM workflow_runs
     WHERE organization_id = $1 AND status IN ('pending', 'running') AND parent_node_id IS NULL LIMIT $2
  ) open_runs`;

/**
 * Serializes the run admission of one organization until the transaction ends (other organizations never wait), then
 * counts its open runs as `countOpenRuns` does, in one round trip: two statements in one simple query. In READ COMMITTED
 * each statement of it takes its own snapshot when it starts, so the count sees every run committed by the
 * admission that held the lock before (a single statement could not: it takes its snapshot before it waits). The
 * simple protocol takes no parameters: both values are checked (a UUID, an integer) before they are written in.
 */
export async function lockAndCountOpenRuns(trx: Db, organizationId: string, upTo: number): Promise<number> {
  if (!isUuid(organizationId) || !Number.isSafeInteger(upTo) || upTo < 0) throw new Error(`invalid admission of ${organizationId} up to ${upTo}`);
  const results = (await trx.raw(
    `SELECT pg_advisory_xact_lock(hashtextextended('run-admission:${organizationId}', 400));
     SELECT count(*) AS n FROM (
       SELECT 1 FROM workflow_runs
        WHERE organization_id = '${organizationId}' AND status IN ('pending', 'running') AND parent_node_id IS NULL LIMIT ${upTo}
     ) open_runs`,
  )) as { rows: { n: string }[] }[];
  return Number(results[1]!.rows[0]!.n);
}
