import type { Trigger } from '../dag/model';
import { parseDuration } from '../duration';
import { parseTriggers, type ManualConfig } from './config';
import type { ApprovalWait } from './types';

/**
 * What a manual run of a workflow whose manual trigger has `requireApproval` carries: `record` goes into the run's
 * `trigger.approval` (the API checks approvers and self-approval against it and records the decision there),
 * `wait` into the interpreter's input (timeout and its outcome). Null when no approval is required.
 */
export interface ApprovalRecord {
  status: 'pending' | 'approved' | 'rejected' | 'timed_out';
  approvers: string[];
  allowSelfApproval: boolean;
  requestedBy: string | null;
  timeoutMs: number;
  onTimeout: 'fail' | 'cancel';
  expiresAt: string;
  decidedBy?: string;
  decidedByType?: 'user' | 'apiKey';
  decidedAt?: string;
  comment?: string | null;
}

export function approvalForManualRun(
  triggers: Trigger[] | undefined,
  defaultTimeoutMs: number,
  requestedBy: string | null,
  now = Date.now(),
): { record: ApprovalRecord; wait: ApprovalWait } | null {
  const manual = parseTriggers(triggers).find((t) => t.type === 'manual' && t.enabled && (t.config as ManualConfig).requireApproval);
  if (!manual) return null;
  const config = manual.config as ManualConfig;
  const timeoutMs = config.approvalTimeout ? parseDuration(config.approvalTimeout) : defaultTimeoutMs;
  return {
    record: {
      status: 'pending',
      approvers: config.approvers,
      allowSelfApproval: config.allowSelfApproval,
      requestedBy,
      timeoutMs,
      onTimeout: config.onApprovalTimeout,
      expiresAt: new Date(now + timeoutMs).toISOString(),
    },
    wait: { timeoutMs, onTimeout: config.onApprovalTimeout },
  };
}
