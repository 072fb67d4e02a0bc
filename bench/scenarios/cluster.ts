import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { BenchContext } from '../lib/context';
import { clusterPostgresPids, clusterServerPids, devServerPids, stackCpuGroups, withDescendants, type PidGroups } from '../lib/cpu';
import { mirroredPasses } from '../lib/load';
import { REPO_ROOT } from '../lib/procs';
import { ratioOf, type Row } from '../lib/results';
import { Stack } from '../lib/stack';
import { round } from '../lib/stats';
import {
  CEILING_WORKERS,
  connectTemporal,
  cpuMsPerRun,
  createWorkflow,
  linearDag,
  measureRounds,
  perWorkerCpuGroups,
  pooled,
  roundRate,
  runBaseline,
  runOurs,
  type Measured,
  type RunDriver,
  type Side,
  type SideRounds,
} from './runs';

/**
 * The Temporal cluster beside the dev server, in the same run (issue 46): a second API, worker and baseline worker
 * on the same scratch database, bucket and task queue names, pointed at the real Temporal server of scripts/cluster
 * (frontend, history ×2, matching ×2, worker, its own PostgreSQL) instead of the dev server (one process, SQLite).
 * The quantities of the runs rows are measured on both, in alternating rounds: 1-node and 10-node throughput and CPU
 * per run, and the ceiling at 1, 2 and 4 worker processes. Every row's baseline is the same measurement on the dev
 * server; the hand-written baseline workflow runs on both in the 1-node rounds (ours / hand-written per server).
 * The cluster is used if it already serves, else started (`scripts/cluster up`) and stopped again at the end.
 */
const CLUSTER_ADDRESS = `127.0.0.1:${process.env.TEMPORAL_CLUSTER_PORT ?? '7333'}`;

/** `scripts/cluster up` from nothing takes ~20 s; the first one on a machine builds the server (~5 minutes). */
const UP_TIMEOUT_MS = 20 * 60_000;
const DOWN_TIMEOUT_MS = 2 * 60_000;

/** The parts of a run's CPU on either server: on the dev server `temporal_db` is 0 (SQLite is inside `temporal`). */
export const CLUSTER_PARTS = ['api', 'workers', 'temporal', 'temporal_db', 'postgres'] as const;
const SERVICES = ['frontend', 'history', 'matching', 'worker'] as const;
const SERVICE_PREFIX = 'service ';
/** The other Temporal server (and its database), idle while a side is measured: what it takes from the same cores. */
const NEIGHBOUR = 'idle other server';

type Server = 'dev' | 'cluster';

/** One Temporal server with the stack pointed at it. */
interface Target {
  server: Server;
  label: string;
  stack: Stack;
  ctx: BenchContext;
  driver: RunDriver;
}

async function clusterServes(address: string, namespace: string): Promise<boolean> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ address, connectTimeout: '3s' });
    await connection.workflowService.describeNamespace({ namespace });
    return true;
  } catch {
    return false;
  } finally {
    await connection?.close().catch(() => undefined);
  }
}

/** `bash scripts/cluster <args>`, its output appended to `logPath`; rejects with the log's end. */
function clusterScript(args: string[], logPath: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const out = openSync(logPath, 'a');
    const child = spawn('bash', [path.join(REPO_ROOT, 'scripts', 'cluster'), ...args], {
      cwd: REPO_ROOT,
      env: process.env,
      stdio: ['ignore', out, out],
    });
    closeSync(out);
    const timer = setTimeout(() => child.kill('SIGTERM'), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve();
      const tail = readFileSync(logPath, 'utf8').slice(-2000);
      reject(new Error(`scripts/cluster ${args.join(' ')} ${signal ? `stopped (${signal}, after ${timeoutMs / 1000} s)` : `exited ${code}`}; ${logPath}:\n${tail}`));
    });
  });
}

