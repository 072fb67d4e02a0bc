import type { ConcurrencyStrategy } from '../dag/flowControl';

/**
 * The decisions of a workflow's flow gate (workflows/flow/gate.ts): which runs start, wait, are dropped or cancelled,
 * given the concurrency, throttle and debounce settings (lib/dag/flowControl.ts). Pure and deterministic: the gate
 * workflow keeps this state in its history and carries it across continue-as-new; `now` is workflow time.
 *
 * A run arrives with a ticket (its keys, priority and the settings of its workflow version); the gate answers each
 * run once with `admit` or `drop`, and `release` frees what an admitted run held when it ends (or what a waiting run
 * held when it is cancelled). Order: among waiting runs, a lower priority number first, then creation; a run whose
 * group is full or throttled holds back later runs of the same group (first come, first served within a group).
 */

export interface FlowSettings {
  concurrency?: { limit: number; strategy: ConcurrencyStrategy; keyLimit?: number };
  throttle?: { limit: number; periodMs: number };
  debounce?: { periodMs: number; mode: 'last' | 'first'; maxWaitMs?: number };
}

export interface FlowTicket {
  runId: string;
  /** 1 (first) to 5 (last). */
  priority: number;
  /**
   * When the run was created (epoch ms): queued runs go in this order, not in the order they reach the gate (each
   * run joins from its own first workflow task, so two runs started a millisecond apart may arrive either way).
   */
  createdAt?: number;
  /** The evaluated group of each control ('' = the workflow's one group). */
  keys: { concurrency: string; throttle: string; debounce: string };
  settings: FlowSettings;
}

export type FlowWaitReason = 'debounce' | 'concurrency' | 'throttle';

interface Waiting {
  ticket: FlowTicket;
  seq: number;
  since: number;
}

interface Held extends Waiting {
  until: number;
  /** When the first run of the burst arrived (max_wait counts from it). */
  burstStart: number;
}

interface Running {
  concurrencyKey: string;
  since: number;
  /** cancel_oldest asked it to stop: it keeps its place until its release. */
  cancelling: boolean;
}

export interface GateState {
  settings: FlowSettings;
  seq: number;
  waiting: Waiting[];
  /** debounce `last`: the run of each key waiting for its burst to end */
  held: Record<string, Held>;
  /** debounce `first`: until when later runs of each key are dropped */
  windows: Record<string, number>;
  running: Record<string, Running>;
  /** throttle: start times within the period, per key */
  starts: Record<string, number[]>;
  /** round_robin: keys in the order they were last served (least recently first) */
  turns: string[];
  /** runs answered `drop` (a repeated arrival gets the same answer): kept until the next continue-as-new */
  dropped: Record<string, { code: string; message: string }>;
}

export interface GateEffects {
  admit: string[];
  drop: { runId: string; code: string; message: string }[];
  cancel: string[];
  /** runs that wait, with why (told once, on arrival) */
  queued: { runId: string; reason: FlowWaitReason }[];
}

export function emptyGate(settings: FlowSettings = {}): GateState {
  return { settings, seq: 0, waiting: [], held: {}, windows: {}, running: {}, starts: {}, turns: [], dropped: {} };
}

function noEffects(): GateEffects {
  return { admit: [], drop: [], cancel: [], queued: [] };
}

/** Every run the gate holds a place or a ticket for: admitted, queued, or waiting out its debounce. */
export function heldRunIds(state: GateState): string[] {
  return [...Object.keys(state.running), ...state.waiting.map((w) => w.ticket.runId), ...Object.values(state.held).map((h) => h.ticket.runId)];
}

function runningOf(state: GateState, key: string): { total: number; active: number } {
  let total = 0;
  let active = 0;
  for (const r of Object.values(state.running)) {
    if (r.concurrencyKey !== key) continue;
    total += 1;
    if (!r.cancelling) active += 1;
  }
  return { total, active };
}

/**
 * A run asks to start. The newest ticket's settings become the gate's (a new workflow version applies to the runs
 * queued before it too). Debounce is decided here; the rest in `step`.
 */
