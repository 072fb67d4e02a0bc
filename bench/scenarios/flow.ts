import { randomUUID } from 'node:crypto';
import { call } from '../lib/api';
import type { BenchContext } from '../lib/context';
import { sampleClosedLoop, summarizeLoops } from '../lib/load';
import { ratioOf } from '../lib/results';
import { round, sleep } from '../lib/stats';
import { connectTemporal, type RunDriver } from './runs';

/**
 * Flow control (issue 45, docs/runs.md#flow-control), each row beside the theoretical value or a plain run measured
 * in the same bench run:
 * - `flow_rr_lag`: 3 keys x `flowRunsPerKey` runs queued behind a full round_robin gate (the busy key's runs
 *   created first); from the order the gate admitted them (their rows' started_at), the largest lead one key had
 *   over another while all three still had runs queued. Perfect turns: 1.
 * - `flow_throttle`: `flowThrottleRuns` runs at once under a throttle of 10 per 2 s; admissions per period over the
 *   drain (the rows' started_at), beside the limit (10). Never over, and not far under.
 * - `flow_key_overhead`: 1-node runs/s with a concurrency key (every run its own key, limit never reached: the
 *   gate's round trip alone) beside the same 1-node workflow without flow control, alternating rounds.
 */

interface RunView {
  id: string;
  status: string;
  started_at: string;
  parameters: Record<string, unknown>;
  node_states: Record<string, { startedAt: string | null }>;
}

const NODE = { id: 'step', type: 'tool', config: { tool: 'json_transform', config: { expression: '$', data: { ok: true } } } };
const THROTTLE = { limit: 10, periodMs: 2000 };

async function saveWorkflow(ctx: BenchContext, name: string, flow: unknown, nodes: unknown[] = [NODE]): Promise<string> {
  const created = await call<{ id: string }>(ctx.stack.apiUrl, 'POST', '/api/v1/workflows', {
    token: ctx.session.token,
    body: { name, parameters: [{ name: 'k', type: 'string' }], dag: { nodes }, ...(flow ? { flow } : {}) },
  });
  return created.id;
}

async function start(ctx: BenchContext, workflowId: string, k: string): Promise<string> {
  const run = await call<{ id: string }>(ctx.stack.apiUrl, 'POST', `/api/v1/workflows/${workflowId}/runs`, {
    token: ctx.session.token,
    body: { parameters: { k } },
  });
  return run.id;
}

/** Starts runs `lanes` at a time, in the order given (each lane takes the next). */
async function startAll(ctx: BenchContext, workflowId: string, keys: string[], lanes = 8): Promise<string[]> {
  const ids: string[] = new Array(keys.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: lanes }, async () => {
      while (next < keys.length) {
        const i = next++;
        ids[i] = await start(ctx, workflowId, keys[i]!);
      }
    }),
  );
  return ids;
}

async function finishedRuns(ctx: BenchContext, driver: RunDriver, workflowId: string, ids: string[]): Promise<RunView[]> {
  await Promise.all(ids.map((id) => driver.temporal.workflow.getHandle(id).result().catch(() => undefined)));
  const out: RunView[] = [];
  for (const id of ids) out.push(await call<RunView>(ctx.stack.apiUrl, 'GET', `/api/v1/workflows/${workflowId}/runs/${id}`, { token: ctx.session.token }));
  const notCompleted = out.filter((r) => r.status !== 'completed');
  if (notCompleted.length) throw new Error(`${notCompleted.length} runs did not complete (first: ${notCompleted[0]!.status})`);
  return out;
}

const nodeStart = (run: RunView): number => Date.parse(run.node_states.step!.startedAt!);
/** When the gate admitted the run (its row's started_at, written when it starts running). */
const startedAt = (run: RunView): number => Date.parse(run.started_at);

/**
 * The largest lead of one key over another after each of the gate's passes (the runs it admitted at one moment
 * start together: their order within the pass means nothing), while every key still has runs to start.
 */
