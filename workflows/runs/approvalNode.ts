import { CancellationScope, condition, isCancellation, proxyActivities } from '@temporalio/workflow';
import type { ApprovalActivities } from '../../activities/runs/approvals';
import { parseDuration } from '../../lib/duration';
import type { ApprovalNodeOutcome } from '../../lib/runs/approvalNode';
import type { EvalContext } from '../../lib/runs/types';
import { evalActivities, nodeError, type ExecEnv, type NodeOutcome } from './execute';
import type { ApprovalConfig } from './graph';

/** Opening and closing the approval: database writes (and, at the opening, mail queued for after its commit). */
const approvals = proxyActivities<ApprovalActivities>({ startToCloseTimeout: '60s', retry: { maximumAttempts: 5, initialInterval: '500ms' } });

/** How the interpreter hands a node the outcome the API signalled (APPROVAL_DECIDED_SIGNAL, dagRun.ts). */
export type ApprovalWaiters = Map<string, (outcome: ApprovalNodeOutcome) => void>;

/** The longest message kept with an approval (the rendered template is cut there). */
const MAX_MESSAGE_CHARS = 4000;

/**
 * An approval node (docs/runs.md#approval). Its message rendered (a template over parameters and earlier outputs),
 * the approval is recorded and its approvers notified; then a durable condition with the timeout: the API's signal
 * of a final decision, the timeout (the stored approval is closed as timed out, unless a decision was recorded just
 * before, which wins) or the run's cancellation (the approval is closed as cancelled) ends it. The outcome picks the
 * branch: approved → approved_branch; rejected → rejected_branch, or the node fails (APPROVAL_REJECTED); timed out →
 * by on_timeout (fail: APPROVAL_TIMED_OUT; reject: as a rejection; branch: timed_out_branch).
 */
export async function executeApproval(
  env: ExecEnv,
  nodeId: string,
  config: ApprovalConfig,
  context: EvalContext,
  waiters: ApprovalWaiters,
  onWaiting: (until: string, approvalId: string) => void,
): Promise<NodeOutcome> {
  const startedAt = new Date().getTime();
  const timeoutMs = parseDuration(config.timeout);
  const expiresAt = new Date(startedAt + timeoutMs).toISOString();
  const key = { organizationId: env.organizationId, runId: env.runId, nodeId };
  let outcome: ApprovalNodeOutcome | undefined;
  // Before the opening activity: a decision signalled while it runs is kept.
  waiters.set(nodeId, (decided) => {
    outcome ??= decided;
  });
  try {
    const message = config.message === undefined ? null : await renderMessage(env, config.message, context);
    const opened = await approvals.runApprovalOpen({
      ...key,
      approvers: config.approvers,
      required: config.required,
      allowSelfApproval: config.allow_self_approval,
      message,
      form: config.form,
      expiresAt,
    });
    outcome ??= opened.outcome ?? undefined;
    onWaiting(expiresAt, opened.approvalId);
    const left = startedAt + timeoutMs - new Date().getTime();
    if (outcome === undefined && left > 0) await condition(() => outcome !== undefined, left);
    outcome ??= (await approvals.runApprovalClose({ ...key, as: 'timed_out' })) ?? undefined;
  } catch (err) {
    if (isCancellation(err)) await CancellationScope.nonCancellable(() => approvals.runApprovalClose({ ...key, as: 'cancelled' }));
    throw err;
  } finally {
    waiters.delete(nodeId);
  }
  if (outcome === undefined) throw nodeError({ code: 'APPROVAL_TIMED_OUT', message: `no decision within ${config.timeout}`, attempts: 1 });
  return decide(config, outcome);
}

async function renderMessage(env: ExecEnv, message: string, context: EvalContext): Promise<string> {
  if (!message.includes('${')) return message;
  const value = await evalActivities.runRenderValue({ organizationId: env.organizationId, value: message, context });
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  return text.slice(0, MAX_MESSAGE_CHARS);
}

/** The node's output and branch for an outcome, or its failure. */
function decide(config: ApprovalConfig, outcome: ApprovalNodeOutcome): NodeOutcome {
  const output = (branch: string | null) => ({ output: { ...outcome, branch }, attempts: 1 });
  if (outcome.decision === 'approved') return output(config.approved_branch ?? null);
  if (outcome.decision === 'timed_out' && config.on_timeout === 'branch') return output(config.timed_out_branch ?? null);
  if (outcome.decision === 'timed_out' && config.on_timeout === 'fail') {
    throw nodeError({ code: 'APPROVAL_TIMED_OUT', message: `no decision within ${config.timeout}`, attempts: 1 });
  }
  // A rejection, or a timeout counted as one (on_timeout: reject).
  if (config.rejected_branch !== undefined) return output(config.rejected_branch);
  const last = outcome.decisions[outcome.decisions.length - 1];
  const message =
    outcome.decision === 'rejected'
      ? `rejected by ${last?.user_id ?? 'an approver'}${outcome.comment ? `: ${outcome.comment}` : ''}`
      : `no decision within ${config.timeout}: counted as a rejection`;
  throw nodeError({ code: 'APPROVAL_REJECTED', message, attempts: 1 });
}