export function arrive(state: GateState, ticket: FlowTicket, now: number): GateEffects {
  const effects = noEffects();
  const repeated = state.dropped[ticket.runId];
  if (repeated) {
    effects.drop.push({ runId: ticket.runId, ...repeated });
    return effects;
  }
  if (heldRunIds(state).includes(ticket.runId)) {
    // A repeated join (the run's activity retried): the first answer stands; an admitted run is told again.
    if (ticket.runId in state.running) effects.admit.push(ticket.runId);
    return effects;
  }
  state.settings = ticket.settings;
  state.seq += 1;
  const entry: Waiting = { ticket, seq: state.seq, since: now };
  const debounce = ticket.settings.debounce;
  const dk = ticket.keys.debounce;
  if (debounce?.mode === 'last') {
    const previous = state.held[dk];
    // The last *started* run wins: one created before the held one but arriving after it is the one replaced.
    if (previous && (ticket.createdAt ?? 0) < (previous.ticket.createdAt ?? 0)) {
      drop(state, effects, ticket.runId, 'DEBOUNCED', `replaced by a newer run of the same key (${previous.ticket.runId})`);
      return effects;
    }
    if (previous) drop(state, effects, previous.ticket.runId, 'DEBOUNCED', `replaced by a newer run of the same key (${ticket.runId})`);
    const burstStart = previous?.burstStart ?? now;
    const until = Math.min(now + debounce.periodMs, debounce.maxWaitMs !== undefined ? burstStart + debounce.maxWaitMs : Number.POSITIVE_INFINITY);
    state.held[dk] = { ...entry, until, burstStart };
    effects.queued.push({ runId: ticket.runId, reason: 'debounce' });
    return effects;
  }
  if (debounce?.mode === 'first') {
    const until = state.windows[dk];
    if (until !== undefined && until > now) {
      drop(state, effects, ticket.runId, 'DEBOUNCED', `a run of the same key started less than ${Math.round(debounce.periodMs / 1000)} s ago`);
      return effects;
    }
    state.windows[dk] = now + debounce.periodMs;
  }
  const concurrency = ticket.settings.concurrency;
  if (concurrency?.strategy === 'drop_newest') {
    const ahead = state.waiting.filter((w) => w.ticket.keys.concurrency === ticket.keys.concurrency).length;
    if (runningOf(state, ticket.keys.concurrency).total + ahead >= concurrency.limit) {
      drop(state, effects, ticket.runId, 'FLOW_DROPPED', `${concurrency.limit} runs of the same key are running, the limit`);
      return effects;
    }
  }
  state.waiting.push(entry);
  return effects;
}

function drop(state: GateState, effects: GateEffects, runId: string, code: string, message: string): void {
  state.dropped[runId] = { code, message };
  effects.drop.push({ runId, code, message });
}

/** A run ended (or was cancelled while it waited): what it held is free. Unknown runs are ignored. */
export function release(state: GateState, runId: string): void {
  delete state.running[runId];
  state.waiting = state.waiting.filter((w) => w.ticket.runId !== runId);
  for (const [key, held] of Object.entries(state.held)) if (held.ticket.runId === runId) delete state.held[key];
}

function throttleFree(state: GateState, ticket: FlowTicket, now: number): boolean {
  const throttle = state.settings.throttle;
  if (!throttle) return true;
  const recent = (state.starts[ticket.keys.throttle] ?? []).filter((t) => t > now - throttle.periodMs);
  return recent.length < throttle.limit;
}

/** Whether the ticket's group has room (runs admitted earlier in the same step are already in `running`). */
function concurrencyFree(state: GateState, ticket: FlowTicket): boolean {
  const concurrency = state.settings.concurrency;
  if (!concurrency) return true;
  const ofKey = runningOf(state, ticket.keys.concurrency).total;
  if (concurrency.strategy === 'round_robin') {
    return Object.keys(state.running).length < concurrency.limit && ofKey < (concurrency.keyLimit ?? concurrency.limit);
  }
  return ofKey < concurrency.limit;
}

