import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { BenchResult, Row, RunLatencyChart } from './results';

/** Writes latest.json, latest.md and run-latency.png (an SVG we draw, rasterized by sharp) into `dir`. */
export async function writeReport(dir: string, result: BenchResult): Promise<void> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'latest.json'), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(path.join(dir, 'latest.md'), markdown(result));
  const svg = latencyChart(result.runLatency);
  writeFileSync(path.join(dir, 'run-latency.svg'), svg);
  await sharp(Buffer.from(svg)).png().toFile(path.join(dir, 'run-latency.png'));
}

function value(v: { value: number | null; unit: string }): string {
  return v.value === null ? '-' : `${formatNumber(v.value)} ${v.unit}`;
}

function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return Math.abs(n) >= 1000 ? Math.round(n).toLocaleString('en-US') : String(n);
}

function met(row: Row): string {
  if (row.met === null) return '-';
  return row.met ? 'yes' : '**no**';
}

export function markdown(result: BenchResult): string {
  const lines: string[] = [];
  lines.push(`# Benchmark results (${result.mode})`, '');
  lines.push(
    `Run ${result.startedAt} → ${result.finishedAt} (${Math.round(result.durationSeconds)} s) on ${result.machine.cpus} × ${result.machine.model}, ` +
      `${result.machine.memoryGb} GB, Node ${result.machine.node}; load average at start ${result.machine.loadAverageAtStart.join(' / ')}.`,
    '',
  );
  if (result.mode === 'smoke') lines.push('> Smoke run: durations and sizes are tiny; the figures prove the suite works, they are not a measurement.', '');
  lines.push('Every ratio is ours / baseline, both measured in this run on this machine, over loopback.', '');
  lines.push('| Path | Baseline | Ours | Ratio | Goal | Met? |', '|---|---|---|---|---|---|');
  for (const row of result.rows) {
    lines.push(
      `| ${row.path} | ${value(row.baseline)} (${row.baseline.label}) | ${value(row.ours)} | ${row.ratio === null ? '-' : row.ratio} | ${row.goal} | ${met(row)} |`,
    );
  }
  lines.push('', '## Notes per row', '');
  for (const row of result.rows) if (row.notes) lines.push(`- **${row.id}**: ${row.notes}`);

  const ceilings = result.rows.filter((r) => r.id.startsWith('ceiling_'));
  if (ceilings.length) {
    lines.push('', '## Stack ceiling by worker processes', '');
    lines.push(
      'The same box (API, worker processes, Temporal dev server on SQLite, PostgreSQL, MinIO; every run durable) with 1, 2 and 4 worker processes of each side. Per-process CPU is in the notes of each row.',
      '',
      // The baseline's own curve beside ours: on a box with fewer cores than processes, a drop both sides show is the box's.
      '| Row | Ours | Baseline | Ours vs 1 worker | Baseline vs 1 worker |',
      '|---|---|---|---|---|',
    );
    const baselineOfOne = ceilings.find((r) => r.id === 'ceiling_1_worker')?.baseline.value;
    for (const row of ceilings) {
      const scaling = row.details?.scalingVsOneWorker;
      const baseScaling = typeof baselineOfOne === 'number' && typeof row.baseline.value === 'number' ? row.baseline.value / baselineOfOne : null;
      lines.push(
        `| ${row.path} | ${value(row.ours)} | ${value(row.baseline)} | ${typeof scaling === 'number' ? `${scaling.toFixed(3)}x` : '-'} | ${baseScaling === null ? '-' : `${baseScaling.toFixed(3)}x`} |`,
      );
    }
  }
  clusterSection(lines, result.rows);
  if (result.runLatency.length) {
    lines.push('', '## Run latency percentiles', '', '![run latency percentiles](run-latency.png)', '');
    lines.push('| Runs | p50 | p90 | p95 | p99 |', '|---|---|---|---|---|');
    for (const r of result.runLatency) lines.push(`| ${r.label} | ${r.p50.toFixed(1)} ms | ${r.p90.toFixed(1)} ms | ${r.p95.toFixed(1)} ms | ${r.p99.toFixed(1)} ms |`);
  }
  if (result.profiles.length) {
    lines.push('', '## CPU profiles under run load (self time)', '');
    for (const p of result.profiles) {
      lines.push(`### ${p.process} (${p.samplesMs} ms of non-idle samples)`, '', '| Function | Where | Self | Share |', '|---|---|---|---|');
      for (const t of p.top) lines.push(`| ${t.name} | ${t.where || '-'} | ${t.selfMs} ms | ${t.share}% |`);
      lines.push('', 'By module: ' + p.topModules.map((m) => `${m.module} ${m.share}%`).join(', '), '');
    }
  }
  if (result.errors.length) {
    lines.push('', '## Errors', '');
    for (const e of result.errors) lines.push(`- ${e.scenario}: ${e.message}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The cluster rows (bench/scenarios/cluster.ts): where a run's CPU goes on each server, and both ceiling curves. */
function clusterSection(lines: string[], rows: Row[]): void {
  const cpuRows = [1, 10].map((nodes) => rows.find((r) => r.id === `cluster_run_${nodes}node_cpu`));
  const ceilings = rows.filter((r) => r.id.startsWith('cluster_ceiling_'));
  if (!cpuRows.some(Boolean) && !ceilings.length) return;
  lines.push('', '## Temporal cluster beside the dev server', '');
  lines.push(
    "The same API, workers, Loom's PostgreSQL and MinIO pointed at the real Temporal server of `scripts/cluster` (frontend, history ×2, matching ×2, worker, its own PostgreSQL on port 5442) and at the dev server (one process, SQLite), in alternating rounds of this run on the same cores.",
    '',
  );
  const columns = cpuRows.flatMap((row, i) => {
    const details = row?.details as { cluster?: Record<string, number>; dev?: Record<string, number> } | undefined;
    const nodes = i === 0 ? '1-node' : '10-node';
    return details?.dev && details.cluster
      ? [
          { title: `dev server, ${nodes}`, cpu: details.dev },
          { title: `cluster, ${nodes}`, cpu: details.cluster },
        ]
      : [];
  });
  if (columns.length) {
    const parts: [string, string][] = [
      ['api', 'API'],
      ['workers', 'workers'],
      ['temporal', 'Temporal server processes'],
      ['temporal_db', "Temporal's PostgreSQL (cluster; SQLite is inside the dev server)"],
      ['postgres', "Loom's PostgreSQL"],
      ['total', '**whole stack**'],
      ['service frontend', 'of Temporal: frontend'],
      ['service history', 'of Temporal: history ×2'],
      ['service matching', 'of Temporal: matching ×2'],
      ['service worker', 'of Temporal: worker service'],
    ];
    lines.push(`| ms of CPU per run | ${columns.map((c) => c.title).join(' | ')} |`, `|---|${columns.map(() => '---|').join('')}`);
    for (const [key, label] of parts) {
      if (!columns.some((c) => c.cpu[key] !== undefined)) continue;
      lines.push(`| ${label} | ${columns.map((c) => (c.cpu[key] === undefined ? '-' : String(c.cpu[key]))).join(' | ')} |`);
    }
  }
  if (ceilings.length) {
    lines.push('', '| Row | Cluster | Dev server | Cluster vs 1 worker | Dev server vs 1 worker |', '|---|---|---|---|---|');
    for (const row of ceilings) {
      const times = (key: string) => {
        const v = row.details?.[key];
        return typeof v === 'number' ? `${v.toFixed(3)}x` : '-';
      };
      lines.push(`| ${row.path} | ${value(row.ours)} | ${value(row.baseline)} | ${times('scalingVsOneWorker')} | ${times('devScalingVsOneWorker')} |`);
    }
  }
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
}

/** Grouped bars: one group per kind of run, one bar per percentile, log-free linear scale in ms. */
export function latencyChart(entries: RunLatencyChart[]): string {
  const width = 900;
  const height = 420;
  const margin = { top: 50, right: 20, bottom: 70, left: 70 };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const keys = ['p50', 'p90', 'p95', 'p99'] as const;
  const colors = ['#4e79a7', '#59a14f', '#f28e2b', '#e15759'];
  const max = Math.max(1, ...entries.flatMap((e) => keys.map((k) => (Number.isFinite(e[k]) ? e[k] : 0))));
  const step = 10 ** Math.floor(Math.log10(max));
  const top = Math.ceil(max / step) * step;
  const y = (v: number) => margin.top + plotH - (v / top) * plotH;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="DejaVu Sans, Arial, sans-serif">`);
  parts.push(`<rect width="100%" height="100%" fill="white"/>`);
  parts.push(`<text x="${width / 2}" y="28" text-anchor="middle" font-size="18">Run latency, start to completed (ms)</text>`);
  for (let i = 0; i <= 5; i += 1) {
    const v = (top / 5) * i;
    parts.push(`<line x1="${margin.left}" x2="${width - margin.right}" y1="${y(v)}" y2="${y(v)}" stroke="#ddd"/>`);
    parts.push(`<text x="${margin.left - 8}" y="${y(v) + 4}" text-anchor="end" font-size="12">${Math.round(v)}</text>`);
  }
  const groupW = entries.length ? plotW / entries.length : plotW;
  const barW = (groupW * 0.7) / keys.length;
  entries.forEach((entry, g) => {
    const x0 = margin.left + g * groupW + groupW * 0.15;
    keys.forEach((k, i) => {
      const v = Number.isFinite(entry[k]) ? entry[k] : 0;
      const x = x0 + i * barW;
      parts.push(`<rect x="${x}" y="${y(v)}" width="${barW - 2}" height="${margin.top + plotH - y(v)}" fill="${colors[i]}"/>`);
      parts.push(`<text x="${x + barW / 2}" y="${y(v) - 4}" text-anchor="middle" font-size="10">${Math.round(v)}</text>`);
    });
    parts.push(`<text x="${margin.left + g * groupW + groupW / 2}" y="${height - margin.bottom + 20}" text-anchor="middle" font-size="13">${escapeXml(entry.label)}</text>`);
  });
  keys.forEach((k, i) => {
    const x = margin.left + i * 90;
    parts.push(`<rect x="${x}" y="${height - 28}" width="14" height="14" fill="${colors[i]}"/>`);
    parts.push(`<text x="${x + 20}" y="${height - 16}" font-size="13">${k}</text>`);
  });
  parts.push(`<line x1="${margin.left}" x2="${margin.left}" y1="${margin.top}" y2="${margin.top + plotH}" stroke="#333"/>`);
  parts.push(`<line x1="${margin.left}" x2="${width - margin.right}" y1="${margin.top + plotH}" y2="${margin.top + plotH}" stroke="#333"/>`);
  parts.push('</svg>');
  return parts.join('\n');
}
