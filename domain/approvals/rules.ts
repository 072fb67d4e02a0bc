import { AppError } from '../../lib/errors';
import { ROLE_RANK, type Role } from '../../lib/permissions';
import type { Problem } from '../../lib/dag/problems';
import type { ApprovalNodeOutcome } from '../../lib/runs/approvalNode';
import type { ApprovalDecisionRecord, ApprovalFormField, ApprovalRow, ApprovalStatus } from './queries';

/**
 * The rules of a decision on an approval (docs/runs.md#approval), pure: who may decide, what a decision must carry,
 * and the state it leads to. N of M: `required` approvals by distinct people approve; one rejection rejects.
 */

/** Whether the member may decide on the approval by who they are (role order, or listed), ignoring its state. */
export function isEligible(row: Pick<ApprovalRow, 'approver_role' | 'approver_users'>, userId: string, role: Role): boolean {
  if (row.approver_role !== null && ROLE_RANK[role] >= ROLE_RANK[row.approver_role]) return true;
  return row.approver_users.includes(userId);
}

/** Refuses a decision the member may not make now (state, eligibility, four eyes, a second decision). */
export function checkMayDecide(row: ApprovalRow, userId: string, role: Role): void {
  if (row.status !== 'pending') throw new AppError('INVALID_STATE', `this approval is already ${row.status.replace('_', ' ')}`);
  if (!isEligible(row, userId, role)) {
    const who = [row.approver_role ? `members with the role ${row.approver_role} or higher` : null, row.approver_users.length ? 'the listed users' : null]
      .filter(Boolean)
      .join(' and ');
    throw new AppError('FORBIDDEN', `only ${who} may decide on this approval (your role: ${role})`);
  }
  if (!row.allow_self_approval && row.requested_by === userId) {
    throw new AppError('FORBIDDEN', 'you started this run: another approver must decide (four eyes; allow_self_approval is off)');
  }
  if (row.decisions.some((d) => d.user_id === userId)) throw new AppError('CONFLICT', 'you already decided on this approval');
}

/**
 * The form values of an approval, checked against the form's fields (every problem at once): required fields
 * present, each value of its field's type, a choice among its options, no undeclared field. A rejection carries no
 * required field (whatever it gives is still checked).
 */
export function formValueProblems(form: ApprovalFormField[], values: Record<string, unknown>, decision: 'approved' | 'rejected'): Problem[] {
  const problems: Problem[] = [];
  const fields = new Map(form.map((f) => [f.name, f]));
  for (const name of Object.keys(values)) {
    if (!fields.has(name)) problems.push({ path: `body.values.${name}`, problem: `not a field of this approval's form${form.length ? ` (fields: ${form.map((f) => f.name).join(', ')})` : ''}` });
  }
  for (const field of form) {
    const path = `body.values.${field.name}`;
    const value = values[field.name];
    if (value === undefined || value === null || value === '') {
      if (field.required && decision === 'approved') problems.push({ path, problem: 'required to approve' });
      continue;
    }
    if (field.type === 'string' && (typeof value !== 'string' || value.length > 4000)) problems.push({ path, problem: 'a text of at most 4000 characters' });
    if (field.type === 'number' && (typeof value !== 'number' || !Number.isFinite(value))) problems.push({ path, problem: 'a number' });
    if (field.type === 'boolean' && typeof value !== 'boolean') problems.push({ path, problem: 'true or false' });
    if (field.type === 'choice' && !(typeof value === 'string' && field.options?.includes(value))) {
      problems.push({ path, problem: `one of ${(field.options ?? []).map((o) => JSON.stringify(o)).join(', ')}` });
    }
  }
  return problems;
}

/** The state after one more decision: approved once `required` approvals are in, rejected at the first rejection. */
export function afterDecision(row: ApprovalRow, decision: ApprovalDecisionRecord): { status: ApprovalStatus; decisions: ApprovalDecisionRecord[] } {
  const decisions = [...row.decisions, decision];
  if (decision.decision === 'rejected') return { status: 'rejected', decisions };
  const approvals = decisions.filter((d) => d.decision === 'approved').length;
  return { status: approvals >= row.required ? 'approved' : 'pending', decisions };
}

/** A final approval as the node's outcome (timed_out for a row closed by its timeout). */
export function outcomeOf(row: Pick<ApprovalRow, 'id' | 'status' | 'decisions'>): ApprovalNodeOutcome {
  const decisive = row.status === 'timed_out' ? undefined : row.decisions[row.decisions.length - 1];
  const decision = row.status === 'approved' || row.status === 'rejected' ? row.status : 'timed_out';
  return {
    approval_id: row.id,
    decision,
    comment: decisive?.comment ?? null,
    form: decision === 'approved' ? (decisive?.values ?? {}) : {},
    decisions: row.decisions,
  };
}
