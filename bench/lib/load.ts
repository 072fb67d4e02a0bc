import { summarize, type LatencySummary } from './stats';

export interface ClosedLoopResult {
  completed: number;
  failed: number;
  seconds: number;
  perSecond: number;
  latency: LatencySummary;
  firstError?: string;
}

/** The raw outcome of one closed loop: every completed operation's latency (ms), failures, elapsed seconds. */
export interface ClosedLoopSamples {
  latencies: number[];
  failed: number;
  seconds: number;
  firstError?: string;
}

/**
 * Closed-loop load: `concurrency` lanes, each starting the next operation as soon as its previous one ended,
 * for `seconds`. Throughput counts operations that completed (started before the deadline) over the time until
 * the last of them ended; latency is start-to-end of each.
 */
export async function sampleClosedLoop(concurrency: number, seconds: number, operation: () => Promise<void>): Promise<ClosedLoopSamples> {
  const latencies: number[] = [];
  let failed = 0;
  let firstError: string | undefined;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await operation();
          latencies.push(performance.now() - t0);
        } catch (err) {
          failed += 1;
          firstError ??= (err as Error).message;
          // A failing operation must not spin: back off a little.
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    }),
  );
  return { latencies, failed, seconds: (performance.now() - start) / 1000, firstError };
}

/** Several loops of the same operation as one: all latencies pooled, throughput over their summed time. */
export function summarizeLoops(rounds: ClosedLoopSamples[]): ClosedLoopResult {
  const latencies = rounds.flatMap((r) => r.latencies);
  const seconds = rounds.reduce((total, r) => total + r.seconds, 0);
  return {
    completed: latencies.length,
    failed: rounds.reduce((total, r) => total + r.failed, 0),
    seconds,
    perSecond: latencies.length / seconds,
    latency: summarize(latencies),
    firstError: rounds.find((r) => r.firstError !== undefined)?.firstError,
  };
}

export async function closedLoop(concurrency: number, seconds: number, operation: () => Promise<void>): Promise<ClosedLoopResult> {
  return summarizeLoops([await sampleClosedLoop(concurrency, seconds, operation)]);
}

/**
 * The order to visit a curve's points in (the ceiling's worker counts): up the curve, then down it again on every
 * second pass (1, 2, 4, 4, 2, 1, ...). Each count's rounds then sit symmetrically in time, so a steady drift of the
 * box over the minutes (the dev server's SQLite file grows with every run) weighs on every count alike instead of
 * making the last one look slow.
 */
export function mirroredPasses<T>(points: readonly T[], passes: number): T[] {
  return Array.from({ length: passes }, (_, pass) => (pass % 2 === 0 ? [...points] : [...points].reverse())).flat();
}
