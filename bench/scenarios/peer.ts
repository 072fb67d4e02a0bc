import { call } from '../lib/api';
import type { BenchContext } from '../lib/context';
import { cpuMeter, stackCpuGroups, type PidGroups } from '../lib/cpu';
import { closedLoop, sampleClosedLoop, summarizeLoops, type ClosedLoopResult, type ClosedLoopSamples } from '../lib/load';
import { ratioOf } from '../lib/results';
import { round } from '../lib/stats';
import { N8N_NODE_VERSION, N8N_VERSION, n8nInstalled, startN8n, type N8nPeer } from '../peer/n8n';

/**
 * The peer row (docs/benchmarks.md#peer-n8n): the same job on n8n and on ours, measured in this run beside each
 * other. A webhook receives `{"n":1}`, one node computes `n + 1`, and the HTTP answer comes once that last node has
 * finished and carries its output: n8n's "Webhook (respond when last node finishes) -> Set", ours a webhook trigger
 * (no authentication, like n8n's default) on a 1-node DAG (`json_transform`) called with `Prefer: wait=30` (run and
 * wait, docs/triggers.md#run-and-wait). Closed loops of `peerConcurrency` connections, `runRounds` alternating rounds
 * of `peerSeconds` per side (ours, n8n, ours, n8n) after a short warm-up of each.
 *
 * n8n comes from `bash bench/peer/install-n8n`; without it the scenario logs so and adds no row.
 */
const HOOK_PATH = 'loom-peer';
const WAIT_SECONDS = 30;
const FIRE_TIMEOUT_MS = 35_000;

type Measured = ClosedLoopResult & { cpu: Record<string, number> };

interface WaitedHook {
  run_id?: string;
  status?: string;
  results?: { set?: { result?: { n?: unknown } } };
}

/** Ours: the workflow, active, and one execution = one webhook request answered after the run completed. */
async function ourWebhook(ctx: BenchContext): Promise<() => Promise<void>> {
  const { stack, session } = ctx;
  const created = await call<{ id: string }>(stack.apiUrl, 'POST', '/api/v1/workflows', {
    token: session.token,
    body: {
      name: 'bench peer: webhook -> transform',
      dag: { nodes: [{ id: 'set', type: 'tool', config: { tool: 'json_transform', config: { expression: '{"n": n + 1}', data: { n: '${params.n}' } } } }], edges: [] },
      parameters: [{ name: 'n', type: 'integer', required: true }],
      triggers: [
        {
          id: 'peer',
          type: 'webhook',
          // The trigger's rate limit stays on (its cost is part of the path), far above what the loop sends.
          config: { path: HOOK_PATH, method: 'POST', authentication: 'none', allowUnauthenticated: true, rateLimit: '1000000/1m', parameters: { n: 'body.n' } },
        },
      ],
    },
  });
  await call(stack.apiUrl, 'POST', `/api/v1/workflows/${created.id}/activate`, { token: session.token, expect: 200 });
  const url = `${stack.apiUrl}/api/hooks/${session.organizationId}/${HOOK_PATH}`;
  return async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', prefer: `wait=${WAIT_SECONDS}` },
      body: '{"n":1}',
      signal: AbortSignal.timeout(FIRE_TIMEOUT_MS),
      redirect: 'error',
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`our webhook answered ${res.status}: ${text.slice(0, 300)}`);
    const body = JSON.parse(text) as WaitedHook;
    if (body.status !== 'completed' || body.results?.set?.result?.n !== 2) throw new Error(`our webhook answered ${text.slice(0, 300)}`);
  };
}

const cpuText = (cpu: Record<string, number>, names: string[]): string => names.map((k) => `${k} ${cpu[k] ?? 0}`).join(', ');

function logMeasured(ctx: BenchContext, label: string, r: Measured): void {
  ctx.log(
    `  ${label}: ${round(r.perSecond)} executions/s, p50 ${round(r.latency.p50)} ms, p99 ${round(r.latency.p99)} ms` +
      (r.failed ? `, ${r.failed} failed (${r.firstError})` : '') +
      `; CPU % of one core: ${cpuText(r.cpu, Object.keys(r.cpu))}`,
  );
}

