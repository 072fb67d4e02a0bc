import type { RunInput } from '../runs/types';

/**
 * Shapes shared by the triggers' workflows, their activities and the API. Pure types and constants: bundled into
 * workflow code.
 */

/** The argument a schedule trigger's Temporal Schedule passes to `scheduledRunWorkflow`. */
export interface ScheduledRunInput {
  organizationId: string;
  workflowId: string;
  triggerKey: string;
}

/**
 * A firing's run, prepared: its input to start it, or why there is none. `rate_limited` (the organization's budget of
 * scheduled runs is spent) comes with `retryAfterMs`: the firing waits that long and asks again.
 */
export interface ScheduledRunPrepared {
  runId: string | null;
  input: RunInput | null;
  reason: string;
  retryAfterMs?: number;
}

/** What a manual run that needs approval waits with (RunInput.approval). The approvers are checked by the API. */
export interface ApprovalWait {
  timeoutMs: number;
  onTimeout: 'fail' | 'cancel';
}

/** The payload of the `approvalDecision` signal (sent by the API after it recorded the decision). */
export interface ApprovalDecision {
  decision: 'approved' | 'rejected';
  by: string;
  comment: string | null;
}

/** How the wait ended: a decision, or the timeout (then the stored state decides; see approvalTimedOut). */
export interface ApprovalOutcome {
  decision: 'approved' | 'rejected' | 'timed_out';
  by: string | null;
  comment: string | null;
}

export const APPROVAL_SIGNAL = 'approvalDecision';

/** Settings of one outgoing webhook delivery, from the worker's configuration at dispatch time. */
export interface DeliveryInput {
  deliveryId: string;
  maxAttempts: number;
  initialIntervalMs: number;
  maxIntervalMs: number;
  timeoutMs: number;
}
