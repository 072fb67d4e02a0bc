import { summarize, type LatencySummary } from './stats';

/**
 * Mixed load for the soak: several kinds of request, each with a weight, sent open-loop at a fixed total rate (the
 * next request leaves when it is due, whether or not earlier ones have answered), with a bound on how many may be
 * in flight. A request that is due while the bound is reached is not sent: it is counted as dropped ("fell
 * behind"), so a stack that cannot keep up shows as errors instead of as a silently lower rate.
 */

export interface SoakKind {
  name: string;
  /** Share of the requests, relative to the other kinds' weights. */
  weight: number;
  /** One request, checked: throws on any unexpected answer. */
  send: () => Promise<void>;
}

export interface KindStats {
  sent: number;
  ok: number;
  failed: number;
  dropped: number;
  latencyMs: LatencySummary;
  /** The first few distinct error messages, for the report. */
  errors: string[];
}

export interface OpenLoopResult {
  seconds: number;
  targetRate: number;
  /** Requests sent (answered or failed) per second over the run. */
  achievedRate: number;
  sent: number;
  ok: number;
  failed: number;
  dropped: number;
  /** In-flight requests at the end that did not settle within the drain time (counted as failed). */
  unsettled: number;
  maxInFlight: number;
  kinds: Record<string, KindStats>;
}

/**
 * Smooth weighted round robin (as nginx balances upstreams): over any window the kinds come out in proportion to
 * their weights, interleaved, deterministically. A random pick would drift from the mix in a short smoke run.
 */
export function weightedPicker<T extends { weight: number }>(items: T[]): () => T {
  const total = items.reduce((s, i) => s + i.weight, 0);
  if (!(total > 0)) throw new Error('weightedPicker needs a positive total weight');
  const current = items.map(() => 0);
  return () => {
    let best = 0;
    for (let i = 0; i < items.length; i += 1) {
      current[i] += items[i].weight;
      if (current[i] > current[best]) best = i;
    }
    current[best] -= total;
    return items[best];
  };
}

interface Tally {
  sent: number;
  ok: number;
  failed: number;
  dropped: number;
  latencies: number[];
  errors: string[];
}

const newTally = (): Tally => ({ sent: 0, ok: 0, failed: 0, dropped: 0, latencies: [], errors: [] });

function noteError(tally: Tally, message: string): void {
  const short = message.slice(0, 300);
  if (tally.errors.length < 5 && !tally.errors.includes(short)) tally.errors.push(short);
}

/**
 * Sends `rate` requests per second for `seconds`, picking kinds by weight, at most `maxInFlight` at once. The
 * scheduler wakes every `tickMs` and sends what has come due since the start (so a late tick catches up instead of
 * lowering the rate); it stops at the deadline, then waits at most `drainMs` for the requests still out. Every
 * loop is bounded: at most rate × seconds + 1 requests are ever due.
 */
export async function openLoop(options: {
  kinds: SoakKind[];
  rate: number;
  seconds: number;
  maxInFlight: number;
  drainMs: number;
  tickMs?: number;
  /** Called about once a minute with the counts so far (progress for the log). */
  onProgress?: (progress: { elapsedSeconds: number; sent: number; failed: number; dropped: number; inFlight: number }) => void;
}): Promise<OpenLoopResult> {
  const { kinds, rate, seconds, maxInFlight, drainMs, tickMs = 10 } = options;
  const pick = weightedPicker(kinds);
  const tallies = new Map(kinds.map((k) => [k.name, newTally()]));
  const pending = new Set<Promise<void>>();
  let due = 0;
  let peakInFlight = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const total = Math.floor(rate * seconds);

  const launch = (kind: SoakKind) => {
    const tally = tallies.get(kind.name)!;
    if (pending.size >= maxInFlight) {
      tally.dropped += 1;
      noteError(tally, `fell behind: ${maxInFlight} requests already in flight`);
      return;
    }
    tally.sent += 1;
    const t0 = performance.now();
    const request: Promise<void> = kind
      .send()
      .then(
        () => {
          tally.ok += 1;
          tally.latencies.push(performance.now() - t0);
        },
        (err: unknown) => {
          tally.failed += 1;
          noteError(tally, err instanceof Error ? err.message : String(err));
        },
      )
      .finally(() => pending.delete(request));
    pending.add(request);
    peakInFlight = Math.max(peakInFlight, pending.size);
  };

  let lastReport = start;
  while (due < total) {
    const now = performance.now();
    if (now >= deadline) break;
    const shouldHaveSent = Math.min(total, Math.floor(((now - start) / 1000) * rate));
    while (due < shouldHaveSent) {
      due += 1;
      launch(pick());
    }
    if (options.onProgress && now - lastReport >= 60_000) {
      lastReport = now;
      let sent = 0;
      let failed = 0;
      let dropped = 0;
      for (const t of tallies.values()) {
        sent += t.sent;
        failed += t.failed;
        dropped += t.dropped;
      }
      options.onProgress({ elapsedSeconds: (now - start) / 1000, sent, failed, dropped, inFlight: pending.size });
    }
    await new Promise((resolve) => setTimeout(resolve, tickMs));
  }
  const elapsed = (performance.now() - start) / 1000;

  // Drain: the requests still out get `drainMs` (their own timeouts are shorter), then are counted as failed.
  let unsettled = 0;
  if (pending.size) {
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      Promise.allSettled([...pending]).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), drainMs);
      }),
    ]);
    clearTimeout(timer);
    if (!drained) unsettled = pending.size;
  }

  const kindsOut: Record<string, KindStats> = {};
  let sent = 0;
  let ok = 0;
  let failed = unsettled;
  let dropped = 0;
  for (const [name, t] of tallies) {
    kindsOut[name] = { sent: t.sent, ok: t.ok, failed: t.failed, dropped: t.dropped, latencyMs: summarize(t.latencies), errors: t.errors };
    sent += t.sent;
    ok += t.ok;
    failed += t.failed;
    dropped += t.dropped;
  }
  return {
    seconds: elapsed,
    targetRate: rate,
    achievedRate: sent / elapsed,
    sent,
    ok,
    failed,
    dropped,
    unsettled,
    maxInFlight: peakInFlight,
    kinds: kindsOut,
  };
}
