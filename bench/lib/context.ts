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
};

export interface BenchContext {
  params: BenchParams;
  scratch: Scratch;
  stack: Stack;
  stackOptions: StackOptions;
  session: ApiSession;
  log(line: string): void;
  addRow(row: Row): void;
  addRunLatency(entry: RunLatencyChart): void;
  addProfile(profile: ProfileSummary): void;
}
