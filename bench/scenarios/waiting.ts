import { randomUUID } from 'node:crypto';
import type { WorkflowExecutionDescription } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { Client as PgClient } from 'pg';
import { call } from '../lib/api';
import type { BenchContext } from '../lib/context';
import { ratioOf } from '../lib/results';
import { memoryOf } from '../lib/rss';
import { round, sleep, summarize } from '../lib/stats';
import { connectTemporal, type RunDriver } from './runs';

/**
 * Runs that wait in the middle (issue 42, docs/benchmarks.md#waiting-runs), beside a hand-written Temporal workflow
 * that waits for a signal (bench/baseline: `baselineSignalWaitWorkflow`), in the same run:
 * - resume latency: a run waits in a wait_for_event node; the bench publishes the event (POST /api/v1/events) and
 *   measures until the next node started (its recorded start); the baseline is signalled and measured until its
 *   activity started. One at a time, the sides alternating;
 * - 1,000 runs waiting at once: our workers' resident memory grown with them, and the Temporal history bytes of one
 *   waiting execution (proto size) times 1,000; the same for 1,000 baseline executions. Then every run is woken.
 */
const EVENT = 'custom.bench.go';
const MANY = 1000;

interface RunRead {
  status: string;
  node_states: Record<string, { status: string; startedAt: string | null; waiting_until?: string }>;
}

async function waitingWorkflow(ctx: BenchContext): Promise<string> {
  const created = await call<{ id: string }>(ctx.stack.apiUrl, 'POST', '/api/v1/workflows', {
    token: ctx.session.token,
    body: {
      name: 'bench waiting',
      parameters: [{ name: 'key', type: 'string', required: true }],
      dag: {
        nodes: [
          { id: 'go', type: 'wait_for_event', config: { event: EVENT, match: 'event.data.key == params.key || event.data.key == "all"', timeout: '30m' } },
          { id: 't1', type: 'tool', config: { tool: 'json_transform', config: { expression: '$', data: 1 } } },
        ],
        edges: [{ from: 'go', to: 't1' }],
      },
    },
  });
  return created.id;
}

