import { AppError, notFound } from '../../lib/errors';
import type { ApprovalRecord } from '../../lib/triggers/approval';
import { APPROVAL_SIGNAL, type ApprovalDecision } from '../../lib/triggers/types';
import { recordAudit } from '../audit/record';
import type { AppDeps } from '../deps';
import { requireHuman } from '../organizations/stepUp';
import type { Actor, OrganizationContext } from '../principals';
import { lockRunForApproval, setRunApproval } from '../runs/queries';
import type { RunView } from '../runs/schemas';
import type { RunsService } from '../runs/service';
import { isUuid } from './queries';

/**
 * Approval decisions on manual runs that wait for one (docs/triggers.md#manual-approval). The run row is the
 * arbiter: under its row lock the decision is checked (a person, not an API key; still pending; the caller's role
 * among `approvers`; not the requester, who for a run a key started is the key's creator, unless
 * `allowSelfApproval`), written into `trigger.approval` and audited in the same transaction; then
 * the run is signalled. Should the signal get lost, the run reads the recorded decision when its timeout fires.
 */
export function createApprovals(deps: AppDeps, runs: RunsService) {
  const { db } = deps;

  async function decide(
    org: OrganizationContext,
    actor: Actor,
    workflowId: string,
    runId: string,
    decision: 'approved' | 'rejected',
    comment: string | null,
  ): Promise<RunView> {
    if (!isUuid(workflowId) || !isUuid(runId)) throw notFound('run');
    await db.transaction(async (trx) => {
      const row = await lockRunForApproval(trx, runId, { organizationId: org.organizationId, workflowId });
      if (!row) throw notFound('run');
      // Four eyes are two people: a key decides for nobody (and would approve its own runs).
      await requireHuman(trx, org.organizationId, actor, 'approve or reject runs');
      const approval = row.trigger.approval;
      if (!approval) throw new AppError('INVALID_STATE', 'this run does not need an approval');
      if (approval.status !== 'pending' || row.status !== 'pending') {
        throw new AppError('INVALID_STATE', `the approval of this run is already ${approval.status === 'pending' ? `over (run ${row.status})` : approval.status}`);
      }
      if (!approval.approvers.includes(org.role)) {
        throw new AppError('FORBIDDEN', `only ${approval.approvers.join(', ')} may decide on this run (your role: ${org.role})`);
      }
      if (!approval.allowSelfApproval && approval.requestedBy === actor.id) {
        throw new AppError('FORBIDDEN', 'you requested this run: another approver must decide (allowSelfApproval is off)');
      }
      const next: ApprovalRecord = { ...approval, status: decision, decidedBy: actor.id, decidedByType: actor.type, decidedAt: new Date().toISOString(), comment };
      await setRunApproval(trx, runId, next);
      await recordAudit(trx, {
        organizationId: org.organizationId,
        actor,
        action: decision === 'approved' ? 'run.approved' : 'run.rejected',
        target: { type: 'run', id: runId },
        after: { workflowId, decision, comment },
      });
    });
    const signal: ApprovalDecision = { decision, by: actor.id, comment };
    try {
      await deps.temporal.workflow.getHandle(runId).signal(APPROVAL_SIGNAL, signal);
    } catch (err) {
      deps.logger.warn({ err, runId }, 'approval signal not delivered; the run reads the recorded decision at its timeout');
    }
    return runs.get(org.organizationId, workflowId, runId);
  }

  return { decide };
}
