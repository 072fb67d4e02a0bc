import { closeApproval, openApproval, type OpenApprovalInput } from '../../domain/approvals/lifecycle';
import type { ApprovalNodeOutcome } from '../../lib/runs/approvalNode';
import type { ActivityDeps } from '../deps';

/** The activities of approval nodes (workflows/runs/approvalNode.ts): the domain's approval lifecycle. */
export function createApprovalActivities(deps: ActivityDeps) {
  return {
    /** Records the approval and notifies its approvers (once); an approval already final answers its outcome. */
    async runApprovalOpen(input: OpenApprovalInput): Promise<{ approvalId: string; outcome: ApprovalNodeOutcome | null }> {
      return openApproval(deps, input);
    },

    /**
     * The node stops waiting without a decision it saw: a pending approval becomes `timed_out` or `cancelled`; a final
     * one answers its outcome (null for cancelled or none).
     */
    async runApprovalClose(input: { organizationId: string; runId: string; nodeId: string; as: 'timed_out' | 'cancelled' }): Promise<ApprovalNodeOutcome | null> {
      return closeApproval(deps, input);
    },
  };
}

export type ApprovalActivities = ReturnType<typeof createApprovalActivities>;
