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
      ...(values.flow
        ? { flow_keys: JSON.stringify(values.flow.keys), priority: values.flow.priority, singleton_key: values.flow.singletonKey }
        : {}),
    })
    .returning('*')) as RunRow[];
  return row!;
}

/** The partial unique index of one open run per workflow and singleton key (migration 1281). */
const SINGLETON_INDEX = 'workflow_runs_singleton_open';

/** Whether an insert failed because the workflow already has an open run with the same singleton key. */
export function isSingletonConflict(err: unknown): boolean {
  return isUniqueViolation(err, SINGLETON_INDEX);
}

/** The open run of a workflow with this singleton key, if there is one. */
export async function findOpenSingletonRun(db: Db, organizationId: string, workflowId: string, singletonKey: string): Promise<RunRow | null> {
  const row = await db<RunRow>('workflow_runs')
    .where({ organization_id: organizationId, workflow_id: workflowId, singleton_key: singletonKey })
    .whereIn('status', ['pending', 'running'])
    .first();
  return row ?? null;
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
  await db('workflow_runs')
    .where({ id: runId })
    .whereIn('status', ['pending'])
    .update({ status: 'running', updated_at: db.fn.now(), ...(startedAt ? { started_at: startedAt } : {}) });
}

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
 * The worker's final write of a run, whatever its organization; `nodeStates` is absent when they were already saved
 * in chunks. One statement locks the row (`FOR UPDATE` in the subquery, so a concurrent finish waits and then sees
 * this one's status) and answers the status it had before: the caller tells a first finish from a retried one by
 * it. Null when no such run.
 */
export async function finishRun(
  trx: Db,
  runId: string,
  final: {
    status: RunStatus;
    nodeStates?: Record<string, NodeState>;
    results: Record<string, unknown>;
    errors: RunError[];
    completedAt: string;
  },
): Promise<RunBeforeFinish | null> {
  const result = await trx.raw<{ rows: RunBeforeFinish[] }>(
    `UPDATE workflow_runs AS r
        SET status = :status,
            node_states = CASE WHEN :nodeStates::jsonb IS NULL THEN r.node_states ELSE r.node_states || :nodeStates::jsonb END,
            results = :results::jsonb,
            errors = :errors::jsonb,
            completed_at = :completedAt,
            updated_at = CURRENT_TIMESTAMP
       FROM (SELECT id, organization_id, workflow_id, workflow_version, status, trigger
               FROM workflow_runs WHERE id = :runId FOR UPDATE) AS before
      WHERE r.id = before.id
      RETURNING before.id, before.organization_id, before.workflow_id, before.workflow_version, before.status, before.trigger`,
    {
      runId,
      status: final.status,
      nodeStates: final.nodeStates ? JSON.stringify(final.nodeStates) : null,
      results: JSON.stringify(final.results),
      errors: JSON.stringify(final.errors),
      completedAt: final.completedAt,
    },
  );
  return result.rows[0] ?? null;
}

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
  const result = await db.raw<{ rows: { n: string }[] }>(
    `SELECT count(*) AS n FROM (
       SELECT 1 FROM workflow_runs
        WHERE organization_id = ? AND status IN ('pending', 'running') AND parent_node_id IS NULL LIMIT ?
     ) open_runs`,
    [organizationId, upTo],
  );
  return Number(result.rows[0]!.n);
}

/** Serializes the run admission of one organization until the transaction ends; other organizations never wait. */
export async function lockRunAdmission(trx: Db, organizationId: string): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtextextended(?, 400))', [`run-admission:${organizationId}`]);
}
