import './lib/quietNative';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { registerTenant } from './lib/api';
import { FULL, SMOKE, type BenchContext } from './lib/context';
import { buildForBench, REPO_ROOT } from './lib/procs';
import { writeReport } from './lib/report';
import type { BenchResult, ProfileSummary, Row, RunLatencyChart } from './lib/results';
import { createScratch, type Scratch } from './lib/scratch';
import { Stack, type StackOptions } from './lib/stack';
import { authScenario } from './scenarios/auth';
import { cancelScenario } from './scenarios/cancel';
import { clusterScenario } from './scenarios/cluster';
import { fairScenario } from './scenarios/fair';
import { fairnessScenario } from './scenarios/fairness';
import { flowScenario } from './scenarios/flow';
import { peerScenario } from './scenarios/peer';
import { profileScenario } from './scenarios/profile';
import { runsScenario, scaleScenario } from './scenarios/runs';
import { relevanceScenario } from './scenarios/relevance';
import { runListScenario } from './scenarios/runList';
import { searchScenario } from './scenarios/search';
import { soakScenario } from './scenarios/soak';
import { uploadScenario } from './scenarios/upload';
import { waitScenario } from './scenarios/wait';
import { waitingScenario } from './scenarios/waiting';

/**
 * `npm run bench` (full, ~10 minutes) or `npm run bench -- --smoke` (seconds of load; proves the suite works).
 * Options: `--out <dir>` (default bench/results), `--only auth,upload,search,relevance,runs,fair,runlist,scale,cancel,wait,waiting,fairness,flow,profile,peer,cluster,soak`, `--keep` (keep
 * the scratch folder with logs and profiles under .data/bench/<run id>). Environment: BENCH_LOG_LEVEL (the API's
 * LOG_LEVEL, default info as in production; workers stay at info).
 * The soak (30 minutes) runs in a full run only when asked: `--soak` adds it, `--only soak` runs it alone; a smoke run
 * includes its 2-minute version. `--soak-minutes N` and `--soak-rate R` (req/s, instead of half the measured ceiling)
 * change it.
 */
const SCENARIOS: Record<string, (ctx: BenchContext) => Promise<void>> = {
  auth: authScenario,
  upload: uploadScenario,
  search: searchScenario,
  relevance: relevanceScenario,
  runs: runsScenario,
  // The fair baselines of the login and of the CPU per run (hand-written endpoints); not the `fairness` rows.
  fair: fairScenario,
  runlist: runListScenario,
  scale: scaleScenario,
  cancel: cancelScenario,
  wait: waitScenario,
  waiting: waitingScenario,
  fairness: fairnessScenario,
  flow: flowScenario,
  profile: profileScenario,
  peer: peerScenario,
  // After every other row (the cluster is up only while it runs; an idle cluster still takes some CPU), before the soak.
  cluster: clusterScenario,
  soak: soakScenario,
};

function parseArgs(argv: string[]) {
  const has = (flag: string) => argv.includes(flag);
  const valueOf = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const positive = (flag: string): number | undefined => {
    const text = valueOf(flag);
    if (text === undefined) return undefined;
    const n = Number(text);
    if (!(n > 0) || !Number.isFinite(n)) throw new Error(`${flag} needs a positive number (got ${text})`);
    return n;
  };
  const only = valueOf('--only')?.split(',').map((s) => s.trim()).filter(Boolean);
  for (const name of only ?? []) if (!SCENARIOS[name]) throw new Error(`unknown scenario ${name} (known: ${Object.keys(SCENARIOS).join(', ')})`);
  // The 30-minute soak is opt-in for a full run; the smoke's 2-minute version always runs. The peer row is left out of
  // the smoke: starting n8n takes 30-80 s, and whether it is installed differs from machine to machine.
  const withSoak = has('--smoke') || has('--soak');
  const defaults = Object.keys(SCENARIOS).filter((name) => (name !== 'soak' || withSoak) && (name !== 'peer' || !has('--smoke')));
  const soakMinutes = positive('--soak-minutes');
  const soakRate = positive('--soak-rate');
  return {
    smoke: has('--smoke'),
    keep: has('--keep'),
    out: path.resolve(valueOf('--out') ?? path.join(REPO_ROOT, 'bench', 'results')),
    only: only ? [...only, ...(has('--soak') && !only.includes('soak') ? ['soak'] : [])] : defaults,
    soakOverrides: {
      ...(soakMinutes !== undefined ? { soakSeconds: Math.round(soakMinutes * 60) } : {}),
      ...(soakRate !== undefined ? { soakRate } : {}),
    },
  };
}

