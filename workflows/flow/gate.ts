import {
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  getExternalWorkflowHandle,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities';
import {
  arrive,
  emptyGate,
  FLOW_ADMITTED_SIGNAL,
  FLOW_ARRIVE_SIGNAL,
  FLOW_DROPPED_SIGNAL,
  FLOW_QUEUED_SIGNAL,
  FLOW_RELEASE_SIGNAL,
  FLOW_STATE_QUERY,
  groupCounts,
  heldRunIds,
  isIdle,
  release,
  step,
  waitReason,
  type FlowGateInput,
  type FlowGateView,
  type FlowTicket,
  type GateEffects,
  type GateState,
} from '../../lib/runs/flowGate';

/**
 * A workflow's flow gate (docs/runs.md#flow-control): one long-lived execution per workflow with flow control,
 * started by the first run that joins it (signal-with-start, activities/runs/flow.ts) and ended once it holds
 * nothing for a while. Runs join before their first node and wait, `pending`, for its answer; they release what
 * they held when they end. Its decisions are lib/runs/flowGate.ts's, its state lives in this history (and moves to
 * the next run of the execution at continue-as-new), so a worker or Temporal restart loses no queued start, and
 * since one execution decides for the whole workflow, a limit of one never lets two runs through.
 */
export const flowArriveSignal = defineSignal<[FlowTicket]>(FLOW_ARRIVE_SIGNAL);
export const flowReleaseSignal = defineSignal<[{ runId: string }]>(FLOW_RELEASE_SIGNAL);
export const flowStateQuery = defineQuery<FlowGateView>(FLOW_STATE_QUERY);

/** A gate that holds nothing ends after this long without an arrival. */
const IDLE_END_MS = 5 * 60_000;
/**
 * How often a gate with running or waiting runs checks that they are still open: a run ended without releasing
 * (terminated by an operator, its history reset) would hold its place for ever.
 */
const RECONCILE_EVERY_MS = 60_000;
/** Continue-as-new well before Temporal's history limits (and its suggestion, whichever comes first). */
const MAX_HISTORY_EVENTS = 5_000;

const { flowOpenRuns } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** Workflow time in milliseconds (replay-safe inside the workflow sandbox). */
const workflowNow = (): number => new Date().getTime();

type Inbox = ({ kind: 'arrive'; ticket: FlowTicket } | { kind: 'release'; runId: string })[];

export async function flowGateWorkflow(input: FlowGateInput): Promise<void> {
  const state = input.state ?? emptyGate();
  const inbox: Inbox = [];
  setHandler(flowArriveSignal, (ticket) => void inbox.push({ kind: 'arrive', ticket }));
  setHandler(flowReleaseSignal, ({ runId }) => void inbox.push({ kind: 'release', runId }));
  setHandler(flowStateQuery, () => ({ groups: groupCounts(state), settings: state.settings }));

  let nextReconcile = workflowNow() + RECONCILE_EVERY_MS;
  const inFlight = new Set<Promise<unknown>>();
  for (;;) {
    const now = workflowNow();
    const effects: GateEffects = { admit: [], drop: [], cancel: [], queued: [] };
    const arrived: string[] = [];
    for (const message of inbox.splice(0)) {
      if (message.kind === 'release') {
        release(state, message.runId);
        continue;
      }
      arrived.push(message.ticket.runId);
      const answered = arrive(state, message.ticket, now);
      effects.admit.push(...answered.admit);
      effects.drop.push(...answered.drop);
      effects.queued.push(...answered.queued);
    }
    if (now >= nextReconcile) {
      nextReconcile = now + RECONCILE_EVERY_MS;
      await releaseClosedRuns(input.organizationId, state);
    }
    const stepped = step(state, now);
    effects.admit.push(...stepped.effects.admit);
    effects.drop.push(...stepped.effects.drop);
    effects.cancel.push(...stepped.effects.cancel);
    // A run that arrived and neither started nor was dropped is told why it waits (once: its view shows it).
    const answered = new Set([...effects.admit, ...effects.drop.map((d) => d.runId)]);
    effects.queued = effects.queued.filter((q) => !answered.has(q.runId));
    for (const runId of arrived) {
      if (answered.has(runId) || effects.queued.some((q) => q.runId === runId)) continue;
      const reason = waitReason(state, runId);
      if (reason) effects.queued.push({ runId, reason });
    }
    // Not awaited: the answers go out with this workflow task, and the next arrivals are taken meanwhile (awaiting
    // them cost every pass a second workflow task). A failed answer frees its place when it comes back.
    const telling = tell(effects, now, (runId) => inbox.push({ kind: 'release', runId }));
    inFlight.add(telling);
    void telling.finally(() => inFlight.delete(telling));

    if (inbox.length === 0 && (workflowInfo().continueAsNewSuggested || workflowInfo().historyLength > MAX_HISTORY_EVENTS)) {
      await Promise.all(inFlight);
      await continueAsNew<typeof flowGateWorkflow>({ ...input, state: { ...state, dropped: {} } });
    }
    if (isIdle(state)) {
      if (!(await condition(() => inbox.length > 0, IDLE_END_MS))) {
        await Promise.all(inFlight);
        return;
      }
      continue;
    }
    const wakeAt = stepped.wakeAt === null ? nextReconcile : Math.min(stepped.wakeAt, nextReconcile);
    await condition(() => inbox.length > 0, Math.max(1, wakeAt - workflowNow()));
  }
}

/**
 * Answers the runs. A run that cannot be told (it has ended, or never existed) holds nothing: it is released, so its
 * place goes to the next one.
 */
async function tell(effects: GateEffects, now: number, freed: (runId: string) => void): Promise<void> {
  const gone = (runId: string) => () => freed(runId);
  // The admission's time travels with it: the run's start time is the gate's decision, not the signal's arrival.
  const admitted = { at: new Date(now).toISOString() };
  await Promise.all([
    ...effects.admit.map((runId) => getExternalWorkflowHandle(runId).signal(FLOW_ADMITTED_SIGNAL, admitted).catch(gone(runId))),
    ...effects.drop.map((d) => getExternalWorkflowHandle(d.runId).signal(FLOW_DROPPED_SIGNAL, { code: d.code, message: d.message }).catch(() => undefined)),
    ...effects.queued.map((q) => getExternalWorkflowHandle(q.runId).signal(FLOW_QUEUED_SIGNAL, { reason: q.reason }).catch(() => undefined)),
    ...effects.cancel.map((runId) => getExternalWorkflowHandle(runId).cancel().catch(gone(runId))),
  ]);
}

/** Releases the runs the gate holds whose rows say they have ended (see RECONCILE_EVERY_MS). */
async function releaseClosedRuns(organizationId: string, state: GateState): Promise<void> {
  const held = heldRunIds(state);
  if (!held.length) return;
  const open = new Set(await flowOpenRuns({ organizationId, runIds: held }));
  for (const runId of held) if (!open.has(runId)) release(state, runId);
}
