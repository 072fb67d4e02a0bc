import { Client as PgClient } from 'pg';
import { encodeCursor } from '../../lib/pagination';
import { call, registerTenant, type ApiSession } from '../lib/api';
import type { BenchContext } from '../lib/context';
import { percentile, round } from '../lib/stats';

/**
 * The console's run list at scale (docs/console.md#runs): an organization with `runListLarge` runs beside one with
 * `runListSmall`, measured in the same run, the same queries alternating between them. The list pages by keyset
 * and finds parameter values through a GIN index, so its latency should not grow with the organization's runs:
 * ratio large / small <= 2 for the first page, a page half-way down, a parameter search and a run-id search. The
 * statistics read every run of the period, so their row is absolute.
 */
const PAGE_GOAL = 2;
const STATS_GOAL_MS = 1000;

interface Tenant {
  session: ApiSession;
  runs: number;
  /** A cursor half-way down the organization's runs. */
  deepCursor: string;
  /** A run somewhere in the middle, for the run-id search. */
  middleRunId: string;
}

/** Runs written in one statement: created over the last 30 days, mixed statuses, one parameter value met once. */
async function seed(pg: PgClient, session: ApiSession, workflowId: string, runs: number): Promise<Tenant> {
  await pg.query(
    `INSERT INTO workflow_runs (id, organization_id, workflow_id, workflow_version, status, parameters, trigger, created_at, started_at, completed_at)
     SELECT gen_random_uuid(), $1, $2, 1,
            (ARRAY['completed','completed','completed','failed','cancelled'])[1 + i % 5],
            jsonb_build_object('customer', CASE WHEN i = $3 / 3 THEN 'rare' ELSE 'c' || (i % 500) END, 'n', i),
            '{"type":"manual"}',
            now() - (i::double precision / $3) * interval '30 days',
            now() - (i::double precision / $3) * interval '30 days',
            now() - (i::double precision / $3) * interval '30 days' + (50 + i % 400) * interval '1 millisecond'
     FROM generate_series(1, $3) AS i`,
    [session.organizationId, workflowId, runs],
  );
  const middle = await pg.query<{ id: string; sort_key: string }>(
    `SELECT id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_key
     FROM workflow_runs WHERE organization_id = $1 ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
    [session.organizationId, Math.floor(runs / 2)],
  );
  const row = middle.rows[0]!;
  return { session, runs, deepCursor: encodeCursor({ sort: row.sort_key, id: row.id }), middleRunId: row.id };
}

export async function runListScenario(ctx: BenchContext): Promise<void> {
  const { params } = ctx;
  const pg = new PgClient({ connectionString: ctx.scratch.dbUrl });
  await pg.connect();
  const tenants: Tenant[] = [];
  try {
    for (const [label, runs] of [
      ['runlist-small', params.runListSmall],
      ['runlist-large', params.runListLarge],
    ] as const) {
      const session = await registerTenant(ctx.stack.apiUrl, ctx.scratch.dbUrl, label);
      const workflow = await call<{ id: string }>(ctx.stack.apiUrl, 'POST', '/api/v1/workflows', {
        token: session.token,
        body: { name: label, dag: { nodes: [{ id: 'a', type: 'tool', config: { tool: 'json_transform', config: { expression: '$' } } }], edges: [] } },
      });
      const began = performance.now();
      tenants.push(await seed(pg, session, workflow.id, runs));
      ctx.log(`  run list: ${runs} runs written for ${label} in ${round(performance.now() - began)} ms`);
    }
    // A live table gets this from autovacuum (inserts count since PostgreSQL 13): statistics, and the GIN index's
    // pending list merged, which a search would otherwise read through linearly (17 ms instead of 1 ms here).
    await pg.query('VACUUM ANALYZE workflow_runs');
  } finally {
    await pg.end();
  }
  const [small, large] = tenants as [Tenant, Tenant];

  const queries: { id: 'runs_list_first' | 'runs_list_deep' | 'runs_list_param' | 'runs_list_id'; what: string; path: (t: Tenant) => string }[] = [
    { id: 'runs_list_first', what: 'first page (25 runs)', path: () => '/api/v1/runs?limit=25' },
    { id: 'runs_list_deep', what: 'a page half-way down (by cursor)', path: (t) => `/api/v1/runs?limit=25&cursor=${encodeURIComponent(t.deepCursor)}` },
    { id: 'runs_list_param', what: 'search by a parameter value met once (customer=rare)', path: () => '/api/v1/runs?limit=25&parameter=customer%3Drare' },
    { id: 'runs_list_id', what: 'search by run id', path: (t) => `/api/v1/runs?limit=25&run_id=${t.middleRunId}` },
  ];
  const timed = async (tenant: Tenant, path: string): Promise<number> => {
    const t0 = performance.now();
    const page = await call<{ data: unknown[] }>(ctx.stack.apiUrl, 'GET', path, { token: tenant.session.token, expect: 200 });
    const ms = performance.now() - t0;
    if (page.data.length === 0) throw new Error(`${path} found nothing`);
    return ms;
  };
  for (const query of queries) {
    const samples = new Map<Tenant, number[]>([
      [small, []],
      [large, []],
    ]);
    // Warm-up, then alternate so that both sides meet the same machine state.
    for (const tenant of [small, large, small, large]) await timed(tenant, query.path(tenant));
    for (let i = 0; i < params.runListSamples; i += 1) {
      for (const tenant of i % 2 === 0 ? [small, large] : [large, small]) samples.get(tenant)!.push(await timed(tenant, query.path(tenant)));
    }
    const smallP50 = percentile(samples.get(small)!, 50);
    const largeP50 = percentile(samples.get(large)!, 50);
    const ratio = largeP50 / smallP50;
    ctx.log(`  run list ${query.what}: p50 ${round(largeP50)} ms at ${large.runs} runs, ${round(smallP50)} ms at ${small.runs} (${round(ratio)}x)`);
    ctx.addRow({
      id: query.id,
      path: `GET /api/v1/runs, ${query.what}, p50 at ${large.runs.toLocaleString('en')} runs (ms)`,
      baseline: { label: `the same query at ${small.runs.toLocaleString('en')} runs, same run`, value: round(smallP50), unit: 'ms' },
      ours: { value: round(largeP50), unit: 'ms' },
      ratio: round(ratio),
      goal: `<= ${PAGE_GOAL}x`,
      met: ratio <= PAGE_GOAL,
      notes: `${params.runListSamples} samples per side, alternating; p95 ${round(percentile(samples.get(large)!, 95))} ms vs ${round(percentile(samples.get(small)!, 95))} ms`,
    });
  }

  const stats: number[] = [];
  for (let i = 0; i < params.runListSamples + 2; i += 1) {
    const t0 = performance.now();
    await call(ctx.stack.apiUrl, 'GET', '/api/v1/runs/stats?days=30', { token: large.session.token, expect: 200 });
    if (i >= 2) stats.push(performance.now() - t0);
  }
  const statsP50 = percentile(stats, 50);
  ctx.log(`  run stats over 30 days of ${large.runs} runs: p50 ${round(statsP50)} ms`);
  ctx.addRow({
    id: 'runs_stats_30d',
    path: `GET /api/v1/runs/stats?days=30 over ${large.runs.toLocaleString('en')} runs (ms, p50)`,
    baseline: { label: 'none: reads every run of the period', value: null, unit: 'ms' },
    ours: { value: round(statsP50), unit: 'ms' },
    ratio: null,
    goal: `<= ${STATS_GOAL_MS} ms`,
    met: statsP50 <= STATS_GOAL_MS,
    notes: `${stats.length} samples; p95 ${round(percentile(stats, 95))} ms`,
  });
}
