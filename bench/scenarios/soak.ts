import { registerTenant } from '../lib/api';
import type { BenchContext } from '../lib/context';
import { cpuMeter, stackCpuGroups } from '../lib/cpu';
import { databaseBytes, growthPer1000Runs, sqliteBytes, temporalDbFile } from '../lib/growth';
import { sampleClosedLoop } from '../lib/load';
import { startMinioMemorySampler } from '../lib/minioMemory';
import { judgeRssTrends, rssTrend, startRssSampler, type RssTrend } from '../lib/rss';
import { checkRuns, rssTargets, SETTLE_MS } from '../lib/soakChecks';
import { openLoop, weightedPicker, type OpenLoopResult } from '../lib/soakLoad';
import { MIX, REQUEST_TIMEOUT_MS, SoakClient } from '../lib/soakOperations';
import { round } from '../lib/stats';

/**
 * Soak (issue 21): mixed load held for a long time (30 minutes full, 2 in the smoke) at about half of what the
 * stack can take, to find what a short row cannot: errors that appear only after a while, runs lost or doubled,
 * memory that creeps up, storage that grows faster than the work done.
 *
 * - The mix, in proportion: authenticated reads (`GET /api/auth/me`), run starts that wait for the run
 *   (`POST /api/v1/workflows/{id}/runs?wait=30s`, a 1-node `json_transform` DAG), small uploads (16–64 KB,
 *   `POST /api/v1/content`), hybrid searches (`POST /api/v1/content/search`) over a few embedded documents, and
 *   webhook triggers of the same workflow (`POST /api/hooks/{org}/{path}` with `Prefer: wait=30`). Every answer is
 *   checked, status and body.
 * - The rate: the same mix is first driven closed-loop (`soakCeilingConcurrency` in flight, `soakCeilingSeconds`);
 *   its throughput is the ceiling of this mix on this machine, and the soak sends `soakLoadFraction` of it,
 *   open-loop (`--soak-rate` fixes the rate instead). The ceiling of the mix, not of runs alone, because the load is
 *   the mix: half its ceiling leaves the bottleneck (the worker, Temporal's SQLite) about half idle.
 * - Runs: each start carries a unique `marker` parameter (mapped from the webhook body for triggers); at the end
 *   every row of the workflow in the scratch database is matched to the markers sent: each acknowledged run must
 *   exist exactly once, `completed`, with the id the answer gave.
 * - Memory and storage: docs/benchmarks.md#soak.
 *
 * The scenario has its own tenant, so searches see only its documents and the checks only its runs.
 */

/**
 * Flat RSS: |slope| under 1 MB/min, fitted over the samples after warm-up. At the soak's rate on the 2-core dev box
 * (~12 req/s, 750 a minute) a leak of about 1.4 KB per request passes it; much below it, a 30-minute fit cannot tell a
 * trend from the garbage collector's sawtooth and pool connections opening and closing (tens of MB up and down within
 * a minute). The 2-minute smoke is too short for the threshold to mean anything.
 */
const FLAT_MB_PER_MINUTE = 1;
/** Access tokens live 15 minutes (SERVICE_JWT_ACCESS_TOKEN_DURATION): a full soak logs in again every 10. */
const TOKEN_RENEW_MS = 10 * 60_000;
const SEED_DOCUMENTS = 12;

const mb = (bytes: number) => round(bytes / 1024 / 1024, 2);