/** Terminates what is still open on the cluster on the run's queues (a failed round can leave runs behind). */
async function terminateLeftovers(target: Target): Promise<void> {
  const { scratch } = target.ctx;
  const client = new Client({ connection: target.driver.connection, namespace: scratch.base.temporal.namespace });
  for (const queue of [scratch.taskQueue, scratch.baselineTaskQueue]) {
    for await (const execution of client.workflow.list({ query: `TaskQueue = '${queue}' AND ExecutionStatus = 'Running'` })) {
      await client.workflow.getHandle(execution.workflowId, execution.runId).terminate('bench clean-up').catch(() => undefined);
    }
  }
}

/**
 * What a side's rounds read: its stack's parts (stackCpuGroups, on the cluster with its own PostgreSQL as
 * `temporal_db`), each of its worker processes, the cluster's services one by one, and the other server, idle.
 */
function cpuGroups(target: Target, workerPids: () => number[]): () => PidGroups {
  return () => {
    const groups: PidGroups = {
      ...stackCpuGroups(() => target.stack.api?.pid, workerPids, target.server),
      ...perWorkerCpuGroups(workerPids()),
    };
    if (target.server === 'cluster') {
      for (const service of SERVICES) {
        const pids = clusterServerPids(service);
        groups[`${SERVICE_PREFIX}${service}`] = () => pids;
      }
      const dev = devServerPids();
      groups[NEIGHBOUR] = () => dev;
    } else {
      const cluster = clusterServerPids();
      groups[NEIGHBOUR] = () => withDescendants([...cluster, ...clusterPostgresPids()]);
    }
    return groups;
  };
}

const ourSide = (target: Target, label: string, workflowId: string): Side => {
  const workerPids = () => target.stack.workers.map((w) => w.pid);
  return { label, operation: () => runOurs(target.ctx, target.driver, workflowId), workerPids, cpuGroups: cpuGroups(target, workerPids) };
};

const baselineSide = (target: Target, label: string, steps: number): Side => {
  const workerPids = () => target.stack.baselineWorkers.map((w) => w.pid);
  return { label, operation: () => runBaseline(target.ctx, target.driver, steps), workerPids, cpuGroups: cpuGroups(target, workerPids) };
};

const partsText = (cpu: Record<string, number>): string => CLUSTER_PARTS.map((part) => `${part} ${cpu[part] ?? 0}`).join(', ');

/** CPU % of one core by part, then the cluster's services and the idle neighbour. */
function cpuText(result: Measured): string {
  const services = SERVICES.filter((s) => result.cpu[`${SERVICE_PREFIX}${s}`] !== undefined).map((s) => `${s} ${result.cpu[`${SERVICE_PREFIX}${s}`]}`);
  return `${partsText(result.cpu)}${services.length ? ` (temporal by service: ${services.join(', ')})` : ''}; ${NEIGHBOUR} ${result.cpu[NEIGHBOUR] ?? 0}`;
}

/** ms of CPU per run by part, and the cluster's services' share of `temporal`. */
function perRun(result: Measured): Record<string, number> {
  const parts: Record<string, number> = cpuMsPerRun(result, CLUSTER_PARTS);
  for (const service of SERVICES) {
    const value = result.cpu[`${SERVICE_PREFIX}${service}`];
    if (value !== undefined) parts[`${SERVICE_PREFIX}${service}`] = round((value / 100) * 1000 / result.perSecond, 1);
  }
  return parts;
}

function perRunText(cpu: Record<string, number>): string {
  const services = SERVICES.filter((s) => cpu[`${SERVICE_PREFIX}${s}`] !== undefined).map((s) => `${s} ${cpu[`${SERVICE_PREFIX}${s}`]}`);
  return `${partsText(cpu)} (total ${cpu.total})${services.length ? `; temporal by service: ${services.join(', ')}` : ''}`;
}

/** Both sides completed every run: what each cluster row's "met" means (the ratio is reported, not judged). */
const complete = (...results: Measured[]): boolean => results.every((r) => r.completed > 0 && r.failed === 0);

async function setWorkers(stack: Stack, count: number): Promise<void> {
  while (stack.workers.length < count) await stack.startWorker();
  await stack.stopWorkers(count);
}

