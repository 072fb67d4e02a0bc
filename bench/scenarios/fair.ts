import { Client as PgClient } from 'pg';
import { call, registerUser } from '../lib/api';
import type { BenchContext } from '../lib/context';
import { freePort, spawnNode, waitForLog, type Child } from '../lib/procs';
import { ratioOf } from '../lib/results';
import { round } from '../lib/stats';
import { blast, combined, LOGIN_CONNECTIONS, type Blast } from './auth';
import { connectTemporal, cpuMsPerRun, createWorkflow, linearDag, measureAlternating, partsText, runOurs, within, type RunDriver } from './runs';

/**
 * The fair baselines (issue 46): the login and the CPU per 1-node run, each against a hand-written Koa endpoint
 * that does what a correct one must (bench/baseline/fairServer.ts), over HTTP from the bench like ours. The rows
 * `login` and `run_1node_cpu` stay as floors (raw bcrypt; a bare workflow started by the bench with no API).
 * `npm run bench -- --only fair` runs these two rows alone.
 */
export async function fairScenario(ctx: BenchContext): Promise<void> {
  const { scratch } = ctx;
  const port = await freePort();
  const server = spawnNode({
    name: 'baseline-fair',
    script: 'bench/baseline/fairServer.ts',
    env: {
      BENCH_BASELINE_PORT: String(port),
      DATABASE_URL: scratch.dbUrl,
      BENCH_JWT_SECRET: scratch.jwtSecret,
      BENCH_JWT_ISSUER: scratch.base.jwt.issuer,
      TEMPORAL_ADDRESS: scratch.base.temporal.address,
      TEMPORAL_NAMESPACE: scratch.base.temporal.namespace,
      BENCH_BASELINE_TASK_QUEUE: scratch.baselineTaskQueue,
    },
    logDir: scratch.logDir,
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  // Each row is measured even when the other failed; the first failure is the scenario's.
  const failures: unknown[] = [];
  try {
    await waitForLog(server, /baseline fair server listening/);
    for (const row of [() => loginFair(ctx, baseUrl), () => runCpuFair(ctx, baseUrl, server)]) {
      await row().catch((err: unknown) => {
        ctx.log(`  fair row failed: ${(err as Error).message}`);
        failures.push(err);
      });
    }
  } finally {
    await server.stop();
  }
  if (failures.length) throw failures[0];
}

/** One login through `url`, which must answer 200 with an access token: proves a path before it is measured. */
async function loginOnce(url: string, email: string, password: string): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  const text = await res.text();
  if (res.status !== 200 || !text.includes('accessToken')) throw new Error(`POST ${url} answered ${res.status}: ${text.slice(0, 300)}`);
}

/**
 * `login_fair`: POST /api/auth/login against the baseline's POST /login, the same user (so the same stored hash and
 * bcrypt cost), the same connections and round length as the `login` floor, in alternating rounds after a second of
 * warm-up each.
 */
async function loginFair(ctx: BenchContext, baseUrl: string): Promise<void> {
  const { params, stack } = ctx;
  const user = await registerUser(stack.apiUrl, 'login-fair');
  const ourUrl = `${stack.apiUrl}/api/auth/login`;
  const baselineUrl = `${baseUrl}/login`;
  await loginOnce(ourUrl, user.email, user.password);
  await loginOnce(baselineUrl, user.email, user.password);

  const options = { method: 'POST' as const, body: JSON.stringify({ email: user.email, password: user.password }) };
  const json = { 'content-type': 'application/json' };
  const connections = LOGIN_CONNECTIONS;
  await blast(baselineUrl, 1, connections, json, options);
  await blast(ourUrl, 1, connections, json, options);
  const rounds = 2;
  const baselineRounds: Blast[] = [];
  const ourRounds: Blast[] = [];
  for (let r = 0; r < rounds; r += 1) {
    baselineRounds.push(await blast(baselineUrl, params.loginSeconds, connections, json, options));
    ourRounds.push(await blast(ourUrl, params.loginSeconds, connections, json, options));
  }
  const baseline = combined(baselineRounds);
  const ours = combined(ourRounds);
  const ratio = ratioOf(ours.okPerSecond, baseline.okPerSecond);
  ctx.addRow({
    id: 'login_fair',
    path: `POST /api/auth/login, ${connections} connections (logins/s)`,
    baseline: {
      label: 'bare Koa route: user by e-mail (1 query), bcrypt.compare, 1 session insert, 1 JWT signed',
      value: round(baseline.okPerSecond),
      unit: 'logins/s',
    },
    ours: { value: round(ours.okPerSecond), unit: 'logins/s' },
    ratio: round(ratio, 3),
    goal: '>= 0.95x',
    met: ratio >= 0.95 && ours.non2xx === 0 && ours.errors === 0,
    notes:
      `${rounds} alternating rounds of ${params.loginSeconds} s per side after 1 s of warm-up each; per round, ours ` +
      `${ourRounds.map((b) => round(b.okPerSecond)).join(', ')}, baseline ${baselineRounds.map((b) => round(b.okPerSecond)).join(', ')} logins/s; ` +
      `worst-round p99 ours ${ours.p99} ms, baseline ${baseline.p99} ms; non-2xx ours ${ours.non2xx}, baseline ${baseline.non2xx}; ` +
      `errors ours ${ours.errors}, baseline ${baseline.errors}`,
    details: { ours, baseline, ourRounds, baselineRounds },
  });
}

/** Starts one run through the baseline endpoint and waits for its execution's result, as runOurs does for ours. */
async function runThroughBaseline(ctx: BenchContext, driver: RunDriver, baseUrl: string): Promise<void> {
  const run = await call<{ id: string }>(baseUrl, 'POST', '/runs', { token: ctx.session.token, body: { data: { n: 0 } } });
  const result = (await within(driver.temporal.workflow.getHandle(run.id).result(), 60_000, `baseline run ${run.id}`)) as { n?: number };
  if (result?.n !== 1) throw new Error(`baseline run ${run.id} returned ${JSON.stringify(result)}`);
}

/** The baseline's run rows by status: every completed execution must have recorded its completion. */
async function baselineRunRows(dbUrl: string): Promise<Record<string, number>> {
  const pg = new PgClient({ connectionString: dbUrl });
  await pg.connect();
  try {
    const { rows } = await pg.query<{ status: string; count: string }>('SELECT status, count(*) AS count FROM bench_baseline_runs GROUP BY status');
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
  } finally {
    await pg.end();
  }
}

/**
 * `run_1node_cpu_fair`: CPU of the whole stack per completed 1-node run, both sides started over HTTP by the bench
 * with the session's bearer token and observed the same way (the Temporal client waiting for the execution's
 * result). Ours: the real API and our workers; the baseline: the hand-written endpoint (counted as its `api`) and
 * the baseline worker. Same concurrency, round length and number of alternating rounds as `run_1node_cpu`.
 */
async function runCpuFair(ctx: BenchContext, baseUrl: string, server: Child): Promise<void> {
  const { params, stack } = ctx;
  const driver = await connectTemporal(ctx);
  try {
    const oneNode = await createWorkflow(ctx, 'bench fair 1-node', linearDag(1));
    await runOurs(ctx, driver, oneNode);
    await runThroughBaseline(ctx, driver, baseUrl);
    const c = params.runConcurrency;
    const [ours, base] = await measureAlternating(
      ctx,
      [
        { label: 'ours 1-node (fair row)', operation: () => runOurs(ctx, driver, oneNode), workerPids: () => stack.workers.map((w) => w.pid) },
        {
          label: 'baseline endpoint, 1 recorded step',
          operation: () => runThroughBaseline(ctx, driver, baseUrl),
          workerPids: () => stack.baselineWorkers.map((w) => w.pid),
          apiPid: () => server.pid,
        },
      ],
      c,
      params.runSeconds,
      params.runRounds,
    );
    const recorded = await baselineRunRows(ctx.scratch.dbUrl);
    const ourCpu = cpuMsPerRun(ours!);
    const baseCpu = cpuMsPerRun(base!);
    const ratio = ratioOf(ourCpu.total, baseCpu.total);
    ctx.addRow({
      id: 'run_1node_cpu_fair',
      path: `1-node DAG run started over HTTP, CPU of the whole stack per run (api + workers + temporal + postgres), ${c} in flight (ms)`,
      baseline: {
        label: 'hand-written Koa endpoint (JWT + session query, run row, workflow start) + 1 activity recording completion',
        value: baseCpu.total,
        unit: 'ms',
      },
      ours: { value: ourCpu.total, unit: 'ms' },
      ratio: round(ratio, 3),
      goal: '<= 1.0x',
      met: ratio <= 1 && ours!.failed === 0,
      notes:
        `ms of CPU per run, ours: ${partsText(ourCpu)}; baseline: ${partsText(baseCpu)} (its api is the endpoint's process); ` +
        `${params.runRounds} alternating rounds of ${params.runSeconds} s per side; ${round(ours!.perSecond)} vs ${round(base!.perSecond)} runs/s, ` +
        `p50 ${round(ours!.latency.p50)} vs ${round(base!.latency.p50)} ms; ${ours!.completed} runs (${ours!.failed} failed) vs ${base!.completed} (${base!.failed} failed); ` +
        `baseline run rows by status: ${Object.entries(recorded).map(([status, n]) => `${status} ${n}`).join(', ')}`,
      details: { ours: ourCpu, baseline: baseCpu, oursMeasured: ours, baselineMeasured: base, baselineRunRows: recorded },
    });
  } finally {
    await driver.connection.close();
  }
}
