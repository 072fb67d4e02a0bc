import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { call } from '../lib/api';
import type { BenchContext } from '../lib/context';
import { closedLoop, mirroredPasses, sampleClosedLoop, summarizeLoops, type ClosedLoopResult, type ClosedLoopSamples } from '../lib/load';
import { cpuMeter, stackCpuGroups, withDescendants, type PidGroups } from '../lib/cpu';
import { sampleRss } from '../lib/procs';
import { ratioOf } from '../lib/results';
import { round } from '../lib/stats';

/**
 * Rows 4, 5 and the stack ceiling: DAG runs through the real API and worker against the hand-written baseline
 * workflow (bench/baseline) on the same Temporal server, then loops and a large DAG (row 8). Completion of either
 * kind is observed the same way: the Temporal client waiting for the execution's result.
 */
const EXPRESSION = '{"n": n + 1}';

const cpuText = (cpu: Record<string, number>): string =>
  Object.entries(cpu)
    .filter(([k]) => !k.startsWith(WORKER_PREFIX))
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

/** Each worker process on its own too (`worker 1`, `worker 2`, ...), beside the `workers` sum: the scaling curve shows how the work spreads. */
const WORKER_PREFIX = 'worker ';

export function perWorkerCpuGroups(pids: number[]): PidGroups {
  return Object.fromEntries(pids.map((pid, i) => [`${WORKER_PREFIX}${i + 1}`, () => withDescendants([pid])]));
}

const perWorkerText = (cpu: Record<string, number>): string =>
  Object.entries(cpu)
    .filter(([k]) => k.startsWith(WORKER_PREFIX))
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

/** The stack's processes, each counted once (the per-worker entries repeat the `workers` sum). */
export const STACK_PARTS = ['api', 'workers', 'temporal', 'postgres'] as const;

/** A cpuMsPerRun split as text: `api 4.2, workers 11.2, temporal 13.1, postgres 2.7`. */
export const partsText = (cpu: Record<string, number>): string => STACK_PARTS.map((part) => `${part} ${cpu[part]}`).join(', ');

/**
 * CPU milliseconds the whole stack spends per completed run: each part's mean CPU (% of one core) over the measured
 * rounds, times a second, over the runs completed per second. Process accounting (/proc/<pid>/stat), so it includes
 * what profiles miss (the kernel's share of syscalls, GC threads, the Temporal server's goroutines).
 */
export function cpuMsPerRun<P extends string = (typeof STACK_PARTS)[number]>(
  result: Measured,
  stackParts: readonly P[] = STACK_PARTS as unknown as readonly P[],
): Record<P | 'total', number> {
  const per = (part: string) => ((result.cpu[part] ?? 0) / 100) * 1000 / result.perSecond;
  const parts = Object.fromEntries(stackParts.map((part) => [part, round(per(part), 1)])) as Record<P, number>;
  return { ...parts, total: round(stackParts.reduce((sum, part) => sum + per(part), 0), 1) } as Record<P | 'total', number>;
}
const FIRST_DATA = { n: 0 };

export interface RunDriver {
  temporal: Client;
  connection: Connection;
}

export async function connectTemporal(ctx: BenchContext, address = ctx.scratch.base.temporal.address): Promise<RunDriver> {
  const connection = await Connection.connect({ address });
  return { connection, temporal: new Client({ connection, namespace: ctx.scratch.base.temporal.namespace }) };
}

function toolNode(id: string, previous: string | null): Record<string, unknown> {
  return {
    id,
    type: 'tool',
    config: previous
      ? { tool: 'json_transform', config: { expression: EXPRESSION }, inputs: [{ name: 'data', from: `${previous}.result` }] }
      : { tool: 'json_transform', config: { expression: EXPRESSION, data: FIRST_DATA } },
  };
}

export function linearDag(steps: number): { nodes: unknown[]; edges: { from: string; to: string }[] } {
  const nodes = Array.from({ length: steps }, (_, i) => toolNode(`t${i + 1}`, i === 0 ? null : `t${i}`));
  const edges = Array.from({ length: steps - 1 }, (_, i) => ({ from: `t${i + 1}`, to: `t${i + 2}` }));
  return { nodes, edges };
}