export async function clusterScenario(ctx: BenchContext): Promise<void> {
  const { params, scratch } = ctx;
  const namespace = scratch.base.temporal.namespace;
  let startedHere = false;
  if (await clusterServes(CLUSTER_ADDRESS, namespace)) {
    ctx.log(`  the Temporal cluster already serves at ${CLUSTER_ADDRESS}: using it (and leaving it up)`);
  } else {
    const record = path.join(scratch.dir, 'cluster-started');
    const logPath = path.join(scratch.logDir, 'cluster-up.log');
    ctx.log(`  starting the Temporal cluster (scripts/cluster up; log ${logPath})`);
    const t0 = performance.now();
    // Outside the time limit: the first start on a machine builds the server. Recorded: stopped at the end only if
    // this invocation started any of its processes.
    await ctx.untimed(() => clusterScript(['up', '--record', record], logPath, UP_TIMEOUT_MS));
    startedHere = existsSync(record) && readFileSync(record, 'utf8').includes('cluster');
    ctx.log(`  cluster up in ${round((performance.now() - t0) / 1000, 1)} s${startedHere ? '' : ' (nothing needed starting)'}`);
  }

  const clusterStack = new Stack(scratch, { ...ctx.stackOptions, temporalAddress: CLUSTER_ADDRESS, namePrefix: 'cluster-' });
  const drivers: RunDriver[] = [];
  let cluster: Target | undefined;
  let cleaned = false;
  const cleanUp = async () => {
    if (cleaned) return;
    cleaned = true;
    await clusterStack.stopAll();
    if (cluster) await terminateLeftovers(cluster).catch((err: Error) => ctx.log(`  terminating leftovers on the cluster: ${err.message}`));
    await Promise.all(drivers.map((d) => d.connection.close().catch(() => undefined)));
    if (startedHere) {
      await clusterScript(['down'], path.join(scratch.logDir, 'cluster-down.log'), DOWN_TIMEOUT_MS);
      ctx.log('  cluster stopped (this run started it)');
    }
  };
  const unregister = ctx.atAbort(cleanUp);
  try {
    await Promise.all([clusterStack.startApi(), clusterStack.startWorker(), clusterStack.startBaselineWorker()]);
    // The dev server's stack as the runs rows left it: one worker, one baseline worker.
    await setWorkers(ctx.stack, 1);
    if (!ctx.stack.baselineWorkers.length) await ctx.stack.startBaselineWorker();
    const devDriver = await connectTemporal(ctx);
    drivers.push(devDriver);
    const clusterDriver = await connectTemporal(ctx, CLUSTER_ADDRESS);
    drivers.push(clusterDriver);
    const dev: Target = { server: 'dev', label: 'dev server', stack: ctx.stack, ctx, driver: devDriver };
    cluster = { server: 'cluster', label: 'cluster', stack: clusterStack, ctx: { ...ctx, stack: clusterStack }, driver: clusterDriver };
    ctx.log(`  cluster stack up (API ${clusterStack.apiUrl}, Temporal ${CLUSTER_ADDRESS})`);

    const oneNode = await createWorkflow(ctx, 'bench cluster 1-node', linearDag(1));
    const tenNodes = await createWorkflow(ctx, 'bench cluster 10-node', linearDag(10));
    // Prove every path once before measuring (a broken one fails here with its real error).
    for (const target of [dev, cluster]) {
      await runOurs(target.ctx, target.driver, tenNodes);
      await runBaseline(target.ctx, target.driver, 1);
    }

    const c = params.runConcurrency;
    const warmup = { concurrency: Math.min(c, 4), seconds: Math.min(2, params.runSeconds) };
    const measure = async (sides: Side[]): Promise<Measured[]> => {
      const rounds = await measureRounds(sides, c, params.runSeconds, params.runRounds, warmup, () => ctx.stack.api?.pid);
      return sides.map((side, i) => pooled(ctx, side.label, rounds[i]!));
    };

    // 1-node: ours on both servers, and the hand-written workflow on both, four sides in alternating rounds.
    const [dev1, cluster1, devBase1, clusterBase1] = await measure([
      ourSide(dev, 'dev server, ours 1-node', oneNode),
      ourSide(cluster, 'cluster, ours 1-node', oneNode),
      baselineSide(dev, 'dev server, baseline 1-step', 1),
      baselineSide(cluster, 'cluster, baseline 1-step', 1),
    ]);
    const [dev10, cluster10] = await measure([ourSide(dev, 'dev server, ours 10-node', tenNodes), ourSide(cluster, 'cluster, ours 10-node', tenNodes)]);

    const rounds = `${params.runRounds} alternating rounds of ${params.runSeconds} s per side, ${c} in flight`;
    const devLabel = (what: string) => `the same ${what} on the Temporal dev server (SQLite), same run`;
    const overHandWritten = (ours: Measured, base: Measured) => round(ratioOf(ours.perSecond, base.perSecond), 3);
    for (const [nodes, onCluster, onDev] of [
      [1, cluster1, dev1],
      [10, cluster10, dev10],
    ] as const) {
      const ratio = ratioOf(onCluster!.perSecond, onDev!.perSecond);
      const handWritten =
        nodes === 1
          ? `; ours / hand-written 1-activity workflow: cluster ${overHandWritten(cluster1!, clusterBase1!)} (${round(cluster1!.perSecond)} vs ${round(clusterBase1!.perSecond)} runs/s), ` +
            `dev server ${overHandWritten(dev1!, devBase1!)} (${round(dev1!.perSecond)} vs ${round(devBase1!.perSecond)} runs/s)`
          : '';
      ctx.addRow({
        id: `cluster_run_${nodes}node_throughput`,
        path: `${nodes}-node DAG run on the Temporal cluster (scripts/cluster: 6 server processes, PostgreSQL), start to completed, ${c} in flight (runs/s)`,
        baseline: { label: devLabel(`${nodes}-node runs`), value: round(onDev!.perSecond), unit: 'runs/s' },
        ours: { value: round(onCluster!.perSecond), unit: 'runs/s' },
        ratio: round(ratio, 3),
        goal: 'every run completes (the ratio is reported: both servers share the same 2 cores)',
        met: complete(onCluster!, onDev!),
        notes:
          `${rounds}; ${onCluster!.completed} runs (${onCluster!.failed} failed) vs ${onDev!.completed} (${onDev!.failed} failed); ` +
          `p50 ${round(onCluster!.latency.p50)} vs ${round(onDev!.latency.p50)} ms, p99 ${round(onCluster!.latency.p99)} vs ${round(onDev!.latency.p99)} ms${handWritten}; ` +
          `CPU % of one core, cluster: ${cpuText(onCluster!)}; dev server: ${cpuText(onDev!)}`,
        details: { cluster: onCluster, dev: onDev, ...(nodes === 1 ? { clusterBaseline: clusterBase1, devBaseline: devBase1 } : {}) },
      });
      const clusterCpu = perRun(onCluster!);
      const devCpu = perRun(onDev!);
      const cpuRatio = ratioOf(clusterCpu.total!, devCpu.total!);
      const handWrittenCpu =
        nodes === 1 ? `; hand-written 1-activity workflow, cluster: ${perRunText(perRun(clusterBase1!))}; dev server: ${perRunText(perRun(devBase1!))}` : '';
      ctx.addRow({
        id: `cluster_run_${nodes}node_cpu`,
        path: `${nodes}-node DAG run on the Temporal cluster, CPU of the whole stack per run (api + workers + temporal + its PostgreSQL + Loom's PostgreSQL), ${c} in flight (ms)`,
        baseline: { label: devLabel(`${nodes}-node runs`), value: devCpu.total!, unit: 'ms' },
        ours: { value: clusterCpu.total!, unit: 'ms' },
        ratio: round(cpuRatio, 3),
        goal: 'report: where a run\'s CPU goes on a real cluster (docs/scaling.md#capacity-model); every run completes',
        met: complete(onCluster!, onDev!),
        notes: `ms of CPU per run, cluster: ${perRunText(clusterCpu)}; dev server: ${perRunText(devCpu)}${handWrittenCpu}`,
        details: { cluster: clusterCpu, dev: devCpu },
      });
    }

    // The ceiling: many runs in flight, 1, 2 then 4 worker processes on each server, visited in mirrored passes.
    const cc = params.ceilingConcurrency;
    const ceilingRounds = new Map<number, [SideRounds, SideRounds][]>();
    for (const workers of mirroredPasses(CEILING_WORKERS, params.ceilingPasses)) {
      await Promise.all([setWorkers(ctx.stack, workers), setWorkers(clusterStack, workers)]);
      const [onDev, onCluster] = await measureRounds(
        [ourSide(dev, `ceiling dev server, ${workers} worker(s)`, oneNode), ourSide(cluster, `ceiling cluster, ${workers} worker(s)`, oneNode)],
        cc,
        params.ceilingSeconds,
        1,
        // Workers just started are cold (JIT, bundles, expression threads): warmed at the measured concurrency.
        { concurrency: cc, seconds: Math.min(5, params.ceilingSeconds) },
        () => ctx.stack.api?.pid,
      );
      ctx.log(`  ceiling, ${workers} worker(s): cluster ${roundRate(onCluster!)} runs/s, dev server ${roundRate(onDev!)} runs/s`);
      ceilingRounds.set(workers, [...(ceilingRounds.get(workers) ?? []), [onDev!, onCluster!]]);
    }
    let single: { dev: Measured; cluster: Measured } | null = null;
    for (const workers of CEILING_WORKERS) {
      const points = ceilingRounds.get(workers)!;
      const join = (side: 0 | 1): SideRounds => ({ samples: points.flatMap((p) => p[side].samples), meters: points.flatMap((p) => p[side].meters) });
      const onDev = pooled(ctx, `ceiling dev server, ${workers} worker(s)`, join(0));
      const onCluster = pooled(ctx, `ceiling cluster, ${workers} worker(s)`, join(1));
      single ??= { dev: onDev, cluster: onCluster };
      const scaling = ratioOf(onCluster.perSecond, single.cluster.perSecond);
      const devScaling = ratioOf(onDev.perSecond, single.dev.perSecond);
      const row: Row = {
        id: `cluster_ceiling_${workers}_worker${workers > 1 ? 's' : ''}`,
        path: `Ceiling on the Temporal cluster, 1-node runs, ${cc} in flight, ${workers} worker process${workers > 1 ? 'es' : ''} (runs/s)`,
        baseline: { label: `the same on the Temporal dev server, ${workers} worker process${workers > 1 ? 'es' : ''}, same run`, value: round(onDev.perSecond), unit: 'runs/s' },
        ours: { value: round(onCluster.perSecond), unit: 'runs/s' },
        ratio: round(ratioOf(onCluster.perSecond, onDev.perSecond), 3),
        goal: 'every run completes (the ratio and the curve are reported)',
        met: complete(onCluster, onDev),
        notes:
          `${round(scaling, 3)}x of 1 worker process on the cluster, ${round(devScaling, 3)}x on the dev server; ` +
          `${points.length} rounds of ${params.ceilingSeconds} s per side in mirrored passes; per round, cluster: ${points.map((p) => roundRate(p[1])).join(', ')} runs/s, ` +
          `dev server: ${points.map((p) => roundRate(p[0])).join(', ')} runs/s; p50 ${round(onCluster.latency.p50)} vs ${round(onDev.latency.p50)} ms; ` +
          `${onCluster.failed} vs ${onDev.failed} failed; ms of CPU per run, cluster: ${perRunText(perRun(onCluster))}; dev server: ${perRunText(perRun(onDev))}`,
        details: { cluster: onCluster, dev: onDev, scalingVsOneWorker: scaling, devScalingVsOneWorker: devScaling, rounds: points.length },
      };
      ctx.addRow(row);
    }
    await setWorkers(ctx.stack, 1);
  } finally {
    unregister();
    await cleanUp();
  }
}
