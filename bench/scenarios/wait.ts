import { call } from '../lib/api';
import type { BenchContext } from '../lib/context';
import { ratioOf } from '../lib/results';
import { round, sleep, summarize } from '../lib/stats';
import { connectTemporal, createWorkflow, linearDag, runBaseline } from './runs';

/**
 * Run and wait on an idle stack (docs/runs.md#run-and-wait): one request at a time, `POST
 * /api/v1/workflows/{id}/runs?wait=60s` of a 1-node DAG (`json_transform`), measured from the request to its
 * answer, which must be 200 with the run completed (its final row written: the answer is that row). Beside it, the
 * same figure for the hand-written Temporal baseline: `client.workflow.execute('baselineChainWorkflow', 1 step)`,
 * start to result, from the bench process. The two sides alternate sample by sample, so a drift of the machine
 * weighs on both. Goals from issue 19: p50 <= 60 ms, p99 <= 150 ms.
 */
const GOALS = { p50: 60, p99: 150 } as const;
/** A pause between samples so that each request meets an idle stack (no run of the other side still settling). */
const PAUSE_MS = 20;

interface WaitedRun {
  id: string;
  status: string;
  results: Record<string, unknown>;
}

export async function waitScenario(ctx: BenchContext): Promise<void> {
  const { params } = ctx;
  const driver = await connectTemporal(ctx);
  try {
    const workflowId = await createWorkflow(ctx, 'bench run and wait', linearDag(1));
    const ours = async (): Promise<number> => {
      const t0 = performance.now();
      const run = await call<WaitedRun>(ctx.stack.apiUrl, 'POST', `/api/v1/workflows/${workflowId}/runs?wait=60s`, {
        token: ctx.session.token,
        body: { parameters: {} },
        expect: 200,
      });
      const ms = performance.now() - t0;
      if (run.status !== 'completed' || !run.results.t1) throw new Error(`run ${run.id} answered ${run.status} ${JSON.stringify(run.results)}`);
      return ms;
    };
    const baseline = async (): Promise<number> => {
      const t0 = performance.now();
      await runBaseline(ctx, driver, 1);
      return performance.now() - t0;
    };
    for (let i = 0; i < params.waitWarmup; i += 1) {
      await ours();
      await baseline();
    }
    const oursMs: number[] = [];
    const baseMs: number[] = [];
    for (let i = 0; i < params.waitSamples; i += 1) {
      // alternate which side goes first, so neither always follows the other's just-finished run
      if (i % 2 === 0) {
        oursMs.push(await ours());
        await sleep(PAUSE_MS);
        baseMs.push(await baseline());
      } else {
        baseMs.push(await baseline());
        await sleep(PAUSE_MS);
        oursMs.push(await ours());
      }
      await sleep(PAUSE_MS);
    }
    const o = summarize(oursMs);
    const b = summarize(baseMs);
    ctx.log(
      `  run and wait: ${o.count} runs one at a time, p50 ${round(o.p50)} ms, p99 ${round(o.p99)} ms; ` +
        `baseline execute p50 ${round(b.p50)} ms, p99 ${round(b.p99)} ms`,
    );
    ctx.addRunLatency({ label: '1-node run and wait, idle (ours)', p50: o.p50, p90: o.p90, p95: o.p95, p99: o.p99 });
    ctx.addRunLatency({ label: '1 activity execute, idle (baseline)', p50: b.p50, p90: b.p90, p95: b.p95, p99: b.p99 });
    const notes =
      `${o.count} samples per side, one request at a time, alternating; ours: POST .../runs?wait=60s answered 200 ` +
      `completed (p90 ${round(o.p90)}, max ${round(o.max)} ms); baseline: workflow.execute of baselineChainWorkflow(1) ` +
      `(p90 ${round(b.p90)}, max ${round(b.max)} ms)`;
    for (const [id, label, ourValue, baseValue, goal] of [
      ['run_wait_p50', 'p50', o.p50, b.p50, GOALS.p50],
      ['run_wait_p99', 'p99', o.p99, b.p99, GOALS.p99],
    ] as const) {
      ctx.addRow({
        id,
        path: `1-node DAG run and wait (POST .../runs?wait=), idle stack, ${label} request to finished answer (ms)`,
        baseline: { label: 'hand-written Temporal workflow, 1 activity: client execute (start + result)', value: round(baseValue), unit: 'ms' },
        ours: { value: round(ourValue), unit: 'ms' },
        ratio: round(ratioOf(ourValue, baseValue), 3),
        goal: `<= ${goal} ms (absolute)`,
        met: ourValue <= goal,
        notes,
        details: { ours: o, baseline: b, oursMs: oursMs.map((v) => round(v)), baselineMs: baseMs.map((v) => round(v)) },
      });
    }
  } finally {
    await driver.connection.close();
  }
}