function byPriorityThenArrival(a: Waiting, b: Waiting): number {
  return a.ticket.priority - b.ticket.priority || (a.ticket.createdAt ?? 0) - (b.ticket.createdAt ?? 0) || a.seq - b.seq;
}

/**
 * Starts every waiting run its group allows now, asks cancel_oldest's cancellations, and says when to look again
 * (the next debounce end or throttle slot; null: only an arrival or a release changes anything).
 */
export function step(state: GateState, now: number): { effects: GateEffects; wakeAt: number | null } {
  const effects = noEffects();
  // Debounced runs whose burst has ended join the queue (their first come first served counts from then).
  for (const [key, held] of Object.entries(state.held)) {
    if (held.until > now) continue;
    delete state.held[key];
    state.waiting.push({ ticket: held.ticket, seq: held.seq, since: held.since });
  }
  for (const [key, until] of Object.entries(state.windows)) if (until <= now) delete state.windows[key];
  const throttle = state.settings.throttle;
  for (const [key, times] of Object.entries(state.starts)) {
    const kept = throttle ? times.filter((t) => t > now - throttle.periodMs) : [];
    if (kept.length) state.starts[key] = kept;
    else delete state.starts[key];
  }

  const ordered = [...state.waiting].sort(byPriorityThenArrival);
  const admitted = new Set<string>();
  const blocked = { concurrency: new Set<string>(), throttle: new Set<string>() };
  const concurrency = state.settings.concurrency;

  const admit = (w: Waiting): void => {
    const { ticket } = w;
    admitted.add(ticket.runId);
    effects.admit.push(ticket.runId);
    state.running[ticket.runId] = { concurrencyKey: ticket.keys.concurrency, since: now, cancelling: false };
    if (throttle) (state.starts[ticket.keys.throttle] ??= []).push(now);
  };
  const tryAdmit = (w: Waiting): boolean => {
    const { keys } = w.ticket;
    if (blocked.concurrency.has(keys.concurrency) || blocked.throttle.has(keys.throttle)) return false;
    if (!concurrencyFree(state, w.ticket)) {
      blocked.concurrency.add(keys.concurrency);
      return false;
    }
    if (!throttleFree(state, w.ticket, now)) {
      blocked.throttle.add(keys.throttle);
      return false;
    }
    admit(w);
    return true;
  };

  if (concurrency?.strategy === 'round_robin') {
    // One run per key in turn, the least recently served key first, until the limit or the queue is spent.
    const byKey = new Map<string, Waiting[]>();
    for (const w of ordered) {
      const list = byKey.get(w.ticket.keys.concurrency) ?? [];
      list.push(w);
      byKey.set(w.ticket.keys.concurrency, list);
    }
    for (const key of byKey.keys()) if (!state.turns.includes(key)) state.turns.push(key);
    let progress = true;
    while (progress) {
      progress = false;
      for (const key of [...state.turns]) {
        const list = byKey.get(key);
        const head = list?.[0];
        if (!head || !tryAdmit(head)) continue;
        list.shift();
        state.turns = [...state.turns.filter((k) => k !== key), key];
        progress = true;
      }
    }
    state.turns = state.turns.filter((k) => byKey.get(k)?.length || runningOf(state, k).total > 0);
  } else {
    for (const w of ordered) tryAdmit(w);
  }
  state.waiting = state.waiting.filter((w) => !admitted.has(w.ticket.runId));

  // cancel_oldest: a full group with runs waiting cancels its oldest running runs, one per waiting run.
  if (concurrency?.strategy === 'cancel_oldest') {
    const waitingByKey = new Map<string, number>();
    for (const w of state.waiting) waitingByKey.set(w.ticket.keys.concurrency, (waitingByKey.get(w.ticket.keys.concurrency) ?? 0) + 1);
    for (const [key, count] of waitingByKey) {
      const { total, active } = runningOf(state, key);
      const cancelling = total - active;
      let toCancel = Math.min(count - cancelling, active);
      const oldest = Object.entries(state.running)
        .filter(([, r]) => r.concurrencyKey === key && !r.cancelling)
        .sort((a, b) => a[1].since - b[1].since || (a[0] < b[0] ? -1 : 1));
      for (const [runId, r] of oldest) {
        if (toCancel <= 0) break;
        r.cancelling = true;
        effects.cancel.push(runId);
        toCancel -= 1;
      }
    }
  }

  return { effects, wakeAt: nextWake(state, now) };
}