export async function soakScenario(ctx: BenchContext): Promise<void> {
  const { params, scratch, stack } = ctx;
  if (!stack.api) throw new Error('soak: the API is not running');
  const session = await registerTenant(stack.apiUrl, scratch.dbUrl, 'soak');
  const client = new SoakClient(stack.apiUrl, session);
  await client.createWorkflow();
  await client.seedDocuments(SEED_DOCUMENTS, ctx.log);

  // Prove every path once before any load: a broken path fails here with its real error.
  for (const kind of client.kinds('ceiling')) await kind.send();

  // The ceiling of this mix: closed loop, the kinds taken in proportion across all lanes.
  let ceiling: number | null = null;
  let ceilingFailed = 0;
  let ceilingError: string | undefined;
  let rate: number;
  if (params.soakRate !== null) {
    rate = params.soakRate;
    ctx.log(`  soak rate fixed at ${rate} req/s (--soak-rate); no ceiling measured`);
  } else {
    const pick = weightedPicker(client.kinds('ceiling'));
    const burst = await sampleClosedLoop(params.soakCeilingConcurrency, params.soakCeilingSeconds, () => pick().send());
    ceiling = burst.latencies.length / burst.seconds;
    ceilingFailed = burst.failed;
    ceilingError = burst.firstError;
    if (burst.latencies.length === 0) throw new Error(`soak: nothing completed while measuring the ceiling (${burst.firstError ?? 'no error seen'})`);
    rate = ceiling * params.soakLoadFraction;
    ctx.log(
      `  mix ceiling ${round(ceiling)} req/s (${params.soakCeilingConcurrency} in flight, ${round(burst.seconds)} s, ${burst.failed} failed); ` +
        `soak at ${round(params.soakLoadFraction * 100)}%: ${round(rate)} req/s for ${params.soakSeconds} s`,
    );
  }

  const temporalFile = temporalDbFile(scratch.base.temporal.address);
  const pgBefore = await databaseBytes(scratch.dbUrl);
  const temporalBefore = temporalFile ? sqliteBytes(temporalFile) : Number.NaN;
  const { targets, missing } = rssTargets(ctx);
  if (missing.length) ctx.log(`  RSS not followed for: ${missing.join(', ')} (process not found)`);
  const everyMs = params.soakRssEverySeconds * 1000;
  const maxSamples = Math.ceil(params.soakSeconds / params.soakRssEverySeconds) + 2;
  const sampler = startRssSampler(targets, everyMs, maxSamples);
  const minioHeap = startMinioMemorySampler(scratch.base.minio, everyMs, maxSamples);
  const meter = cpuMeter(stackCpuGroups(() => stack.api?.pid, () => stack.workers.map((w) => w.pid)));
  let renewFailures = 0;
  let renewError: string | undefined;
  const renewal = setInterval(() => {
    client.renewToken().catch((err: Error) => {
      renewFailures += 1;
      renewError ??= err.message;
    });
  }, TOKEN_RENEW_MS);
  let load: OpenLoopResult;
  try {
    load = await openLoop({
      kinds: client.kinds('soak'),
      rate,
      seconds: params.soakSeconds,
      maxInFlight: params.soakMaxInFlight,
      drainMs: REQUEST_TIMEOUT_MS + 5_000,
      onProgress: (p) =>
        ctx.log(`  soak +${Math.round(p.elapsedSeconds)} s: ${p.sent} sent, ${p.failed} failed, ${p.dropped} fell behind, ${p.inFlight} in flight`),
    });
  } finally {
    clearInterval(renewal);
  }
  const series = sampler.stop();
  const heap = await minioHeap.stop();
  const cpu = meter.stop();

  const check = await checkRuns(scratch.dbUrl, client.workflowId, client.started);
  const pgAfter = await databaseBytes(scratch.dbUrl);
  const temporalAfter = temporalFile ? sqliteBytes(temporalFile) : Number.NaN;

  const kindText = Object.entries(load.kinds)
    .map(([name, k]) => `${name} ${k.ok}/${k.sent} ok (p50 ${round(k.latencyMs.p50)} / p99 ${round(k.latencyMs.p99)} ms)${k.dropped ? `, ${k.dropped} fell behind` : ''}`)
    .join('; ');
  const cpuText = Object.entries(cpu)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  ctx.log(`  soak: ${load.sent} sent in ${round(load.seconds)} s (${round(load.achievedRate)} req/s, target ${round(rate)}); ${kindText}; CPU % of one core: ${cpuText}`);

  const ceilingText =
    ceiling === null ? `rate fixed at ${round(rate)} req/s (--soak-rate)` : `${round(params.soakLoadFraction * 100)}% of the mix ceiling ${round(ceiling)} req/s`;
  const achievedRatio = load.achievedRate / rate;
  ctx.addRow({
    id: 'soak_rate',
    path: `Soak: mixed load for ${round(params.soakSeconds / 60, 1)} min, achieved request rate (req/s)`,
    baseline: { label: `target: ${ceilingText}`, value: round(rate), unit: 'req/s' },
    ours: { value: round(load.achievedRate), unit: 'req/s' },
    ratio: round(achievedRatio, 3),
    goal: '>= 0.95x of the target',
    met: achievedRatio >= 0.95,
    notes: `mix by weight ${Object.entries(MIX).map(([k, v]) => `${k} ${v}`).join(', ')}; ${kindText}; peak in flight ${load.maxInFlight} (bound ${params.soakMaxInFlight}); CPU % of one core: ${cpuText}`,
    details: { ceiling, ceilingConcurrency: params.soakCeilingConcurrency, ceilingSeconds: params.soakCeilingSeconds, rate, load, cpu },
  });

  const errors = load.failed + load.dropped + ceilingFailed + renewFailures;
  const firstErrors = [
    ...Object.entries(load.kinds).flatMap(([name, k]) => k.errors.map((e) => `${name}: ${e}`)),
    ...(ceilingError ? [`ceiling: ${ceilingError}`] : []),
    ...(renewError ? [`token renewal: ${renewError}`] : []),
  ].slice(0, 6);
  ctx.addRow({
    id: 'soak_errors',
    path: 'Soak: requests failed, refused or dropped (fell behind), ceiling burst included (count)',
    baseline: { label: '-', value: null, unit: 'errors' },
    ours: { value: errors, unit: 'errors' },
    ratio: null,
    goal: '0 (absolute)',
    met: errors === 0,
    notes:
      `${load.failed} failed answers (${load.unsettled} still unanswered after the drain), ${load.dropped} fell behind, ` +
      `${ceilingFailed} failed in the ceiling burst, ${renewFailures} token renewals failed` +
      (firstErrors.length ? `; first: ${firstErrors.join(' | ')}` : ''),
    details: { failed: load.failed, dropped: load.dropped, unsettled: load.unsettled, ceilingFailed, renewFailures, firstErrors },
  });

  const lostDup = check.lost + check.duplicated + check.unexpected + check.mismatched;
  ctx.addRow({
    id: 'soak_runs_lost_dup',
    path: 'Soak: runs lost, duplicated, unexpected or mismatched in PostgreSQL (count)',
    baseline: { label: '-', value: null, unit: 'runs' },
    ours: { value: lostDup, unit: 'runs' },
    ratio: null,
    goal: '0 (absolute)',
    met: lostDup === 0 && check.stillOpen === 0,
    notes:
      `${client.started.size} runs started (${[...client.started.values()].filter((s) => s.kind === 'webhook').length} by webhook), ` +
      `${check.acknowledged} acknowledged, ${check.completedOnce} completed exactly once; lost ${check.lost}, duplicated ${check.duplicated}, ` +
      `unexpected ${check.unexpected}, mismatched ${check.mismatched}, unknown outcome ${check.unknownOutcome}, still open after ${SETTLE_MS / 1000} s ${check.stillOpen}; ` +
      `rows by trigger: ${Object.entries(check.byTrigger).map(([k, v]) => `${k} ${v}`).join(', ')}` +
      (check.examples.length ? `; e.g. ${check.examples.join(' | ')}` : ''),
    details: { ...check },
  });

  const trends: RssTrend[] = series.map((s) => rssTrend(s, FLAT_MB_PER_MINUTE));
  const { worst, met: rssFlat } = judgeRssTrends(trends);
  ctx.addRow({
    id: 'soak_rss_slope',
    path: `Soak: RSS slope of the worst process, least squares after 10% warm-up (MB/min)`,
    baseline: { label: '-', value: null, unit: 'MB/min' },
    ours: { value: worst ? worst.slope : Number.NaN, unit: 'MB/min' },
    ratio: null,
    goal: `within ±${FLAT_MB_PER_MINUTE} MB/min for every process`,
    met: rssFlat,
    notes:
      trends
        .map((t) => {
          if (t.processesThroughout === 0) return `${t.name}: no process alive throughout (${t.processesFirst} -> ${t.processesLast}), not judged`;
          const processes =
            t.processesThroughout === null
              ? ''
              : `, ${t.processesFirst} -> ${t.processesLast} processes, slope of the ${t.processesThroughout} alive throughout`;
          return `${t.name} ${t.slope} MB/min (second half ${t.secondHalfSlope}; mean ${t.meanMb} MB, ${t.firstMb} -> ${t.lastMb}, max ${t.maxMb}${processes}, ${t.samples} samples)`;
        })
        .join('; ') +
      `; sampled every ${params.soakRssEverySeconds} s` +
      (missing.length ? `; not found: ${missing.join(', ')}` : '') +
      '; temporal, postgres and minio are shared with anything else using the dev services',
    // Samples as [minute, MB, processes], compact: a full soak has hundreds per process.
    details: { trends, series: series.map((s) => ({ name: s.name, samples: s.samples.map((p) => [round(p.minute, 3), round(p.mb, 1), p.processes]) })) },
  });

  // MinIO's RSS is the one that moved in the first 30-minute soak: its Go heap tells growth from pages held.
  const heapTrends = heap.series.map((s) => rssTrend(s, FLAT_MB_PER_MINUTE));
  const rssOfMinio = trends.find((t) => t.name === 'minio');
  ctx.addRow({
    id: 'soak_minio_heap',
    path: 'Soak: MinIO Go heap in use, slope after 10% warm-up (MB/min; its RSS slope beside it)',
    // No ratio: the two slopes are shown side by side, and either may be ~0.
    baseline: { label: `MinIO RSS slope ${rssOfMinio ? rssOfMinio.slope : '-'} MB/min`, value: null, unit: 'MB/min' },
    ours: { value: heapTrends[0]!.slope, unit: 'MB/min' },
    ratio: null,
    goal: 'report',
    met: Number.isFinite(heapTrends[0]!.slope),
    notes:
      heapTrends.map((t) => `${t.name} ${t.slope} MB/min (second half ${t.secondHalfSlope}; mean ${t.meanMb} MB, ${t.firstMb} -> ${t.lastMb}, max ${t.maxMb}, ${t.samples} samples)`).join('; ') +
      `; from /minio/v2/metrics/node every ${params.soakRssEverySeconds} s, ${heap.failed} reads failed`,
    details: { trends: heapTrends, series: heap.series.map((s) => ({ name: s.name, samples: s.samples.map((p) => [round(p.minute, 3), round(p.mb, 1)]) })) },
  });

  const pgGrowth = growthPer1000Runs(pgBefore, pgAfter, check.soakRuns);
  ctx.addRow({
    id: 'soak_pg_growth_per_1000_runs',
    path: `Soak: scratch PostgreSQL database growth per 1,000 runs (MB)`,
    baseline: { label: '-', value: null, unit: 'MB' },
    ours: { value: round(pgGrowth, 3), unit: 'MB' },
    ratio: null,
    goal: 'report',
    met: Number.isFinite(pgGrowth),
    notes:
      `pg_database_size ${mb(pgBefore)} -> ${mb(pgAfter)} MB over ${check.soakRuns} soak runs; includes everything the mix writes ` +
      '(uploads, sessions, audit, webhook receipts), divided by the runs',
    details: { beforeBytes: pgBefore, afterBytes: pgAfter, runs: check.soakRuns },
  });

  const temporalGrowth = growthPer1000Runs(temporalBefore, temporalAfter, check.soakRuns);
  ctx.addRow({
    id: 'soak_temporal_growth_per_1000_runs',
    path: `Soak: Temporal dev server SQLite file growth per 1,000 runs (MB)`,
    baseline: { label: '-', value: null, unit: 'MB' },
    ours: { value: round(temporalGrowth, 3), unit: 'MB' },
    ratio: null,
    goal: 'report',
    met: Number.isFinite(temporalGrowth),
    notes: temporalFile
      ? `${temporalFile} (+ -wal, -shm) ${mb(temporalBefore)} -> ${mb(temporalAfter)} MB over ${check.soakRuns} soak runs; ` +
        'the file is the shared dev server\'s: executions of anyone else using it count too, and SQLite reuses freed pages before growing'
      : 'the Temporal dev server was not found with a --db-filename (in-memory?): nothing to measure',
    details: { file: temporalFile, beforeBytes: temporalBefore, afterBytes: temporalAfter, runs: check.soakRuns },
  });
}
