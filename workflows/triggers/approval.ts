import { condition, defineSignal, isCancellation, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import { APPROVAL_SIGNAL, type ApprovalDecision, type ApprovalOutcome, type ApprovalWait } from '../../lib/triggers/types';

/**
 * The approval gate of manual runs whose trigger has `requireApproval` (docs/triggers.md#manual-approval). The
 * interpreter calls it before its first node, while the run is still `pending`. The API records a decision in the
 * run row (the arbiter) and then signals it here; when the timeout comes first, an activity marks the approval
 * timed out unless a decision was recorded meanwhile (its signal still in flight), which then wins.
 */
export const approvalDecisionSignal = defineSignal<[ApprovalDecision]>(APPROVAL_SIGNAL);

const { approvalTimedOut } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

export type ApprovalGate =
  | { proceed: true }
  | { proceed: false; status: 'cancelled' | 'failed'; code: string; message: string; cancellation?: unknown };

export async function awaitApproval(runId: string, wait: ApprovalWait): Promise<ApprovalGate> {
  const received: { decision: ApprovalDecision | null } = { decision: null };
  setHandler(approvalDecisionSignal, (d) => {
    received.decision ??= d;
  });
  let outcome: ApprovalOutcome;
  try {
    const decided = await condition(() => received.decision !== null, wait.timeoutMs);
    outcome = decided && received.decision ? received.decision : await approvalTimedOut({ runId, onTimeout: wait.onTimeout });
  } catch (err) {
    if (!isCancellation(err)) throw err;
    return { proceed: false, status: 'cancelled', code: 'CANCELLED', message: 'the run was cancelled while awaiting approval', cancellation: err };
  }
  if (outcome.decision === 'approved') return { proceed: true };
  if (outcome.decision === 'rejected') {
    return { proceed: false, status: 'cancelled', code: 'APPROVAL_REJECTED', message: `rejected${outcome.comment ? `: ${outcome.comment}` : ''}` };
  }
  return {
    proceed: false,
    status: wait.onTimeout === 'cancel' ? 'cancelled' : 'failed',
    code: 'APPROVAL_TIMED_OUT',
    message: `no approval decision within ${Math.round(wait.timeoutMs / 1000)} s`,
  };
}
