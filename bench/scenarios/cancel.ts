import { call } from '../lib/api';
import type { BenchContext } from '../lib/context';
import { percentile, round } from '../lib/stats';
import { connectTemporal, createWorkflow } from './runs';

/**
 * Cancel latency (docs/runs.md#cancellation): runs whose only tool is busy (a 120 s `delay`) are cancelled through
 * the API `cancelBusyMs` after the tool started; measured from the cancel request to the run's execution closing
 * `cancelled` (its tool acknowledged the cancellation and the final state was stored), one run at a time. The API
 * runs with the default RUN_HEARTBEAT_TIMEOUT (30 s): without WORKER_HEARTBEAT_THROTTLE each cancellation took
 * ~24 s (the SDK heartbeated every 80% of the timeout).
 */
const GOAL_MS = 2000;

interface RunView {
  status: string;
  node_states: Record<string, { status: string; attempts: number }>;
}

async function sleep(ms: number): Promise<void> {
  await new Promise((r) => setTimeout(r, ms));
}

export async function cancelScenario(ctx: BenchContext): Promise<void> {
  const { params } = ctx;
  const driver = await connectTemporal(ctx);
  try {
    const workflowId = await createWorkflow(ctx, 'bench cancel', {
      nodes: [{ id: 'busy', type: 'tool', config: { tool: 'delay', config: { ms: 120_000 } } }],
      edges: [],
    });
    const toClosed: number[] = [];
    const answers: number[] = [];
    const answered: Record<string, number> = {};
    for (let i = 0; i < params.cancelSamples; i += 1) {
      const run = await call<{ id: string }>(ctx.stack.apiUrl, 'POST', `/api/v1/workflows/${workflowId}/runs`, {
        token: ctx.session.token,
        body: { parameters: {} },
      });
      const handle = driver.temporal.workflow.getHandle(run.id);
      // until the tool's activity runs in the worker
      for (let polls = 0; ; polls += 1) {
        if (polls > 600) throw new Error(`run ${run.id}: its tool never started`);
        const pending = (await handle.describe()).raw.pendingActivities ?? [];
        if (pending.some((a) => a.lastStartedTime)) break;
        await sleep(50);
      }
      await sleep(params.cancelBusyMs);
      const closed = handle.result().then(
        () => 'completed',
        () => 'closed',
      );
      const t0 = performance.now();
      const answer = await call<RunView>(ctx.stack.apiUrl, 'POST', `/api/v1/workflows/${workflowId}/runs/${run.id}/cancel`, {
        token: ctx.session.token,
        expect: 200,
      });
      answers.push(performance.now() - t0);
      answered[answer.status] = (answered[answer.status] ?? 0) + 1;
      await closed;
      toClosed.push(performance.now() - t0);
      const final = await call<RunView>(ctx.stack.apiUrl, 'GET', `/api/v1/workflows/${workflowId}/runs/${run.id}`, { token: ctx.session.token });
      if (final.status !== 'cancelled' || final.node_states.busy?.status !== 'cancelled') {
        throw new Error(`run ${run.id} ended ${final.status} with its tool ${final.node_states.busy?.status}`);
      }
    }
    const p50 = percentile(toClosed, 50);
    const p99 = percentile(toClosed, 99);
    const answerP99 = percentile(answers, 99);
    ctx.log(
      `  cancel: ${toClosed.length} runs, cancel-to-cancelled p50 ${round(p50)} ms, p99 ${round(p99)} ms; ` +
        `answer p50 ${round(percentile(answers, 50))} ms, p99 ${round(answerP99)} ms (${JSON.stringify(answered)})`,
    );
    const notes =
      `${toClosed.length} runs, one at a time, each cancelled ${params.cancelBusyMs} ms into a 120 s delay tool; ` +
      `POST .../cancel answered in p50 ${round(percentile(answers, 50))} / p99 ${round(answerP99)} ms with ${JSON.stringify(answered)}`;
    for (const [id, label, value] of [
      ['run_cancel_p50', 'p50', p50],
      ['run_cancel_p99', 'p99', p99],
    ] as const) {
      ctx.addRow({
        id,
        path: `Cancel of a run whose tool is busy, ${label} cancel request to run cancelled (ms)`,
        baseline: { label: 'before WORKER_HEARTBEAT_THROTTLE: ~24 s (80% of the 30 s heartbeat timeout)', value: null, unit: 'ms' },
        ours: { value: round(value), unit: 'ms' },
        ratio: null,
        goal: `<= ${GOAL_MS} ms`,
        met: value <= GOAL_MS,
        notes,
        details: { samplesMs: toClosed.map((v) => round(v)), answersMs: answers.map((v) => round(v)), answered },
      });
    }
  } finally {
    await driver.connection.close();
  }
}