export async function createWorkflow(ctx: BenchContext, name: string, dag: { nodes: unknown[]; edges: unknown[] }): Promise<string> {
  const created = await call<{ id: string }>(ctx.stack.apiUrl, 'POST', '/api/v1/workflows', {
    token: ctx.session.token,
    body: { name, dag },
  });
  return created.id;
}

export class RunTimeoutError extends Error {}

/** Resolves with the promise, or rejects with RunTimeoutError after `ms` (the promise is left to settle). */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RunTimeoutError(`${what} did not complete within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Starts a run through the API and waits for its execution to complete (a failed run throws). A run still open
 * after `timeoutMs` is cancelled through the API and reported as a RunTimeoutError, so one stuck run cannot hang
 * the bench.
 */
export async function runOurs(ctx: BenchContext, driver: RunDriver, workflowId: string, timeoutMs = 60_000): Promise<Record<string, unknown>> {
  const run = await call<{ id: string }>(ctx.stack.apiUrl, 'POST', `/api/v1/workflows/${workflowId}/runs`, {
    token: ctx.session.token,
    body: { parameters: {} },
  });
  let summary: { status: string };
  try {
    summary = (await within(driver.temporal.workflow.getHandle(run.id).result(), timeoutMs, `run ${run.id}`)) as { status: string };
  } catch (err) {
    if (err instanceof RunTimeoutError) {
      await call(ctx.stack.apiUrl, 'POST', `/api/v1/workflows/${workflowId}/runs/${run.id}/cancel`, { token: ctx.session.token, expect: 200 }).catch(() => undefined);
    }
    throw err;
  }
  if (summary.status !== 'completed') throw new Error(`run ${run.id} ended ${summary.status}`);
  return summary as Record<string, unknown>;
}

/** One hand-written baseline execution of `steps` activities, start to result (runs and run-and-wait rows). */
export async function runBaseline(ctx: BenchContext, driver: RunDriver, steps: number): Promise<void> {
  const result = (await driver.temporal.workflow.execute('baselineChainWorkflow', {
    taskQueue: ctx.scratch.baselineTaskQueue,
    workflowId: `bench-baseline-${randomUUID()}`,
    args: [steps, EXPRESSION, FIRST_DATA],
    // Same bound as ours: a stuck execution fails (and is counted) instead of hanging the bench.
    workflowExecutionTimeout: '60s',
  })) as { n: number };
  if (result.n !== steps) throw new Error(`baseline chain returned ${JSON.stringify(result)}`);
}

export interface Side {
  label: string;
  operation: () => Promise<unknown>;
  workerPids: () => number[];
  /** The process counted as this side's `api` (and its children); the real API's when not given. */
  apiPid?: () => number | undefined;
  /** The processes whose CPU is read over each round; default: the stack's parts (stackCpuGroups) and each worker. */
  cpuGroups?: () => PidGroups;
}

export type Measured = ClosedLoopResult & { cpu: Record<string, number> };

function logMeasured(ctx: BenchContext, label: string, result: Measured): void {
  ctx.log(
    `  ${label}: ${round(result.perSecond)} runs/s, p50 ${round(result.latency.p50)} ms, p99 ${round(result.latency.p99)} ms` +
      (result.failed ? `, ${result.failed} failed (${result.firstError})` : '') +
      `; CPU % of one core: ${Object.entries(result.cpu).map(([k, v]) => `${k} ${v}`).join(', ')}`,
  );
  if (result.completed === 0) throw new Error(`${label}: no run completed (${result.firstError ?? 'no error seen'})`);
}

/** One side's raw rounds: the loops' samples and the CPU meters read over each. */
export interface SideRounds {
  samples: ClosedLoopSamples[];
  meters: Record<string, number>[];
}

/**
 * Measures each side in `rounds` alternating closed loops of `seconds` (after a short warm-up of each: bundles
 * loaded, connections open, JIT warm): a drift of the machine over the minute (the Temporal dev server's SQLite
 * file, a neighbour of the host) then weighs on both sides alike instead of on whichever ran second.
 */
export async function measureRounds(
  sides: Side[],
  concurrency: number,
  seconds: number,
  rounds: number,
  warmup: { concurrency: number; seconds: number },
  apiPid: () => number | undefined,
): Promise<SideRounds[]> {
  for (const side of sides) {
    await closedLoop(warmup.concurrency, warmup.seconds, async () => void (await side.operation()));
  }
  const measured: SideRounds[] = sides.map(() => ({ samples: [], meters: [] }));
  for (let r = 0; r < rounds; r += 1) {
    for (const [i, side] of sides.entries()) {
      const meter = cpuMeter(side.cpuGroups?.() ?? { ...stackCpuGroups(side.apiPid ?? apiPid, side.workerPids), ...perWorkerCpuGroups(side.workerPids()) });
      measured[i]!.samples.push(await sampleClosedLoop(concurrency, seconds, async () => void (await side.operation())));
      measured[i]!.meters.push(meter.stop());
    }
  }
  return measured;
}

/** Runs/s of a side's first round (the ceiling measures one round per visit). */
export const roundRate = (rounds: SideRounds): number => round(rounds.samples[0]!.latencies.length / rounds.samples[0]!.seconds);

/** A side's rounds as one result: loops pooled, CPU the mean of the rounds' meters. */
export function pooled(ctx: BenchContext, label: string, rounds: SideRounds): Measured {
  const cpu: Record<string, number> = {};
  for (const name of Object.keys(rounds.meters[0]!)) {
    cpu[name] = round(rounds.meters.reduce((total, m) => total + (m[name] ?? 0), 0) / rounds.meters.length, 1);
  }
  const result = { ...summarizeLoops(rounds.samples), cpu };
  logMeasured(ctx, `${label} (${rounds.samples.length} rounds)`, result);
  return result;
}

export async function measureAlternating(
  ctx: BenchContext,
  sides: Side[],
  concurrency: number,
  seconds: number,
  rounds: number,
  warmup = { concurrency: Math.min(concurrency, 4), seconds: Math.min(2, seconds) },
): Promise<Measured[]> {
  const measured = await measureRounds(sides, concurrency, seconds, rounds, warmup, () => ctx.stack.api?.pid);
  return sides.map((side, i) => pooled(ctx, side.label, measured[i]!));
}

/** Worker processes of each kind in the ceiling rows: the scaling curve on one box. */
export const CEILING_WORKERS = [1, 2, 4] as const;

export async function runsScenario(ctx: BenchContext): Promise<void> {
  const { params, stack } = ctx;
  const driver = await connectTemporal(ctx);
  try {
    const oneNode = await createWorkflow(ctx, 'bench 1-node', linearDag(1));
    const tenNodes = await createWorkflow(ctx, 'bench 10-node', linearDag(10));
    // Prove both paths once before measuring (a broken path fails here with its real error).
    await runOurs(ctx, driver, tenNodes);
    await runBaseline(ctx, driver, 10);

    const c = params.runConcurrency;
    const ourPids = () => stack.workers.map((w) => w.pid);
    const basePids = () => stack.baselineWorkers.map((w) => w.pid);
    // Ours runs `workflowId` through the API; the baseline its hand-written chain of `steps` activities.
    const sides = (ourLabel: string, workflowId: string, baseLabel: string, steps: number): Side[] => [
      { label: ourLabel, operation: () => runOurs(ctx, driver, workflowId), workerPids: ourPids },
      { label: baseLabel, operation: () => runBaseline(ctx, driver, steps), workerPids: basePids },
    ];
    const [ours1, base1] = await measureAlternating(
      ctx,
      sides('ours 1-node', oneNode, 'baseline 1-step', 1),
      c,
      params.runSeconds,
      params.runRounds,
    );
    const [ours10, base10] = await measureAlternating(
      ctx,
      sides('ours 10-node', tenNodes, 'baseline 10-step', 10),
      c,
      params.runSeconds,
      params.runRounds,
    );
    for (const [label, r] of [
      ['1-node DAG (ours)', ours1],
      ['1 activity (baseline)', base1],
      ['10-node DAG (ours)', ours10],
      ['10 activities (baseline)', base10],
    ] as const) {
      ctx.addRunLatency({ label, p50: r.latency.p50, p90: r.latency.p90, p95: r.latency.p95, p99: r.latency.p99 });
    }

    const throughputRatio = ratioOf(ours1.perSecond, base1.perSecond);
    ctx.addRow({
      id: 'run_1node_throughput',
      path: `1-node DAG run, start to completed, ${c} in flight (runs/s)`,
      baseline: { label: 'minimal Temporal workflow, 1 activity', value: round(base1.perSecond), unit: 'runs/s' },
      ours: { value: round(ours1.perSecond), unit: 'runs/s' },
      ratio: round(throughputRatio, 3),
      goal: '>= 0.8x',
      met: throughputRatio >= 0.8 && ours1.failed === 0,
      notes: `${ours1.completed} runs (${ours1.failed} failed) vs ${base1.completed}; CPU % of one core, ours: ${cpuText(ours1.cpu)}; baseline: ${cpuText(base1.cpu)}`,
      details: { ours: ours1, baseline: base1 },
    });
    const p50Ratio = ratioOf(ours1.latency.p50, base1.latency.p50);
    ctx.addRow({
      id: 'run_1node_p50',
      path: '1-node DAG run, p50 start to completed (ms)',
      baseline: { label: 'minimal Temporal workflow, 1 activity', value: round(base1.latency.p50), unit: 'ms' },
      ours: { value: round(ours1.latency.p50), unit: 'ms' },
      ratio: round(p50Ratio, 3),
      goal: '<= 1.25x',
      met: p50Ratio <= 1.25,
    });
    const ourCpu = cpuMsPerRun(ours1);
    const baseCpu = cpuMsPerRun(base1);
    const cpuRatio = ratioOf(ourCpu.total, baseCpu.total);
    ctx.addRow({
      id: 'run_1node_cpu',
      path: `1-node DAG run, CPU of the whole stack per run (api + workers + temporal + postgres), ${c} in flight (ms)`,
      baseline: { label: 'floor: minimal Temporal workflow, 1 activity, started by the bench process, no API', value: baseCpu.total, unit: 'ms' },
      ours: { value: ourCpu.total, unit: 'ms' },
      ratio: round(cpuRatio, 3),
      goal: 'floor: bare workflow started by the bench, no API; <= 1x',
      met: cpuRatio <= 1,
      notes:
        `ms of CPU per run, ours: ${partsText(ourCpu)}; baseline: ${partsText(baseCpu)} (a floor: the baseline is started from the bench process, ` +
        `which is not counted, with no API, no authentication and no run row; its "api" is the idle real API)`,
      details: { ours: ourCpu, baseline: baseCpu },
    });
    // Per step: the 10-node run's extra latency over the 1-node run, spread over the 9 extra steps.
    const ourStep = (ours10.latency.p50 - ours1.latency.p50) / 9;
    const baseStep = (base10.latency.p50 - base1.latency.p50) / 9;
    const stepRatio = ratioOf(ourStep, baseStep);
    ctx.addRow({
      id: 'run_10node_step',
      path: '10-node linear DAG, time per step ((p50 10-node - p50 1-node) / 9, ms)',
      baseline: { label: '10 sequential activities, same derivation', value: round(baseStep), unit: 'ms' },
      ours: { value: round(ourStep), unit: 'ms' },
      ratio: round(stepRatio, 3),
      goal: '<= 1.25x',
      met: stepRatio <= 1.25,
      notes:
        `p50 10-node ${round(ours10.latency.p50)} ms vs ${round(base10.latency.p50)} ms; ${round(ours10.perSecond)} vs ${round(base10.perSecond)} runs/s; ` +
        `ms of CPU per 10-node run, ours: ${partsText(cpuMsPerRun(ours10))} (total ${cpuMsPerRun(ours10).total}); baseline: ${partsText(cpuMsPerRun(base10))} (total ${cpuMsPerRun(base10).total})`,
      details: { ours: ours10, baseline: base10 },
    });
    const ourP50Step = ours10.latency.p50 / 10;
    const baseP50Step = base10.latency.p50 / 10;
    ctx.addRow({
      id: 'run_10node_p50_step',
      path: '10-node linear DAG, p50 per step (p50 / 10, ms)',
      baseline: { label: '10 sequential activities', value: round(baseP50Step), unit: 'ms' },
      ours: { value: round(ourP50Step), unit: 'ms' },
      ratio: round(ratioOf(ourP50Step, baseP50Step), 3),
      goal: '<= 50 ms (absolute)',
      met: ourP50Step <= 50,
    });

    // The ceiling of the whole box and how it scales: many runs in flight, 1, 2 then 4 worker processes of each kind,
    // visited in mirrored passes and pooled per count (mirroredPasses).
    const cc = params.ceilingConcurrency;
    const ceilingRounds = new Map<number, [SideRounds, SideRounds][]>();
    for (const workers of mirroredPasses(CEILING_WORKERS, params.ceilingPasses)) {
      while (stack.workers.length < workers) await Promise.all([stack.startWorker(), stack.startBaselineWorker()]);
      await Promise.all([stack.stopWorkers(workers), stack.stopBaselineWorkers(workers)]);
      const [ours, base] = await measureRounds(
        sides(`ceiling ours, ${workers} worker(s)`, oneNode, `ceiling baseline, ${workers} worker(s)`, 1),
        cc,
        params.ceilingSeconds,
        1,
        // Workers just started have cold JIT, a workflow bundle to load per workflow thread and expression threads
        // to start: warmed at the measured concurrency, or the curve shows their start-up instead of their scaling.
        { concurrency: cc, seconds: Math.min(5, params.ceilingSeconds) },
        () => stack.api?.pid,
      );
      ctx.log(`  ceiling, ${workers} worker(s): ours ${roundRate(ours!)} runs/s, baseline ${roundRate(base!)} runs/s`);
      ceilingRounds.set(workers, [...(ceilingRounds.get(workers) ?? []), [ours!, base!]]);
    }
    let single: Measured | null = null;
    for (const workers of CEILING_WORKERS) {
      const points = ceilingRounds.get(workers)!;
      const join = (side: 0 | 1): SideRounds => ({ samples: points.flatMap((p) => p[side].samples), meters: points.flatMap((p) => p[side].meters) });
      const ours = pooled(ctx, `ceiling ours, ${workers} worker(s)`, join(0));
      const base = pooled(ctx, `ceiling baseline, ${workers} worker(s)`, join(1));
      single ??= ours;
      const ratio = ratioOf(ours.perSecond, base.perSecond);
      const scaling = ratioOf(ours.perSecond, single.perSecond);
      ctx.addRow({
        id: `ceiling_${workers}_worker${workers > 1 ? 's' : ''}`,
        path: `Stack ceiling, 1-node runs, ${cc} in flight, ${workers} worker process${workers > 1 ? 'es' : ''} (runs/s)`,
        baseline: { label: `minimal Temporal workflow, ${workers} baseline worker(s)`, value: round(base.perSecond), unit: 'runs/s' },
        ours: { value: round(ours.perSecond), unit: 'runs/s' },
        ratio: round(ratio, 3),
        goal: workers === 1 ? '>= 0.8x' : '>= 0.8x, and >= 0.95x of 1 worker process',
        met: ratio >= 0.8 && (workers === 1 || scaling >= 0.95),
        notes:
          `${round(scaling, 3)}x of 1 worker process; ${points.length} rounds of ${params.ceilingSeconds} s per side in mirrored passes; ` +
          `per round, ours: ${points.map((p) => roundRate(p[0])).join(', ')} runs/s; ` +
          `p50 ${round(ours.latency.p50)} ms vs ${round(base.latency.p50)} ms; ` +
          `CPU % of one core, ours: ${cpuText(ours.cpu)} (${perWorkerText(ours.cpu)}); baseline: ${cpuText(base.cpu)} (${perWorkerText(base.cpu)}); ` +
          `ms of CPU per run: ours ${cpuMsPerRun(ours).total}, baseline ${cpuMsPerRun(base).total}`,
        details: { ours, baseline: base, scalingVsOneWorker: scaling, rounds: points.length },
      });
    }
    await Promise.all([stack.stopWorkers(1), stack.stopBaselineWorkers(1)]);
  } finally {
    await driver.connection.close();
  }
}

/** Row 8: a loop over many items and a wide, deep DAG, each run alone; the worker's RSS is sampled throughout. */
export async function scaleScenario(ctx: BenchContext): Promise<void> {
  const { params, stack } = ctx;
  const driver = await connectTemporal(ctx);
  const worker = stack.workers[0]!;
  try {
    const loopWorkflow = await createWorkflow(ctx, `bench loop ${params.loopItems}`, {
      nodes: [
        { id: 'items', type: 'tool', config: { tool: 'json_transform', config: { expression: `[1..${params.loopItems}]` } } },
        {
          id: 'each',
          type: 'loop',
          config: {
            items: 'items.result',
            iterator: 'item',
            concurrency: 100,
            template: { type: 'tool', config: { tool: 'json_transform', config: { expression: '{"item": v}', data: { v: '${item}' } } } },
          },
        },
      ],
      edges: [{ from: 'items', to: 'each' }],
    });
    const layers = params.dagNodes >= 200 ? 20 : 10;
    const width = Math.ceil(params.dagNodes / layers);
    const nodes: unknown[] = [];
    const edges: { from: string; to: string }[] = [];
    for (let i = 0; i < params.dagNodes; i += 1) {
      const layer = Math.floor(i / width);
      const lane = i % width;
      const id = `n${layer}_${lane}`;
      const previous = layer > 0 ? `n${layer - 1}_${lane}` : null;
      nodes.push(toolNode(id, previous));
      if (previous) edges.push({ from: previous, to: id });
    }
    const dagWorkflow = await createWorkflow(ctx, `bench dag ${params.dagNodes}`, { nodes, edges });

    for (const [id, workflowId, label, count] of [
      ['loop_items', loopWorkflow, `Loop of ${params.loopItems} items (json_transform each, concurrency 100)`, params.loopItems],
      ['dag_nodes', dagWorkflow, `DAG of ${params.dagNodes} nodes (${width} chains x ${layers} layers)`, params.dagNodes],
    ] as const) {
      const rss = sampleRss(worker.pid);
      const started = performance.now();
      let error: string | null = null;
      try {
        await runOurs(ctx, driver, workflowId, params.scaleTimeoutSeconds * 1000);
      } catch (err) {
        error = (err as Error).message;
      }
      const seconds = (performance.now() - started) / 1000;
      const sample = rss.stop();
      const peakMb = sample.peak / 1024 / 1024;
      ctx.log(`  ${id}: ${error ? `FAILED ${error}` : 'completed'} in ${round(seconds)} s, worker peak RSS ${round(peakMb)} MB`);
      ctx.addRow({
        id,
        path: `${label}: worker peak RSS (MB)`,
        baseline: { label: 'worker RSS before the run', value: round(sample.start / 1024 / 1024), unit: 'MB' },
        ours: { value: round(peakMb), unit: 'MB' },
        ratio: round(ratioOf(sample.peak, sample.start), 3),
        goal: 'completes; RSS bounded (report peak)',
        met: error === null,
        notes: error ? `failed: ${error}` : `completed in ${round(seconds)} s (${round(count / seconds)} items or nodes/s)`,
        details: { seconds, rss: sample, error },
      });
    }
  } finally {
    await driver.connection.close();
  }
}
