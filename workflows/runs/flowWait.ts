import { CancellationScope, condition, defineSignal, getExternalWorkflowHandle, isCancellation, proxyLocalActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { FlowJoinInput } from '../../activities/runs/flow';
import {
  FLOW_ADMITTED_SIGNAL,
  FLOW_DROPPED_SIGNAL,
  FLOW_QUEUED_SIGNAL,
  FLOW_RELEASE_SIGNAL,
  type FlowWaitReason,
  type RunFlow,
} from '../../lib/runs/flowGate';
import type { ApprovalGate } from '../triggers/approval';

/**
 * A run's side of its workflow's flow gate (workflows/flow/gate.ts): it joins before its first node and waits,
 * still `pending`, until the gate admits it (or drops it: debounced, or its group full under drop_newest). The
 * run releases its place when it ends (`releaseFlow`), whatever the ending.
 *
 * Only runs whose input carries `flow` take this path, and no run started before flow control existed does, so
 * their histories replay unchanged without a patch marker.
 */
export const flowAdmittedSignal = defineSignal<[{ at?: string } | undefined]>(FLOW_ADMITTED_SIGNAL);
export const flowDroppedSignal = defineSignal<[{ code: string; message: string }]>(FLOW_DROPPED_SIGNAL);
export const flowQueuedSignal = defineSignal<[{ reason: FlowWaitReason }]>(FLOW_QUEUED_SIGNAL);

/**
 * A local activity: the join is one signal-with-start, done within the run's first workflow task instead of a
 * round trip through the task queue (a regular activity more than doubled a 1-node run's latency).
 */
const { flowJoin } = proxyLocalActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', maximumInterval: '10 seconds' },
});

/**
 * A gate that has not answered by then is joined again: a gate terminated by an operator starts afresh (a gate
 * that is there answers a repeated join as the first, lib/runs/flowGate.ts `arrive`).
 */
const REJOIN_EVERY_MS = 10 * 60_000;

/** The gate's answer: admitted (when, by the gate's clock), or one of the ways a run closes without starting. */
export type FlowAdmission = { proceed: true; admittedAt: string } | Extract<ApprovalGate, { proceed: false }>;

export interface FlowWaitView {
  reason: FlowWaitReason;
  since: string;
}

export async function awaitFlowAdmission(
  join: Omit<FlowJoinInput, 'gateId' | 'ticket'>,
  flow: RunFlow,
  onQueued: (view: FlowWaitView) => void,
): Promise<FlowAdmission> {
  const answer: { admitted: boolean; at: string | null; dropped: { code: string; message: string } | null } = { admitted: false, at: null, dropped: null };
  setHandler(flowAdmittedSignal, (admitted) => {
    answer.admitted = true;
    answer.at ??= admitted?.at ?? null;
  });
  setHandler(flowDroppedSignal, (dropped) => void (answer.dropped ??= dropped));
  setHandler(flowQueuedSignal, ({ reason }) => onQueued({ reason, since: new Date().toISOString() }));
  const decided = () => answer.admitted || answer.dropped !== null;
  try {
    while (!decided()) {
      await flowJoin({ ...join, gateId: flow.gateId, ticket: flow.ticket });
      await condition(decided, REJOIN_EVERY_MS);
    }
  } catch (err) {
    if (!isCancellation(err)) throw err;
    await releaseFlow(flow);
    return { proceed: false, status: 'cancelled', code: 'CANCELLED', message: 'the run was cancelled while waiting for its flow control', cancellation: err };
  }
  if (answer.admitted) return { proceed: true, admittedAt: answer.at ?? new Date().toISOString() };
  const dropped = answer.dropped!;
  return { proceed: false, status: 'cancelled', code: dropped.code, message: dropped.message };
}

/** Gives the run's place back to its gate; a gate that is gone holds nothing of it. Never cancelled. */
export async function releaseFlow(flow: RunFlow): Promise<void> {
  await CancellationScope.nonCancellable(() =>
    getExternalWorkflowHandle(flow.gateId).signal(FLOW_RELEASE_SIGNAL, { runId: flow.ticket.runId }).catch(() => undefined),
  );
}