export function maxLeadWhileAllQueued(passes: string[][], keys: string[]): number {
  const left = new Map(keys.map((k) => [k, passes.flat().filter((o) => o === k).length]));
  const started = new Map(keys.map((k) => [k, 0]));
  let lead = 0;
  for (const pass of passes) {
    if ([...left.values()].some((n) => n === 0)) break;
    for (const key of pass) {
      started.set(key, started.get(key)! + 1);
      left.set(key, left.get(key)! - 1);
    }
    const counts = [...started.values()];
    lead = Math.max(lead, Math.max(...counts) - Math.min(...counts));
  }
  return lead;
}

async function roundRobinRow(ctx: BenchContext, driver: RunDriver): Promise<void> {
  const perKey = ctx.params.flowRunsPerKey;
  const workflowId = await saveWorkflow(ctx, 'bench flow round robin', { concurrency: { limit: 3, key: 'params.k', strategy: 'round_robin' } }, [
    { id: 'step', type: 'tool', config: { tool: 'delay', config: { ms: '${params.k == "z" ? 600000 : 50}' } } },
  ]);
  // Three blockers fill the gate; everything after them queues, the busy key's runs first; then the blockers are
  // cancelled and the queue drains.
  const blockers = await startAll(ctx, workflowId, ['z', 'z', 'z'], 3);
  await sleep(1000);
  const keys = [...Array(perKey).fill('a'), ...Array(perKey).fill('b'), ...Array(perKey).fill('c')] as string[];
  const t0 = performance.now();
  const ids = await startAll(ctx, workflowId, keys);
  const submittedMs = performance.now() - t0;
  for (const id of blockers) {
    await call(ctx.stack.apiUrl, 'POST', `/api/v1/workflows/${workflowId}/runs/${id}/cancel`, { token: ctx.session.token, expect: 200 });
  }
  const drainStart = performance.now();
  const runs = await finishedRuns(ctx, driver, workflowId, ids);
  const drainMs = performance.now() - drainStart;
  const sorted = runs.sort((x, y) => startedAt(x) - startedAt(y) || nodeStart(x) - nodeStart(y));
  const passes: string[][] = [];
  let passAt = Number.NaN;
  for (const run of sorted) {
    if (startedAt(run) !== passAt) passes.push([]);
    passAt = startedAt(run);
    passes[passes.length - 1]!.push(run.parameters.k as string);
  }
  const order = passes.flat();
  const lead = maxLeadWhileAllQueued(passes, ['a', 'b', 'c']);
  ctx.log(`  flow round robin: ${ids.length} runs, largest lead ${lead}, submitted in ${round(submittedMs)} ms, drained in ${round(drainMs)} ms`);
  ctx.addRow({
    id: 'flow_rr_lag',
    path: `round_robin, 3 keys x ${perKey} runs queued (busy key first): largest lead of a key while all have runs queued (runs)`,
    baseline: { label: 'theoretical: strict turns', value: 1, unit: 'runs' },
    ours: { value: lead, unit: 'runs' },
    ratio: round(ratioOf(lead, 1), 3),
    goal: '<= 1',
    met: lead <= 1,
    notes:
      `limit 3 across keys; ${ids.length} runs queued in ${round(submittedMs)} ms behind 3 blockers, then drained in ${round(drainMs)} ms ` +
      `(${round(ids.length / (drainMs / 1000))} runs/s); order by admission (the runs' started_at); first 30: ${order.slice(0, 30).join('')}`,
    details: { order: order.join('') },
  });
}

