import { AppError } from '../../lib/errors';
import { approvalLink, approvalRequestEmail } from '../../lib/emails/approvals';
import type { Role } from '../../lib/permissions';
import type { ApprovalNodeOutcome } from '../../lib/runs/approvalNode';
import type { ProcessDeps } from '../deps';
import { writeEvent } from '../events/outbox';
import { deliverMail, enqueueMail } from '../notifications/mailOutbox';
import type { Knex } from 'knex';
import {
  eligibleApprovers,
  insertApproval,
  lockApproval,
  runOrigin,
  updateApproval,
  type ApprovalDecisionRecord,
  type ApprovalFormField,
  type ApprovalRow,
  type ApprovalStatus,
} from './queries';
import { outcomeOf } from './rules';

/**
 * An approval node's side of its approval (the worker's activities call these): opening it with its notifications,
 * and closing it when the node stops waiting without a decision (its timeout, the run's cancellation). Decisions
 * are the API's (./service.ts). The row is the arbiter: each change happens under its row lock, and a final state
 * is never changed again.
 */

/** At most this many approvers are mailed per approval: one workflow cannot flood an organization's mail. */
export const MAX_APPROVAL_MAILS = 25;

export interface OpenApprovalInput {
  organizationId: string;
  runId: string;
  nodeId: string;
  approvers: { role?: Role; users?: string[] };
  required: number;
  allowSelfApproval: boolean;
  message: string | null;
  form: ApprovalFormField[];
  expiresAt: string;
}

/**
 * Records the approval and, the first time, queues a mail to each approver who may decide (the requester left out
 * under four eyes) and the `approval.requested` event, all in one transaction; the mails are sent after commit
 * (outside it), and the worker's sweeper retries those that fail. A retried call finds its row: when that row is
 * already final (decided while the activity's answer was lost), its outcome comes back at once.
 */
export async function openApproval(deps: ProcessDeps, input: OpenApprovalInput): Promise<{ approvalId: string; outcome: ApprovalNodeOutcome | null }> {
  const { db, config, box } = deps;
  const base = { publicUrl: config.http.publicUrl, appUrl: config.http.appUrl };
  const mailIds: string[] = [];
  const row = await db.transaction(async (trx) => {
    const origin = await runOrigin(trx, input.organizationId, input.runId);
    if (!origin) throw new AppError('NOT_FOUND', `run ${input.runId} has no record to attach an approval to`);
    const expiresAt = new Date(input.expiresAt);
    const { row: stored, created } = await insertApproval(trx, {
      organizationId: input.organizationId,
      workflowId: origin.workflow_id,
      runId: input.runId,
      nodeId: input.nodeId,
      approverRole: input.approvers.role ?? null,
      approverUsers: input.approvers.users ?? [],
      required: input.required,
      allowSelfApproval: input.allowSelfApproval,
      requestedBy: origin.created_by,
      message: input.message,
      form: input.form,
      expiresAt,
    });
    if (!created) return stored;
    const link = approvalLink(base, input.organizationId, stored.id);
    const people = await eligibleApprovers(trx, input.organizationId, { role: stored.approver_role, users: stored.approver_users }, MAX_APPROVAL_MAILS + 1);
    for (const person of people.filter((p) => input.allowSelfApproval || p.id !== origin.created_by).slice(0, MAX_APPROVAL_MAILS)) {
      const mail = approvalRequestEmail({
        to: person.email,
        workflowName: origin.workflow_name,
        nodeId: input.nodeId,
        message: input.message,
        link,
        expiresAt,
        required: input.required,
      });
      // One topic per approver: the outbox keeps one unsent mail per (topic, id), and each approver gets their own.
      mailIds.push(await enqueueMail(trx, box, { organizationId: input.organizationId, topic: `approval:${person.id}`, topicId: stored.id, ...mail }));
    }
    await writeEvent(trx, input.organizationId, 'approval.requested', {
      approvalId: stored.id,
      organizationID: input.organizationId,
      runId: input.runId,
      workflow_id: origin.workflow_id,
      nodeId: input.nodeId,
      approverRole: stored.approver_role,
      approverUsers: stored.approver_users,
      required: stored.required,
      expiresAt: expiresAt.toISOString(),
      link,
    });
    return stored;
  });
  for (const id of mailIds) await deliverMail(deps, id);
  return { approvalId: row.id, outcome: isFinal(row) ? outcomeOf(row) : null };
}

/** The `approval.decided` event of an approval reaching `status`, in the transaction that writes that state. */
export async function writeApprovalDecided(
  trx: Knex.Transaction,
  row: Pick<ApprovalRow, 'id' | 'organization_id' | 'run_id' | 'workflow_id' | 'node_id'>,
  status: Exclude<ApprovalStatus, 'pending'>,
  decisions: ApprovalDecisionRecord[],
): Promise<void> {
  await writeEvent(trx, row.organization_id, 'approval.decided', {
    approvalId: row.id,
    organizationID: row.organization_id,
    runId: row.run_id,
    workflow_id: row.workflow_id,
    nodeId: row.node_id,
    status,
    decidedBy: decisions.map((d) => d.user_id),
  });
}

const isFinal = (row: Pick<ApprovalRow, 'status'>): boolean => row.status !== 'pending';

/**
 * The node stops waiting without having seen a decision: `timed_out` (its timeout passed) or `cancelled` (the run
 * was cancelled). A pending approval takes that state (with the `approval.decided` event); one already final keeps
 * its state, and its outcome is what the node gets (a decision recorded just before, its signal still in flight).
 */
export async function closeApproval(
  deps: ProcessDeps,
  input: { organizationId: string; runId: string; nodeId: string; as: 'timed_out' | 'cancelled' },
): Promise<ApprovalNodeOutcome | null> {
  return deps.db.transaction(async (trx) => {
    const row = await lockApproval(trx, input.organizationId, { runId: input.runId, nodeId: input.nodeId });
    if (!row) return null;
    if (isFinal(row)) return row.status === 'cancelled' ? null : outcomeOf(row);
    await updateApproval(trx, row.id, { status: input.as, decidedAt: new Date() });
    await writeApprovalDecided(trx, row, input.as, row.decisions);
    return input.as === 'timed_out' ? outcomeOf({ ...row, status: 'timed_out' }) : null;
  });
}
