import type { ApiSession } from './api';
import type { Row, RunLatencyChart, ProfileSummary } from './results';
import type { Scratch } from './scratch';
import type { Stack, StackOptions } from './stack';

/** Durations and sizes of one bench run: `full` for the report, `smoke` to prove the suite works in CI. */
export interface BenchParams {
  httpSeconds: number;
  /** Load on each side of the authenticated-read row before it is measured (JIT, pools, caches). */
  httpWarmupSeconds: number;
  httpConnections: number;
  jwtIterations: number;
  loginSeconds: number;
  readsRate: number;
  /** Each side of a runs row is measured in `runRounds` alternating rounds of `runSeconds`. */
  runSeconds: number;
  runRounds: number;
  runConcurrency: number;
  ceilingSeconds: number;
  ceilingConcurrency: number;
  /** Passes over the ceiling's worker counts, alternately up and down (1, 2, 4, 4, 2, 1): rounds per count. */
  ceilingPasses: number;
  profileSeconds: number;
  uploadBytes: number;
  uploadRepeats: number;
  searchChunks: number;
  searchQueries: number;
  vectorIndexThreshold: number;
  loopItems: number;
  dagNodes: number;
  /** Each of the loop and large-DAG runs is cancelled (and reported as not completed) after this. */
  scaleTimeoutSeconds: number;
  /** Runs of the cancel-latency rows, and how long their tool is busy before the cancel. */
  cancelSamples: number;
  cancelBusyMs: number;
  /** Run and wait rows: samples per side (one request at a time) after `waitWarmup` of each. */
  waitSamples: number;
  waitWarmup: number;
  /** Fairness rows (bench/scenarios/fairness.ts): another organization's run-and-wait samples per phase (idle, each load). */
  fairnessSamples: number;
  /** Run list rows (bench/scenarios/runList.ts): runs of the large and the small organization, samples per query. */
  runListLarge: number;
  runListSmall: number;
  runListSamples: number;
  /**
   * Soak (bench/scenarios/soak.ts; opt-in in full runs): mixed open-loop load for `soakSeconds` at
   * `soakLoadFraction` of the mix's ceiling, measured first with `soakCeilingConcurrency` requests in flight for
   * `soakCeilingSeconds` unless `soakRate` (req/s, `--soak-rate`) fixes the rate. At most `soakMaxInFlight`
   * requests are out at once (more is "fell behind"); RSS is sampled every `soakRssEverySeconds`.
   */
  soakSeconds: number;
  soakRate: number | null;
  soakLoadFraction: number;
  soakCeilingSeconds: number;
  soakCeilingConcurrency: number;
  soakMaxInFlight: number;
  soakRssEverySeconds: number;
  /** Peer row (n8n beside ours, bench/scenarios/peer.ts): seconds per closed-loop round, connections. */
  peerSeconds: number;
  peerConcurrency: number;
  /** flow rows (bench/scenarios/flow.ts): runs per key under round_robin, runs under the throttle */
  flowRunsPerKey: number;
  flowThrottleRuns: number;
}

export const FULL: BenchParams = {
  httpSeconds: 10,
  httpWarmupSeconds: 3,
  httpConnections: 50,
  jwtIterations: 200_000,
  loginSeconds: 8,
  readsRate: 200,
  runSeconds: 10,
  runRounds: 2,
  runConcurrency: 8,
  ceilingSeconds: 15,
  ceilingConcurrency: 64,
  ceilingPasses: 2,
  profileSeconds: 15,
  uploadBytes: 100 * 1024 * 1024,
  uploadRepeats: 5,
  searchChunks: 100_000,
  searchQueries: 200,
  vectorIndexThreshold: 50_000,
  loopItems: 10_000,
  dagNodes: 1_000,
  scaleTimeoutSeconds: 240,
  cancelSamples: 20,
  cancelBusyMs: 3000,
  waitSamples: 200,
  waitWarmup: 10,
  fairnessSamples: 200,
  runListLarge: 100_000,
  runListSmall: 1_000,
  runListSamples: 40,
  soakSeconds: 1800,
  soakRate: null,
  soakLoadFraction: 0.5,
  soakCeilingSeconds: 10,
  soakCeilingConcurrency: 16,
  soakMaxInFlight: 64,
  soakRssEverySeconds: 5,
  peerSeconds: 10,
  peerConcurrency: 8,
  flowRunsPerKey: 100,
  flowThrottleRuns: 60,
};

export const SMOKE: BenchParams = {
  httpSeconds: 1,
  httpWarmupSeconds: 1,
  httpConnections: 50,
  jwtIterations: 5_000,
  loginSeconds: 1,
  readsRate: 50,
  runSeconds: 2,
  runRounds: 2,
  runConcurrency: 4,
  ceilingSeconds: 2,
  ceilingConcurrency: 8,
  ceilingPasses: 1,
  profileSeconds: 2,
  uploadBytes: 8 * 1024 * 1024,
  uploadRepeats: 1,
  searchChunks: 2_000,
  searchQueries: 20,
  // Low enough that smoke runs build and use the ANN index like the full run does.
  vectorIndexThreshold: 1_000,
  loopItems: 200,
  dagNodes: 50,
  scaleTimeoutSeconds: 180,
  cancelSamples: 3,
  cancelBusyMs: 500,
  waitSamples: 10,
  waitWarmup: 2,
  fairnessSamples: 10,
  runListLarge: 5_000,
  runListSmall: 500,
  runListSamples: 5,
  // Two minutes: long enough for the whole path (every kind, the checks, the slope's arithmetic), short enough for CI.
  soakSeconds: 120,
  soakRate: null,
  soakLoadFraction: 0.5,
  soakCeilingSeconds: 3,
  soakCeilingConcurrency: 16,
  soakMaxInFlight: 64,
  soakRssEverySeconds: 2,
  peerSeconds: 2,
  peerConcurrency: 4,
  flowRunsPerKey: 5,
  flowThrottleRuns: 14,
};

export interface BenchContext {
  params: BenchParams;
  scratch: Scratch;
  stack: Stack;
  stackOptions: StackOptions;
  session: ApiSession;
  log(line: string): void;
  /**
   * Runs `work` outside the run's time limit (bench/run.ts's watchdog), which moves back by the time it took: for a
   * wait that measures nothing and is long once (the Temporal cluster's first start builds its server, ~5 minutes).
   * `work` must bound itself.
   */
  untimed<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Registers what must be stopped if the run is cut short (time limit, Ctrl-C, SIGTERM) while a scenario holds it:
   * processes of its own, a cluster it started. Returns the function that unregisters it once the scenario has
   * cleaned up itself.
   */
  atAbort(cleanUp: () => Promise<void>): () => void;
  addRow(row: Row): void;
  addRunLatency(entry: RunLatencyChart): void;
  addProfile(profile: ProfileSummary): void;
}
