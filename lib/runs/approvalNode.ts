/**
 * What an approval node and the API exchange (zod-free: workflow code reads it). When an approval reaches its final
 * state by a decision, the API signals the run with APPROVAL_DECIDED_SIGNAL and `{ nodeId, outcome }`; when the
 * node's timeout comes first, the node asks the stored approval (a decision recorded meanwhile wins).
 */
export const APPROVAL_DECIDED_SIGNAL = 'loomApprovalDecided';

export interface ApprovalNodeDecision {
  user_id: string;
  decision: 'approved' | 'rejected';
  comment: string | null;
  values: Record<string, unknown>;
  /** ISO 8601 */
  at: string;
}

/** The approval's final state as the node sees it. */
export interface ApprovalNodeOutcome {
  approval_id: string;
  decision: 'approved' | 'rejected' | 'timed_out';
  /** the deciding decision's comment (the approval that completed it, or the rejection) */
  comment: string | null;
  /** the deciding approval's form values ({} for a rejection or a timeout) */
  form: Record<string, unknown>;
  decisions: ApprovalNodeDecision[];
}

export interface ApprovalDecided {
  nodeId: string;
  outcome: ApprovalNodeOutcome;
}
