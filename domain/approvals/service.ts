import { APPROVAL_DECIDED_SIGNAL, type ApprovalDecided } from '../../lib/runs/approvalNode';
import { notFound, validationError } from '../../lib/errors';
import { isUuid } from '../../lib/ids';
import { decodeCursorOrThrow, toPage, type Page } from '../../lib/pagination';
import { recordAudit } from '../audit/record';
import type { AppDeps } from '../deps';
import { writeApprovalDecided } from './lifecycle';
import { requireHuman } from '../organizations/stepUp';
import type { Actor, OrganizationContext } from '../principals';
import { getApproval, listApprovals, lockApproval, updateApproval, type ApprovalRow, type ApprovalStatus } from './queries';
import { afterDecision, checkMayDecide, formValueProblems, outcomeOf } from './rules';
import type { ApprovalView } from './schemas';

/**
 * Approvals as people see and decide them (docs/runs.md#approval). A decision is checked and recorded under the
 * approval's row lock (a person, not an API key, with the organization's 2FA requirement met; eligible by role
 * order or id; four eyes; one decision per person; the form's values), audited in the same transaction; when it
 * makes the approval final, the `approval.decided` event too, and after commit the run is signalled. Should the
 * signal get lost, the node reads the recorded outcome when its timeout fires.
 */
export function createNodeApprovals(deps: AppDeps) {
  const { db } = deps;

  async function workflowName(organizationId: string, workflowId: string): Promise<string | null> {
    const row = await db('workflows').where({ organization_id: organizationId, id: workflowId }).first('name');
    return (row?.name as string | undefined) ?? null;
  }

  function view(row: ApprovalRow, name: string | null, org: OrganizationContext, actor: Actor): ApprovalView {
    let canDecide = false;
    if (actor.type === 'user') {
      try {
        checkMayDecide(row, actor.id, org.role);
        canDecide = true;
      } catch {
        canDecide = false;
      }
    }
    return {
      id: row.id,
      run_id: row.run_id,
      workflow_id: row.workflow_id,
      workflow_name: name,
      node_id: row.node_id,
      status: row.status,
      approvers: { role: row.approver_role, users: row.approver_users },
      required: row.required,
      allow_self_approval: row.allow_self_approval,
      requested_by: row.requested_by,
      message: row.message,
      form: row.form,
      decisions: row.decisions,
      expires_at: new Date(row.expires_at).toISOString(),
      created_at: new Date(row.created_at).toISOString(),
      decided_at: row.decided_at ? new Date(row.decided_at).toISOString() : null,
      can_decide: canDecide,
    };
  }

  async function list(
    org: OrganizationContext,
    actor: Actor,
    query: { status?: ApprovalStatus; run_id?: string; awaiting?: 'me'; limit: number; cursor?: string },
  ): Promise<Page<ApprovalView>> {
    if (query.awaiting === 'me' && actor.type !== 'user') {
      throw validationError('awaiting=me lists what a person may decide: API keys decide nothing', [
        { path: 'query.awaiting', problem: 'needs a signed-in person' },
      ]);
    }
    const position = decodeCursorOrThrow(query.cursor);
    const rows = await listApprovals(db, org.organizationId, {
      ...(query.status ? { status: query.status } : {}),
      ...(query.run_id ? { runId: query.run_id } : {}),
      ...(query.awaiting ? { awaiting: { userId: actor.id, role: org.role } } : {}),
      limit: query.limit + 1,
      ...(position ? { before: { createdAt: position.sort, id: position.id } } : {}),
    });
    const page = toPage(rows, query.limit, (r) => ({ sort: r.sort_key, id: r.id }));
    const ids = [...new Set(page.data.map((r) => r.workflow_id))];
    const names = new Map<string, string>(
      (await db('workflows').where({ organization_id: org.organizationId }).whereIn('id', ids).select('id', 'name')).map((w: { id: string; name: string }) => [w.id, w.name]),
    );
    return { data: page.data.map((r) => view(r, names.get(r.workflow_id) ?? null, org, actor)), nextCursor: page.nextCursor };
  }

  async function get(org: OrganizationContext, actor: Actor, id: string): Promise<ApprovalView> {
    if (!isUuid(id)) throw notFound('approval');
    const row = await getApproval(db, org.organizationId, id);
    if (!row) throw notFound('approval');
    return view(row, await workflowName(org.organizationId, row.workflow_id), org, actor);
  }

  async function decide(
    org: OrganizationContext,
    actor: Actor,
    id: string,
    body: { decision: 'approve' | 'reject'; comment?: string | undefined; values: Record<string, unknown> },
  ): Promise<ApprovalView> {
    if (!isUuid(id)) throw notFound('approval');
    const decision = body.decision === 'approve' ? 'approved' : 'rejected';
    const decided = await db.transaction(async (trx) => {
      const row = await lockApproval(trx, org.organizationId, { id });
      if (!row) throw notFound('approval');
      // Four eyes are two people: a key decides for nobody (and would approve its own runs).
      await requireHuman(trx, org.organizationId, actor, 'approve or reject runs');
      checkMayDecide(row, actor.id, org.role);
      const problems = formValueProblems(row.form, body.values, decision);
      if (problems.length) throw validationError("the form's values do not fit its fields", problems);
      const next = afterDecision(row, { user_id: actor.id, decision, comment: body.comment ?? null, values: body.values, at: new Date().toISOString() });
      const final = next.status !== 'pending';
      await updateApproval(trx, row.id, { status: next.status, decisions: next.decisions, ...(final ? { decidedAt: new Date() } : {}) });
      await recordAudit(trx, {
        organizationId: org.organizationId,
        actor,
        action: decision === 'approved' ? 'approval.approved' : 'approval.rejected',
        target: { type: 'approval', id: row.id },
        after: { runId: row.run_id, nodeId: row.node_id, decision, comment: body.comment ?? null, status: next.status },
      });
      if (next.status !== 'pending') await writeApprovalDecided(trx, row, next.status, next.decisions);
      return { ...row, status: next.status, decisions: next.decisions, decided_at: final ? new Date() : null };
    });
    if (decided.status !== 'pending') {
      const signal: ApprovalDecided = { nodeId: decided.node_id, outcome: outcomeOf(decided) };
      try {
        await deps.temporal.workflow.getHandle(decided.run_id).signal(APPROVAL_DECIDED_SIGNAL, signal);
      } catch (err) {
        deps.logger.warn({ err, runId: decided.run_id, approvalId: decided.id }, 'approval signal not delivered; the node reads the recorded decision at its timeout');
      }
    }
    return view(decided, await workflowName(org.organizationId, decided.workflow_id), org, actor);
  }

  return { list, get, decide };
}

export type NodeApprovalsService = ReturnType<typeof createNodeApprovals>;