async function terminateLeftovers(scratch: Scratch): Promise<void> {
  const connection = await Connection.connect({ address: scratch.base.temporal.address });
  try {
    const client = new Client({ connection, namespace: scratch.base.temporal.namespace });
    for (const queue of [scratch.taskQueue, scratch.baselineTaskQueue]) {
      for await (const execution of client.workflow.list({ query: `TaskQueue = '${queue}' AND ExecutionStatus = 'Running'` })) {
        await client.workflow.getHandle(execution.workflowId, execution.runId).terminate('bench clean-up').catch(() => undefined);
      }
    }
  } finally {
    await connection.close();
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const params = { ...(args.smoke ? SMOKE : FULL), ...args.soakOverrides };
  const began = Date.now();
  const log = (line: string) => console.log(`[bench +${((Date.now() - began) / 1000).toFixed(1)}s] ${line}`);
  const rows: Row[] = [];
  const runLatency: RunLatencyChart[] = [];
  const profiles: ProfileSummary[] = [];
  const errors: { scenario: string; message: string }[] = [];
  const loadAverageAtStart = loadavg().map((l) => Math.round(l * 100) / 100);

  log(`${args.smoke ? 'smoke' : 'full'} run of ${args.only.join(', ')}; load average ${loadAverageAtStart.join(' ')}`);
  buildForBench();
  log('compiled the build the children run (npm run build)');
  const scratch = await createScratch(log);
  const stackOptions: StackOptions = {
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'info',
    extraEnv: { CONTENT_VECTOR_INDEX_THRESHOLD: String(params.vectorIndexThreshold) },
    // A CPU profile of every API and worker process (--cpu-prof), to find what holds an event loop in a scenario.
    ...(process.env.BENCH_PROFILE_DIR ? { profileDir: path.resolve(process.env.BENCH_PROFILE_DIR) } : {}),
  };
  const stack = new Stack(scratch, stackOptions);
  // The whole run is bounded, and interruptible: a hang, Ctrl-C or SIGTERM stops the children and cleans up.
  const abortCleanUps = new Set<() => Promise<void>>();
  const abort = (why: string, code: number) => {
    log(`${why}: stopping children and cleaning up`);
    void Promise.all([...abortCleanUps].map((cleanUp) => cleanUp().catch((err: Error) => log(`clean-up: ${err.message}`))))
      .then(() => stack.stopAll())
      .then(() => terminateLeftovers(scratch))
      .catch(() => undefined)
      .finally(() => scratch.cleanUp(args.keep).finally(() => process.exit(code)));
  };
  // The soak adds its own duration, plus its set-up, ceiling burst, drain and checks (each bounded, ~4 minutes at most);
  // the cluster scenario its measurements (~7 minutes full, ~2 smoke); the cluster's start is not counted (ctx.untimed).
  let limitMs =
    (args.smoke ? 6 : 20) * 60_000 +
    (args.only.includes('soak') ? params.soakSeconds * 1000 + 4 * 60_000 : 0) +
    (args.only.includes('cluster') ? (args.smoke ? 3 : 10) * 60_000 : 0);
  const limitFrom = Date.now();
  const deadline = () => limitFrom + limitMs;
  const fire = () => abort(`time limit of ${Math.round(limitMs / 60_000)} minutes reached`, 3);
  let watchdog = setTimeout(fire, deadline() - Date.now());
  const untimed = async <T>(work: () => Promise<T>): Promise<T> => {
    clearTimeout(watchdog);
    const paused = Date.now();
    try {
      return await work();
    } finally {
      limitMs += Date.now() - paused;
      watchdog = setTimeout(fire, Math.max(0, deadline() - Date.now()));
    }
  };
  process.once('SIGINT', () => abort('interrupted', 130));
  process.once('SIGTERM', () => abort('terminated', 143));
  try {
    log(`scratch ready (${scratch.dbName}, bucket ${scratch.bucket}, queue ${scratch.taskQueue}); starting API and workers`);
    await Promise.all([stack.startApi(), stack.startWorker(), stack.startBaselineWorker()]);
    const session = await registerTenant(stack.apiUrl, scratch.dbUrl, 'bench');
    const ctx: BenchContext = {
      params,
      scratch,
      stack,
      stackOptions,
      session,
      log,
      untimed,
      atAbort: (cleanUp) => {
        abortCleanUps.add(cleanUp);
        return () => abortCleanUps.delete(cleanUp);
      },
      addRow: (row) => {
        rows.push(row);
        log(`  row ${row.id}: ours ${row.ours.value} ${row.ours.unit}, baseline ${row.baseline.value ?? '-'}, ratio ${row.ratio ?? '-'}, met ${row.met}`);
      },
      addRunLatency: (entry) => runLatency.push(entry),
      addProfile: (profile) => profiles.push(profile),
    };
    for (const name of args.only) {
      log(`scenario ${name}`);
      try {
        await SCENARIOS[name]!(ctx);
      } catch (err) {
        const message = (err as Error).stack ?? String(err);
        errors.push({ scenario: name, message: (err as Error).message ?? String(err) });
        log(`scenario ${name} FAILED: ${message}`);
      }
    }
  } finally {
    clearTimeout(watchdog);
    await stack.stopAll();
    await terminateLeftovers(scratch).catch((err: Error) => log(`terminating leftover executions: ${err.message}`));
    await scratch.cleanUp(args.keep);
    if (args.keep) log(`scratch kept in ${scratch.dir}`);
  }

  const cpuList = cpus();
  const result: BenchResult = {
    mode: args.smoke ? 'smoke' : 'full',
    startedAt: new Date(began).toISOString(),
    finishedAt: new Date().toISOString(),
    durationSeconds: (Date.now() - began) / 1000,
    machine: {
      cpus: cpuList.length,
      model: cpuList[0]?.model.trim() ?? 'unknown',
      memoryGb: Math.round(totalmem() / 1024 ** 3),
      node: process.version,
      loadAverageAtStart,
    },
    rows,
    errors,
    runLatency,
    profiles,
  };
  await writeReport(args.out, result);
  log(`wrote ${path.join(args.out, 'latest.md')} (${rows.length} rows, ${errors.length} errors)`);
  process.exitCode = errors.length ? 1 : 0;
}

main().catch((err: unknown) => {
  console.error(`bench: ${(err as Error).stack ?? String(err)}`);
  process.exit(1);
});
