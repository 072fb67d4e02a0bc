import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EXPECTED_ROWS, type BenchResult } from '../../bench/lib/results';
import { SOAK_ROWS } from '../../bench/lib/soakRows';

/**
 * Proves the benchmark suite works: `bench/run.ts --smoke` (seconds of load, its own scratch database, bucket,
 * queues and child processes) must finish cleanly and produce every row with finite numbers, the Markdown table
 * and the chart. No timing is asserted: performance is read from a full run, never judged in CI. The smoke includes
 * the soak's 2-minute version (a full run leaves the 30-minute soak out unless asked), so its rows are expected too,
 * and the Temporal cluster's rows (bench/scenarios/cluster.ts: it starts scripts/cluster unless it already serves).
 */
const REPO_ROOT = path.resolve(__dirname, '..', '..');

function runSmoke(outDir: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts', '--smoke', '--out', outDir], {
      cwd: REPO_ROOT,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/** The scenarios' own errors first: the output's tail alone may hold only the last scenario's lines. */
function failedScenarios(outDir: string): string {
  const file = path.join(outDir, 'latest.json');
  if (!existsSync(file)) return '';
  const { errors } = JSON.parse(readFileSync(file, 'utf8')) as BenchResult;
  return errors.map((e) => `scenario ${e.scenario} failed: ${e.message}\n`).join('') + (errors.length ? '…\n' : '');
}

const finite = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);

describe('benchmark suite (smoke)', () => {
  let outDir: string;
  beforeAll(() => {
    outDir = mkdtempSync(path.join(tmpdir(), 'loom-bench-smoke-'));
  });
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  test('produces every row with finite numbers, the table and the chart', async () => {
    const { code, output } = await runSmoke(outDir);
    if (code !== 0) throw new Error(`bench --smoke exited ${code}:\n${failedScenarios(outDir)}${output.slice(-6000)}`);

    const result = JSON.parse(readFileSync(path.join(outDir, 'latest.json'), 'utf8')) as BenchResult;
    expect(result.mode).toBe('smoke');
    expect(result.errors).toEqual([]);
    expect(result.rows.map((r) => r.id).sort()).toEqual([...EXPECTED_ROWS, ...SOAK_ROWS].sort());
    for (const row of result.rows) {
      const problems: string[] = [];
      if (!finite(row.ours.value)) problems.push('ours');
      if (row.baseline.value !== null && !finite(row.baseline.value)) problems.push('baseline');
      if (row.baseline.value !== null && !finite(row.ratio)) problems.push('ratio');
      if (typeof row.met !== 'boolean') problems.push('met');
      expect({ row: row.id, problems }).toEqual({ row: row.id, problems: [] });
    }
    // 1-node and 10-node runs, and run-and-wait on an idle stack, each beside its hand-written baseline.
    expect(result.runLatency).toHaveLength(6);
    for (const entry of result.runLatency) for (const p of [entry.p50, entry.p90, entry.p95, entry.p99]) expect(finite(p)).toBe(true);
    expect(result.profiles.map((p) => p.process)).toHaveLength(3);
    for (const profile of result.profiles) expect(profile.top.length).toBeGreaterThan(0);

    const markdown = readFileSync(path.join(outDir, 'latest.md'), 'utf8');
    expect(markdown).toContain('| Path | Baseline | Ours | Ratio | Goal | Met? |');
    for (const row of result.rows) expect(markdown).toContain(row.path);
    const png = readFileSync(path.join(outDir, 'run-latency.png'));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(existsSync(path.join(outDir, 'run-latency.svg'))).toBe(true);

    // The soak ran its mix and checked its runs: counts and slopes are reported (met or not, never judged here).
    const soak = new Map(result.rows.filter((r) => r.id.startsWith('soak_')).map((r) => [r.id, r]));
    expect(soak.get('soak_rate')?.baseline.value).toBeGreaterThan(0);
    expect(soak.get('soak_runs_lost_dup')?.notes).toMatch(/runs started \(\d+ by webhook\)/);
    expect(soak.get('soak_rss_slope')?.notes).toMatch(/^api -?\d/);
    // MinIO's Go heap was read from its metrics endpoint with the token the bench signs (met: a slope was fitted).
    expect(soak.get('soak_minio_heap')?.notes).toMatch(/^minio Go heap in use -?\d/);
    expect(soak.get('soak_minio_heap')?.met).toBe(true);
    // The cluster rows came from the real Temporal cluster beside the dev server, each row's baseline the dev server's.
    const cluster = result.rows.filter((r) => r.id.startsWith('cluster_'));
    for (const row of cluster) expect(row.baseline.label).toMatch(/dev server/);
    expect(markdown).toContain('## Temporal cluster beside the dev server');
    // The bench's own watchdog: 6 minutes, plus the soak's 2 and up to 4 for its set-up and checks, plus the cluster
    // scenario's 3; the cluster's start is outside it (~20 s, ~6 minutes when it builds the server the first time).
  }, 1_320_000);
});