const readRun = (ctx: BenchContext, workflowId: string, runId: string) =>
  call<RunRead>(ctx.stack.apiUrl, 'GET', `/api/v1/workflows/${workflowId}/runs/${runId}`, { token: ctx.session.token });

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s`);
    await sleep(10);
  }
}

async function startOurs(ctx: BenchContext, workflowId: string, key: string): Promise<string> {
  const run = await call<{ id: string }>(ctx.stack.apiUrl, 'POST', `/api/v1/workflows/${workflowId}/runs`, { token: ctx.session.token, body: { parameters: { key } } });
  return run.id;
}

const publish = (ctx: BenchContext, key: string) =>
  call(ctx.stack.apiUrl, 'POST', '/api/v1/events', { token: ctx.session.token, body: { type: EVENT, data: { key } }, expect: 202 });

async function resumeOurs(ctx: BenchContext, workflowId: string): Promise<number> {
  const key = randomUUID();
  const runId = await startOurs(ctx, workflowId, key);
  await until(() => readRun(ctx, workflowId, runId), (r) => Boolean(r.node_states.go?.waiting_until), `run ${runId} waiting`);
  await sleep(50); // the wait is recorded before its state shows; let the start activity settle
  const t0 = Date.now();
  await publish(ctx, key);
  const done = await until(() => readRun(ctx, workflowId, runId), (r) => Boolean(r.node_states.t1?.startedAt), `run ${runId} resuming`);
  return Date.parse(done.node_states.t1!.startedAt!) - t0;
}

function startBaseline(ctx: BenchContext, driver: RunDriver, key: string) {
  return driver.temporal.workflow.start('baselineSignalWaitWorkflow', {
    taskQueue: ctx.scratch.baselineTaskQueue,
    workflowId: `bench-waiting-${key}`,
    args: [key, 30 * 60_000],
    workflowExecutionTimeout: '40m',
  });
}

async function resumeBaseline(ctx: BenchContext, driver: RunDriver): Promise<number> {
  const key = randomUUID();
  const handle = await startBaseline(ctx, driver, key);
  // Waiting once its first workflow task completed (the handler is set).
  await until(() => handle.describe(), (d: WorkflowExecutionDescription) => d.historyLength >= 4, `baseline ${key} waiting`);
  await sleep(50);
  const t0 = Date.now();
  await handle.signal('go', { key });
  const { at } = (await handle.result()) as { at: number | null };
  if (at === null) throw new Error(`baseline ${key} timed out`);
  return at - t0;
}

/** The proto size of an execution's history so far: what Temporal stores for it. */
async function historyBytes(driver: RunDriver, workflowId: string): Promise<number> {
  const history = await driver.temporal.workflow.getHandle(workflowId).fetchHistory();
  return proto.api.history.v1.History.encode(history as proto.api.history.v1.IHistory).finish().length;
}

const rssOf = (pids: number[]): number => pids.reduce((sum, pid) => sum + (memoryOf(pid)?.rss ?? 0), 0);

export async function waitingScenario(ctx: BenchContext): Promise<void> {
  const driver = await connectTemporal(ctx);
  const samples = Math.max(10, Math.round(ctx.params.waitSamples / 2));
  try {
    const workflowId = await waitingWorkflow(ctx);
    await resumeOurs(ctx, workflowId);
    await resumeBaseline(ctx, driver);
    const oursMs: number[] = [];
    const baseMs: number[] = [];
    for (let i = 0; i < samples; i += 1) {
      if (i % 2 === 0) {
        oursMs.push(await resumeOurs(ctx, workflowId));
        baseMs.push(await resumeBaseline(ctx, driver));
      } else {
        baseMs.push(await resumeBaseline(ctx, driver));
        oursMs.push(await resumeOurs(ctx, workflowId));
      }
    }
    const o = summarize(oursMs);
    const b = summarize(baseMs);
    ctx.log(`  resume: ours p50 ${round(o.p50)} ms, p99 ${round(o.p99)} ms; baseline p50 ${round(b.p50)} ms, p99 ${round(b.p99)} ms`);
    for (const [id, label, ours, base] of [
      ['resume_p50', 'p50', o.p50, b.p50],
      ['resume_p99', 'p99', o.p99, b.p99],
    ] as const) {
      ctx.addRow({
        id,
        path: `A run waiting in a wait_for_event node: event published (POST /api/v1/events) to its next node started, ${label} (ms)`,
        baseline: { label: 'hand-written Temporal workflow: signal sent to its next activity started', value: round(base), unit: 'ms' },
        ours: { value: round(ours), unit: 'ms' },
        ratio: round(ratioOf(ours, base), 3),
        goal: '<= 2x baseline (the dispatcher matches and signals; the baseline is signalled directly)',
        met: ours <= 2 * base,
        notes: `${o.count} samples per side, one at a time, alternating; ours p90 ${round(o.p90)}, max ${round(o.max)} ms; baseline p90 ${round(b.p90)}, max ${round(b.max)} ms`,
        details: { ours: o, baseline: b },
      });
    }

    // 1,000 waiting at once, each side in turn, memory measured on its own workers.
    const many = ctx.params.waitSamples >= 100 ? MANY : 100;
    const ourPids = () => ctx.stack.workers.map((w) => w.pid);
    const basePids = () => ctx.stack.baselineWorkers.map((w) => w.pid);
    const oursBefore = rssOf(ourPids());
    const runIds: string[] = [];
    for (let i = 0; i < many; i += 20) {
      runIds.push(...(await Promise.all(Array.from({ length: Math.min(20, many - i) }, () => startOurs(ctx, workflowId, randomUUID())))));
    }
    const lastOurs = runIds[runIds.length - 1]!;
    await until(() => readRun(ctx, workflowId, lastOurs), (r) => Boolean(r.node_states.go?.waiting_until), 'the last of our waiting runs', 300_000);
    await sleep(2000);
    const oursAfter = rssOf(ourPids());
    const ourHistory = await historyBytes(driver, runIds[0]!);

    const baseBefore = rssOf(basePids());
    const keys = Array.from({ length: many }, () => randomUUID());
    for (let i = 0; i < many; i += 20) await Promise.all(keys.slice(i, i + 20).map((key) => startBaseline(ctx, driver, key)));
    const lastBase = driver.temporal.workflow.getHandle(`bench-waiting-${keys[keys.length - 1]}`);
    await until(() => lastBase.describe(), (d: WorkflowExecutionDescription) => d.historyLength >= 4, 'the last baseline waiting', 300_000);
    await sleep(2000);
    const baseAfter = rssOf(basePids());
    const baseHistory = await historyBytes(driver, `bench-waiting-${keys[0]}`);

    // Wake everything: one event wakes every waiting run of ours (up to 1,000 per event); the baseline, a signal each.
    // Fan-out: until the dispatcher signalled them all (their waits removed); drain: until the last run completed.
    const pg = new PgClient({ connectionString: ctx.scratch.dbUrl });
    await pg.connect();
    const t0 = Date.now();
    let fanOutMs = 0;
    let drainMs = 0;
    try {
      await publish(ctx, 'all');
      const waitsLeft = async () => Number((await pg.query<{ n: string }>('SELECT count(*) AS n FROM run_event_waits WHERE event_type = $1', [EVENT])).rows[0]!.n);
      await until(waitsLeft, (n) => n === 0, 'every wait signalled', 300_000);
      fanOutMs = Date.now() - t0;
      await until(() => readRun(ctx, workflowId, lastOurs), (r) => r.status === 'completed', 'the last of our runs woken', 300_000);
      drainMs = Date.now() - t0;
    } finally {
      await pg.end();
    }
    const b0 = Date.now();
    for (let i = 0; i < many; i += 50) {
      await Promise.all(keys.slice(i, i + 50).map((key) => driver.temporal.workflow.getHandle(`bench-waiting-${key}`).signal('go', { key })));
    }
    const baseSignalMs = Date.now() - b0;
    await lastBase.result();
    const baseDrainMs = Date.now() - b0;
    const wokeOursMs = drainMs;
    const mb = (bytes: number) => round(bytes / 1024 / 1024, 1);
    const oursGrowth = oursAfter - oursBefore;
    const baseGrowth = baseAfter - baseBefore;
    ctx.log(
      `  ${many} waiting: our workers +${mb(oursGrowth)} MB, history ${ourHistory} B each; baseline worker +${mb(baseGrowth)} MB, ` +
        `history ${baseHistory} B each; one event: all of ours signalled in ${fanOutMs} ms, completed in ${drainMs} ms; ` +
        `baseline: ${many} signals sent in ${baseSignalMs} ms, the last completed in ${baseDrainMs} ms`,
    );
    ctx.addRow({
      id: 'waiting_memory',
      path: `${many} runs waiting at once in a wait_for_event node: worker resident memory grown (MB)`,
      baseline: { label: `${many} hand-written executions waiting for a signal: baseline worker memory grown`, value: mb(baseGrowth), unit: 'MB' },
      ours: { value: mb(oursGrowth), unit: 'MB' },
      ratio: round(ratioOf(Math.max(oursGrowth, 1), Math.max(baseGrowth, 1)), 3),
      goal: '<= 1.5x baseline (both keep their waiting executions in the sticky cache)',
      met: oursGrowth <= 1.5 * Math.max(baseGrowth, 1),
      notes:
        `RSS of the worker processes before the first start and 2 s after the last one waits; ours ${ctx.stack.workers.length} worker(s). ` +
        `One event then reached all of ours in ${fanOutMs} ms (every wait signalled) and the last completed after ${wokeOursMs} ms; ` +
        `the baseline's ${many} signals took ${baseSignalMs} ms to send, its last execution completed after ${baseDrainMs} ms`,
      details: { oursBefore, oursAfter, baseBefore, baseAfter, fanOutMs, drainMs, baseSignalMs, baseDrainMs },
    });
    ctx.addRow({
      id: 'waiting_storage',
      path: `${many} runs waiting at once: Temporal history bytes (proto) of one waiting execution x ${many} (KB)`,
      baseline: { label: 'the hand-written signal-wait execution', value: round((baseHistory * many) / 1024), unit: 'KB' },
      ours: { value: round((ourHistory * many) / 1024), unit: 'KB' },
      ratio: round(ratioOf(ourHistory, baseHistory), 3),
      goal: '<= 8 kB per waiting run (absolute; ours also keeps a run row and a wait row in PostgreSQL)',
      met: ourHistory <= 8 * 1024,
      notes: `history of the first waiting execution of each side, fetched while it waits: ours ${ourHistory} B, baseline ${baseHistory} B`,
      details: { ourHistory, baseHistory },
    });
  } finally {
    await driver.connection.close();
  }
}
