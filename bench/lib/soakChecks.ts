import { Client as PgClient } from 'pg';
import type { BenchContext } from './context';
import { pidsMatching, withDescendants } from './cpu';
import { temporalPids } from './growth';
import { pidsWithCommandLine, type RssTarget } from './rss';
import { WORKFLOW_PARAMETER, type Started } from './soakOperations';
import { sleep } from './stats';

/** What the soak (bench/scenarios/soak.ts) checks after its load: the runs it started, and whose memory it follows. */

/** After the load, how long runs still open may take to end before the check counts them as not completed. */
export const SETTLE_MS = 60_000;

export interface RunCheck {
  acknowledged: number;
  completedOnce: number;
  lost: number;
  duplicated: number;
  unexpected: number;
  mismatched: number;
  unknownOutcome: number;
  stillOpen: number;
  soakRuns: number;
  byTrigger: Record<string, number>;
  examples: string[];
}

/**
 * Waits (bounded) until no run of the workflow is open, then matches every row to the markers sent. Lost: an
 * acknowledged run (its answer named a run id) with no row, or whose row is not `completed`. Duplicated: a marker
 * with more than one row. Unexpected: a row whose marker nobody sent. Mismatched: the row's id or trigger is not
 * the one the answer gave or the path implies. A request that failed before naming a run (timeout, refusal) is
 * "unknown outcome": its run may or may not exist, but never twice.
 */
export async function checkRuns(dbUrl: string, workflowId: string, started: Map<string, Started>): Promise<RunCheck> {
  const pg = new PgClient({ connectionString: dbUrl });
  await pg.connect();
  try {
    const deadline = Date.now() + SETTLE_MS;
    let open = 0;
    do {
      const { rows } = await pg.query<{ open: string }>(
        `SELECT count(*)::text AS open FROM workflow_runs WHERE workflow_id = $1 AND status IN ('pending', 'running')`,
        [workflowId],
      );
      open = Number(rows[0]!.open);
      if (open > 0) await sleep(500);
    } while (open > 0 && Date.now() < deadline);

    const { rows } = await pg.query<{ id: string; status: string; marker: string | null; trigger: string | null }>(
      `SELECT id, status, parameters->>($2::text) AS marker, trigger->>'type' AS trigger FROM workflow_runs WHERE workflow_id = $1`,
      [workflowId, WORKFLOW_PARAMETER],
    );
    const byMarker = new Map<string, typeof rows>();
    const check: RunCheck = {
      acknowledged: 0,
      completedOnce: 0,
      lost: 0,
      duplicated: 0,
      unexpected: 0,
      mismatched: 0,
      unknownOutcome: 0,
      stillOpen: open,
      soakRuns: 0,
      byTrigger: {},
      examples: [],
    };
    const example = (line: string) => check.examples.length < 5 && check.examples.push(line);
    for (const row of rows) {
      check.byTrigger[row.trigger ?? 'none'] = (check.byTrigger[row.trigger ?? 'none'] ?? 0) + 1;
      if (row.marker === null || !started.has(row.marker)) {
        check.unexpected += 1;
        example(`unexpected run ${row.id} (marker ${row.marker})`);
        continue;
      }
      byMarker.set(row.marker, [...(byMarker.get(row.marker) ?? []), row]);
    }
    for (const [marker, entry] of started) {
      const found = byMarker.get(marker) ?? [];
      if (entry.phase === 'soak') check.soakRuns += found.length;
      if (found.length > 1) {
        check.duplicated += found.length - 1;
        example(`${marker}: ${found.length} runs (${found.map((r) => r.id).join(', ')})`);
      }
      if (entry.runId === null) {
        check.unknownOutcome += 1;
        continue;
      }
      check.acknowledged += 1;
      const row = found.find((r) => r.id === entry.runId);
      if (!row) {
        if (found.length) {
          check.mismatched += 1;
          example(`${marker}: answered run ${entry.runId}, stored ${found.map((r) => r.id).join(', ')}`);
        } else {
          check.lost += 1;
          example(`${marker}: run ${entry.runId} has no row`);
        }
        continue;
      }
      if (row.status !== 'completed') {
        check.lost += 1;
        example(`${marker}: run ${row.id} is ${row.status}`);
        continue;
      }
      const expectedTrigger = entry.kind === 'webhook' ? 'webhook' : 'manual';
      if (row.trigger !== expectedTrigger) {
        check.mismatched += 1;
        example(`${marker}: run ${row.id} has trigger ${row.trigger}, expected ${expectedTrigger}`);
        continue;
      }
      if (found.length === 1) check.completedOnce += 1;
    }
    return check;
  } finally {
    await pg.end();
  }
}

/** The processes whose memory the soak follows: ours (children of the bench) and the shared services. */
export function rssTargets(ctx: BenchContext): { targets: RssTarget[]; missing: string[] } {
  const { scratch, stack } = ctx;
  const targets: RssTarget[] = [];
  const missing: string[] = [];
  const apiPid = stack.api!.pid;
  targets.push({ name: 'api', pids: () => [apiPid] });
  for (const worker of stack.workers) targets.push({ name: worker.name, pids: () => [worker.pid] });
  // Their child processes: expression sandboxes (lib/expressions/sandbox, ended after a minute idle) and the API's
  // PDF renderer.
  for (const [name, pid] of [['api', apiPid], ...stack.workers.map((w) => [w.name, w.pid] as const)] as const) {
    targets.push({ name: `${name} children`, pids: () => withDescendants([pid]).filter((p) => p !== pid), churns: true });
  }
  const temporal = temporalPids(scratch.base.temporal.address);
  if (temporal.length) targets.push({ name: 'temporal', pids: () => temporal });
  else missing.push('temporal');
  // The scratch database's backends: their process title names the database (`postgres: ... <db> 127.0.0.1(port) idle`).
  const backends = () => pidsMatching((cmdline, comm) => comm === 'postgres' && cmdline.includes(` ${scratch.dbName} `));
  if (backends().length) targets.push({ name: `postgres backends of ${scratch.dbName}`, pids: backends, privateOnly: true, churns: true });
  else missing.push('postgres backends');
  const minioPort = `:${scratch.base.minio.port}`;
  const onPort = pidsWithCommandLine('minio', 'server', minioPort);
  const minio = onPort.length ? onPort : pidsWithCommandLine('minio', 'server');
  if (minio.length) targets.push({ name: 'minio', pids: () => minio });
  else missing.push('minio');
  return { targets, missing };
}