export async function peerScenario(ctx: BenchContext): Promise<void> {
  if (!n8nInstalled()) {
    ctx.log('  n8n not installed (bash bench/peer/install-n8n): no peer row');
    return;
  }
  const { params, scratch, stack } = ctx;
  const c = params.peerConcurrency;
  const seconds = params.peerSeconds;
  const rounds = params.runRounds;
  const fireOurs = await ourWebhook(ctx);
  await fireOurs(); // proves our path before n8n is started (a broken path fails here with its real error)

  let peer: N8nPeer | null = null;
  try {
    peer = await startN8n({ adminDbUrl: scratch.adminDbUrl, dbName: `${scratch.dbName}_n8n`, dir: scratch.dir, logDir: scratch.logDir, log: ctx.log });
    const n8n = peer;
    const sides = [
      { label: 'ours', fire: fireOurs },
      { label: `n8n ${N8N_VERSION}`, fire: () => n8n.fire() },
    ];
    // Both stacks stay up throughout; each side's CPU is read while it alone is under load.
    const groups: PidGroups = {
      ...stackCpuGroups(
        () => stack.api?.pid,
        () => stack.workers.map((w) => w.pid),
      ),
      n8n: () => n8n.pids(),
    };
    for (const side of sides) await closedLoop(Math.min(c, 4), Math.min(2, seconds), side.fire);
    const samples: ClosedLoopSamples[][] = sides.map(() => []);
    const meters: Record<string, number>[][] = sides.map(() => []);
    for (let r = 0; r < rounds; r += 1) {
      for (const [i, side] of sides.entries()) {
        const meter = cpuMeter(groups);
        samples[i]!.push(await sampleClosedLoop(c, seconds, side.fire));
        meters[i]!.push(meter.stop());
      }
    }
    const [ours, theirs] = sides.map((side, i): Measured => {
      const cpu: Record<string, number> = {};
      for (const name of Object.keys(groups)) cpu[name] = round(meters[i]!.reduce((total, m) => total + (m[name] ?? 0), 0) / rounds, 1);
      const result = { ...summarizeLoops(samples[i]!), cpu };
      logMeasured(ctx, `${side.label} (${rounds} rounds of ${seconds} s, ${c} connections)`, result);
      return result;
    }) as [Measured, Measured];
    if (ours.completed === 0 || theirs.completed === 0) {
      throw new Error(`peer: no execution completed (ours: ${ours.firstError ?? '-'}; n8n: ${theirs.firstError ?? '-'})`);
    }

    const ratio = ratioOf(ours.perSecond, theirs.perSecond);
    const ourCpu = round((ours.cpu.api ?? 0) + (ours.cpu.workers ?? 0) + (ours.cpu.temporal ?? 0), 1);
    ctx.addRow({
      id: 'peer_n8n_webhook',
      path: `Webhook -> one transform node, answered after the last node, ${c} connections (executions/s)`,
      baseline: { label: `n8n ${N8N_VERSION}: webhook -> Set, answer after last node, PostgreSQL, Node 24`, value: round(theirs.perSecond), unit: 'executions/s' },
      ours: { value: round(ours.perSecond), unit: 'executions/s' },
      ratio: round(ratio, 3),
      goal: '>= 1x (measured peer)',
      met: ratio >= 1 && ours.failed === 0,
      notes:
        `p50 ${round(ours.latency.p50)} vs ${round(theirs.latency.p50)} ms, p99 ${round(ours.latency.p99)} vs ${round(theirs.latency.p99)} ms; ` +
        `${ours.completed} vs ${theirs.completed} executions (${ours.failed} vs ${theirs.failed} failed); ` +
        `CPU % of one core under each side's load, ours: api + workers + temporal ${ourCpu}, postgres ${ours.cpu.postgres ?? 0}; ` +
        `n8n (Node ${N8N_NODE_VERSION}, one main process) ${theirs.cpu.n8n ?? 0}, postgres ${theirs.cpu.postgres ?? 0}`,
      details: { ours, n8n: theirs, n8nVersion: N8N_VERSION, n8nNode: N8N_NODE_VERSION, concurrency: c, seconds, rounds },
    });
  } finally {
    if (peer) await peer.stop();
  }
}