function nextWake(state: GateState, now: number): number | null {
  let wake = Number.POSITIVE_INFINITY;
  for (const held of Object.values(state.held)) wake = Math.min(wake, held.until);
  for (const until of Object.values(state.windows)) wake = Math.min(wake, until);
  const throttle = state.settings.throttle;
  if (throttle && state.waiting.length) {
    for (const times of Object.values(state.starts)) if (times.length >= throttle.limit) wake = Math.min(wake, times[times.length - throttle.limit]! + throttle.periodMs);
  }
  return Number.isFinite(wake) ? Math.max(wake, now) : null;
}

/** Why a waiting run waits (for its run view): the first control that holds it. */
export function waitReason(state: GateState, runId: string): FlowWaitReason | null {
  if (Object.values(state.held).some((h) => h.ticket.runId === runId)) return 'debounce';
  const w = state.waiting.find((x) => x.ticket.runId === runId);
  if (!w) return null;
  return concurrencyFree(state, w.ticket) ? 'throttle' : 'concurrency';
}

/** Whether the gate holds nothing: no waiting, held or running run, no open debounce window or throttle period. */
export function isIdle(state: GateState): boolean {
  return (
    state.waiting.length === 0 &&
    Object.keys(state.held).length === 0 &&
    Object.keys(state.running).length === 0 &&
    Object.keys(state.windows).length === 0 &&
    Object.keys(state.starts).length === 0
  );
}

/** Counts per key, for the API (`GET /api/v1/workflows/{id}/flow`). */
export interface FlowGroupCounts {
  key: string;
  running: number;
  waiting: number;
  debouncing: number;
}

export function groupCounts(state: GateState): FlowGroupCounts[] {
  const groups = new Map<string, FlowGroupCounts>();
  const group = (key: string): FlowGroupCounts => {
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, running: 0, waiting: 0, debouncing: 0 }));
    return g;
  };
  for (const r of Object.values(state.running)) group(r.concurrencyKey).running += 1;
  for (const w of state.waiting) group(w.ticket.keys.concurrency).waiting += 1;
  for (const h of Object.values(state.held)) group(h.ticket.keys.concurrency).debouncing += 1;
  return [...groups.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Signals and query of the gate and of the runs it answers (workflows/flow/gate.ts, workflows/runs/flowWait.ts). */
export const FLOW_ARRIVE_SIGNAL = 'flowArrive';
export const FLOW_RELEASE_SIGNAL = 'flowRelease';
export const FLOW_STATE_QUERY = 'flowState';
export const FLOW_ADMITTED_SIGNAL = 'flowAdmitted';
export const FLOW_DROPPED_SIGNAL = 'flowDropped';
export const FLOW_QUEUED_SIGNAL = 'flowQueued';

/**
 * The task queue of the flow gates: a queue of their own, served by a small worker beside the main one in every
 * worker process (worker/main.ts), so a gate's decisions never wait behind the workflow tasks of the runs it holds
 * back (on the shared queue, a throttle's next admission waited up to a second behind 60 runs' tasks).
 */
export function flowTaskQueue(taskQueue: string): string {
  return `${taskQueue}-flow`;
}

/** One gate per workflow (its id is a UUID, unique across organizations), found by this workflow id. */
export function flowGateWorkflowId(workflowId: string): string {
  return `flow-gate-${workflowId}`;
}

export interface FlowGateInput {
  organizationId: string;
  workflowId: string;
  /** carried across continue-as-new */
  state?: GateState;
}

export interface FlowGateView {
  groups: FlowGroupCounts[];
  settings: FlowSettings;
}

/** What a run carries to its gate (RunInput.flow). */
export interface RunFlow {
  gateId: string;
  ticket: FlowTicket;
}