async function throttleRow(ctx: BenchContext, driver: RunDriver): Promise<void> {
  const n = ctx.params.flowThrottleRuns;
  const workflowId = await saveWorkflow(ctx, 'bench flow throttle', { throttle: { limit: THROTTLE.limit, period: `${THROTTLE.periodMs / 1000}s` } });
  const ids = await startAll(ctx, workflowId, Array.from({ length: n }, (_, i) => String(i)));
  const starts = (await finishedRuns(ctx, driver, workflowId, ids)).map(startedAt).sort((a, b) => a - b);
  // Full periods of the drain: from the first start to the start of the last batch.
  const periods = (starts[starts.length - 1]! - starts[0]!) / THROTTLE.periodMs;
  const perPeriod = periods > 0 ? (n - THROTTLE.limit) / periods : Number.NaN;
  let maxInWindow = 0;
  for (let i = 0; i < starts.length; i++) {
    let j = i;
    while (j < starts.length && starts[j]! < starts[i]! + THROTTLE.periodMs) j++;
    maxInWindow = Math.max(maxInWindow, j - i);
  }
  ctx.log(`  flow throttle: ${n} runs, ${round(perPeriod)} starts per period over ${round(periods)} periods, at most ${maxInWindow} in one period`);
  ctx.addRow({
    id: 'flow_throttle',
    path: `throttle ${THROTTLE.limit} per ${THROTTLE.periodMs / 1000} s, ${n} runs started at once: starts per period over the drain (runs)`,
    baseline: { label: 'theoretical: the limit', value: THROTTLE.limit, unit: 'runs' },
    ours: { value: round(perPeriod), unit: 'runs' },
    ratio: round(ratioOf(perPeriod, THROTTLE.limit), 3),
    goal: 'between 0.9x and 1x of the limit, never more than the limit in one period',
    met: perPeriod <= THROTTLE.limit && perPeriod >= 0.9 * THROTTLE.limit && maxInWindow <= THROTTLE.limit,
    notes: `${round(periods)} periods from the first admission to the last (the runs' started_at); at most ${maxInWindow} admissions in any ${THROTTLE.periodMs / 1000} s window`,
    details: { startsMs: starts.map((s) => s - starts[0]!) },
  });
}

async function overheadRow(ctx: BenchContext, driver: RunDriver): Promise<void> {
  const keyed = await saveWorkflow(ctx, 'bench flow keyed', { concurrency: { limit: 1000, key: 'params.k' } });
  const plain = await saveWorkflow(ctx, 'bench flow plain', null);
  const once = (workflowId: string) => async () => {
    const id = await start(ctx, workflowId, randomUUID());
    const summary = (await driver.temporal.workflow.getHandle(id).result()) as { status: string };
    if (summary.status !== 'completed') throw new Error(`run ${id} ended ${summary.status}`);
  };
  const c = ctx.params.runConcurrency;
  for (const workflowId of [keyed, plain]) await sampleClosedLoop(Math.min(c, 4), 2, once(workflowId));
  const rounds = { keyed: [] as Awaited<ReturnType<typeof sampleClosedLoop>>[], plain: [] as Awaited<ReturnType<typeof sampleClosedLoop>>[] };
  for (let r = 0; r < ctx.params.runRounds; r++) {
    rounds.keyed.push(await sampleClosedLoop(c, ctx.params.runSeconds, once(keyed)));
    rounds.plain.push(await sampleClosedLoop(c, ctx.params.runSeconds, once(plain)));
  }
  const withKey = summarizeLoops(rounds.keyed);
  const without = summarizeLoops(rounds.plain);
  ctx.log(`  flow key overhead: ${round(withKey.perSecond)} runs/s with a key, ${round(without.perSecond)} without`);
  ctx.addRow({
    id: 'flow_key_overhead',
    path: `1-node run with a concurrency key (limit not reached), start to completed, ${c} in flight (runs/s)`,
    baseline: { label: 'the same 1-node run without flow control, same bench run', value: round(without.perSecond), unit: 'runs/s' },
    ours: { value: round(withKey.perSecond), unit: 'runs/s' },
    ratio: round(ratioOf(withKey.perSecond, without.perSecond), 3),
    goal: '>= 0.5x (a key costs the gate round trip: a local activity and three signals)',
    met: withKey.failed === 0 && ratioOf(withKey.perSecond, without.perSecond) >= 0.5,
    notes:
      `${ctx.params.runRounds} alternating rounds of ${ctx.params.runSeconds} s each; p50 ${round(withKey.latency.p50)} vs ${round(without.latency.p50)} ms, ` +
      `p99 ${round(withKey.latency.p99)} vs ${round(without.latency.p99)} ms; ${withKey.failed + without.failed} failed`,
  });
}

export async function flowScenario(ctx: BenchContext): Promise<void> {
  const driver = await connectTemporal(ctx);
  try {
    await roundRobinRow(ctx, driver);
    await throttleRow(ctx, driver);
    await overheadRow(ctx, driver);
  } finally {
    await driver.connection.close();
  }
}
