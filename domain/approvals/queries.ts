import type { Knex } from 'knex';
import { ROLE_RANK, type Role } from '../../lib/permissions';

/**
 * All SQL on `run_approvals` (migration 1190): the approvals approval nodes ask for, and the decisions on them.
 * Every query is scoped by organization, except the worker's own by run and node (the run's organization is given).
 */
type Conn = Knex | Knex.Transaction;

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'timed_out', 'cancelled'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export interface ApprovalFormField {
  name: string;
  label?: string;
  type: 'string' | 'number' | 'boolean' | 'choice';
  options?: string[];
  required: boolean;
}

export interface ApprovalDecisionRecord {
  user_id: string;
  decision: 'approved' | 'rejected';
  comment: string | null;
  values: Record<string, unknown>;
  at: string;
}

export interface ApprovalRow {
  id: string;
  organization_id: string;
  workflow_id: string;
  run_id: string;
  node_id: string;
  status: ApprovalStatus;
  approver_role: Role | null;
  approver_users: string[];
  required: number;
  allow_self_approval: boolean;
  requested_by: string | null;
  message: string | null;
  form: ApprovalFormField[];
  decisions: ApprovalDecisionRecord[];
  expires_at: Date;
  created_at: Date;
  decided_at: Date | null;
}

export interface NewApproval {
  organizationId: string;
  workflowId: string;
  runId: string;
  nodeId: string;
  approverRole: Role | null;
  approverUsers: string[];
  required: number;
  allowSelfApproval: boolean;
  requestedBy: string | null;
  message: string | null;
  form: ApprovalFormField[];
  expiresAt: Date;
}

/**
 * Records the approval (a retried start finds the row it wrote, whatever its state); `created` says whether this
 * call wrote it, so notifications go out once.
 */
export async function insertApproval(db: Conn, a: NewApproval): Promise<{ row: ApprovalRow; created: boolean }> {
  const inserted = await db<ApprovalRow>('run_approvals')
    .insert({
      organization_id: a.organizationId,
      workflow_id: a.workflowId,
      run_id: a.runId,
      node_id: a.nodeId,
      approver_role: a.approverRole,
      approver_users: JSON.stringify(a.approverUsers) as unknown as string[],
      required: a.required,
      allow_self_approval: a.allowSelfApproval,
      requested_by: a.requestedBy,
      message: a.message,
      form: JSON.stringify(a.form) as unknown as ApprovalFormField[],
      expires_at: a.expiresAt,
    })
    .onConflict(['run_id', 'node_id'])
    .ignore()
    .returning('*');
  if (inserted[0]) return { row: inserted[0], created: true };
  const row = await db<ApprovalRow>('run_approvals').where({ organization_id: a.organizationId, run_id: a.runId, node_id: a.nodeId }).first();
  if (!row) throw new Error(`approval of run ${a.runId} node ${a.nodeId} vanished`);
  return { row, created: false };
}

export async function getApproval(db: Conn, organizationId: string, id: string): Promise<ApprovalRow | undefined> {
  return db<ApprovalRow>('run_approvals').where({ organization_id: organizationId, id }).first();
}

/** The row under lock, for a decision or the end of the wait. */
export async function lockApproval(trx: Knex.Transaction, organizationId: string, where: { id: string } | { runId: string; nodeId: string }): Promise<ApprovalRow | undefined> {
  const by = 'id' in where ? { id: where.id } : { run_id: where.runId, node_id: where.nodeId };
  return trx<ApprovalRow>('run_approvals').where({ organization_id: organizationId, ...by }).forUpdate().first();
}

export async function updateApproval(
  trx: Knex.Transaction,
  id: string,
  values: { status: ApprovalStatus; decisions?: ApprovalDecisionRecord[]; decidedAt?: Date | null },
): Promise<void> {
  await trx('run_approvals')
    .where({ id })
    .update({
      status: values.status,
      ...(values.decisions ? { decisions: JSON.stringify(values.decisions) } : {}),
      ...(values.decidedAt !== undefined ? { decided_at: values.decidedAt } : {}),
    });
}

export interface ApprovalListQuery {
  status?: ApprovalStatus;
  runId?: string;
  /** only what this member may decide now: pending, eligible by role or id, not decided by them, not their own run unless allowed */
  awaiting?: { userId: string; role: Role };
  limit: number;
  /** rows created before this (created_at, id) pair: the page after a cursor */
  before?: { createdAt: string; id: string };
}

/** Roles at least as high as `role` (the role order: an owner may decide what an admin may). */
export function rolesAtLeast(role: Role): Role[] {
  return (Object.keys(ROLE_RANK) as Role[]).filter((r) => ROLE_RANK[r] >= ROLE_RANK[role]);
}

/** Newest first. */
export async function listApprovals(db: Conn, organizationId: string, q: ApprovalListQuery): Promise<(ApprovalRow & { sort_key: string })[]> {
  const query = db('run_approvals').where({ organization_id: organizationId });
  if (q.status) query.andWhere({ status: q.status });
  if (q.runId) query.andWhere({ run_id: q.runId });
  if (q.awaiting) {
    const { userId, role } = q.awaiting;
    const lowerOrEqual = (Object.keys(ROLE_RANK) as Role[]).filter((r) => ROLE_RANK[r] <= ROLE_RANK[role]);
    query
      .andWhere({ status: 'pending' })
      .andWhere((w) => {
        w.whereIn('approver_role', lowerOrEqual).orWhereRaw('approver_users @> ?::jsonb', [JSON.stringify([userId])]);
      })
      .andWhereRaw('NOT decisions @> ?::jsonb', [JSON.stringify([{ user_id: userId }])])
      .andWhere((w) => {
        w.where('allow_self_approval', true).orWhereNull('requested_by').orWhereNot('requested_by', userId);
      });
  }
  if (q.before) {
    query.andWhereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [q.before.createdAt, q.before.id]);
  }
  return query
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(q.limit)
    .select('*', db.raw(SORT_KEY));
}

/** `created_at` to the microsecond, UTC, as the list's cursor carries it (a JS Date keeps milliseconds only). */
const SORT_KEY = `to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_key`;

/** The members who may decide (by role at least `role`, or listed), with their addresses, for notifications. */
export async function eligibleApprovers(
  db: Conn,
  organizationId: string,
  approvers: { role: Role | null; users: string[] },
  limit: number,
): Promise<{ id: string; email: string; role: Role }[]> {
  return db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.organization_id', organizationId)
    .andWhere((w) => {
      if (approvers.role) w.whereIn('m.role', rolesAtLeast(approvers.role));
      if (approvers.users.length) w.orWhereIn('m.user_id', approvers.users);
    })
    .orderBy('u.id')
    .limit(limit)
    .select('u.id', 'u.email', 'm.role');
}

/** The run's workflow and who started it (an API key's run: its creator), for a new approval. */
export async function runOrigin(db: Conn, organizationId: string, runId: string): Promise<{ workflow_id: string; created_by: string | null; workflow_name: string } | undefined> {
  return db('workflow_runs as r')
    .join('workflows as w', 'w.id', 'r.workflow_id')
    .where({ 'r.organization_id': organizationId, 'r.id': runId })
    .first('r.workflow_id', 'r.created_by', 'w.name as workflow_name');
}
