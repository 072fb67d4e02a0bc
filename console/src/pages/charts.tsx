import { api } from '../api';
import { formatDuration } from '../format';
import { href, type Route } from '../route';
import type { RunStats } from '../types';
import { ErrorNote, Loading, PageTitle, useLoad } from '../ui';

const STATUS_ORDER = ['completed', 'failed', 'cancelled', 'running', 'pending'] as const;
type Day = RunStats['per_day'][number];
type WorkflowStats = RunStats['workflows'][number];

/** Runs per day by status and p50/p95 durations per workflow, over the last 7 or 30 days, in the browser's time zone. */
export function ChartsPage({ route }: { route: Route }) {
  const days = route.query.get('days') === '30' ? 30 : 7;
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const stats = useLoad(() => api<RunStats>('/api/v1/runs/stats', { query: { days, time_zone: timeZone } }), [days, timeZone]);
  return (
    <>
      <PageTitle>Charts</PageTitle>
      <p class="tabs" role="group" aria-label="Period">
        <a href={href(['charts'])} aria-current={days === 7 ? 'page' : undefined}>
          Last 7 days
        </a>
        <a href={href(['charts'], { days: '30' })} aria-current={days === 30 ? 'page' : undefined}>
          Last 30 days
        </a>
      </p>
      <ErrorNote error={stats.error} />
      {!stats.data ? (
        stats.loading && <Loading what="statistics" />
      ) : (
        <>
          <section aria-labelledby="per-day-title">
            <h2 id="per-day-title">Runs per day</h2>
            <RunsPerDay days={stats.data.per_day} />
          </section>
          <section aria-labelledby="durations-title">
            <h2 id="durations-title">Duration per workflow (completed runs)</h2>
            <Durations workflows={stats.data.workflows} />
          </section>
          <p class="muted">Days in {stats.data.time_zone}, from {new Date(stats.data.from).toLocaleString()}.</p>
        </>
      )}
    </>
  );
}

function Legend() {
  return (
    <ul class="legend" aria-hidden="true">
      {STATUS_ORDER.map((s) => (
        <li key={s}>
          <span class={`swatch fill-${s}`} /> {s}
        </li>
      ))}
    </ul>
  );
}

function RunsPerDay({ days }: { days: Day[] }) {
  const width = 720;
  const height = 220;
  const top = 10;
  const bottom = 30;
  const left = 40;
  const max = Math.max(1, ...days.map((d) => d.total));
  const slot = (width - left) / days.length;
  const bar = Math.max(2, slot * 0.7);
  const scale = (n: number) => (n / max) * (height - top - bottom);
  const total = days.reduce((sum, d) => sum + d.total, 0);
  return (
    <figure>
      <svg viewBox={`0 0 ${width} ${height}`} class="chart" role="img" aria-labelledby="per-day-caption">
        <line x1={left} y1={height - bottom} x2={width} y2={height - bottom} class="axis" />
        <text x={left - 6} y={top + 4} class="tick" text-anchor="end">
          {max}
        </text>
        <text x={left - 6} y={height - bottom} class="tick" text-anchor="end">
          0
        </text>
        {days.map((day, i) => {
          let y = height - bottom;
          const x = left + i * slot + (slot - bar) / 2;
          return (
            <g key={day.date}>
              <title>{`${day.date}: ${day.total} runs (${STATUS_ORDER.map((s) => `${day[s]} ${s}`).join(', ')})`}</title>
              {STATUS_ORDER.map((s) => {
                const h = scale(day[s]);
                y -= h;
                return h > 0 ? <rect key={s} x={x} y={y} width={bar} height={h} class={`fill-${s}`} /> : null;
              })}
              {(days.length <= 10 || i % Math.ceil(days.length / 10) === 0) && (
                <text x={x + bar / 2} y={height - bottom + 16} class="tick" text-anchor="middle">
                  {day.date.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption id="per-day-caption">
        {total} runs in {days.length} days, by day and status.
      </figcaption>
      <Legend />
      <details>
        <summary>As a table</summary>
        <table class="list compact">
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Total</th>
              {STATUS_ORDER.map((s) => (
                <th key={s} scope="col">
                  {s}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.date}>
                <th scope="row">{day.date}</th>
                <td>{day.total}</td>
                {STATUS_ORDER.map((s) => (
                  <td key={s}>{day[s]}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

function Durations({ workflows }: { workflows: WorkflowStats[] }) {
  const timed = workflows.filter((w) => w.p95_ms !== null);
  if (workflows.length === 0) return <p class="muted">No runs in this period.</p>;
  const max = Math.max(1, ...timed.map((w) => w.p95_ms ?? 0));
  const width = 720;
  const row = 34;
  const left = 200;
  const scale = (ms: number) => (ms / max) * (width - left - 90);
  return (
    <figure>
      {timed.length > 0 && (
        <svg viewBox={`0 0 ${width} ${timed.length * row + 10}`} class="chart" role="img" aria-labelledby="durations-caption">
          {timed.map((w, i) => {
            const y = i * row + 5;
            const name = w.workflow_name ?? w.workflow_id.slice(0, 8);
            return (
              <g key={w.workflow_id}>
                <title>{`${name}: p50 ${formatDuration(w.p50_ms)}, p95 ${formatDuration(w.p95_ms)} over ${w.completed} completed runs`}</title>
                <text x={left - 8} y={y + 18} class="tick" text-anchor="end">
                  {name.length > 28 ? `${name.slice(0, 27)}…` : name}
                </text>
                <rect x={left} y={y + 4} width={scale(w.p95_ms ?? 0)} height={12} class="fill-p95" />
                <rect x={left} y={y + 16} width={scale(w.p50_ms ?? 0)} height={12} class="fill-p50" />
                <text x={left + scale(w.p95_ms ?? 0) + 6} y={y + 18} class="tick">
                  {formatDuration(w.p95_ms)}
                </text>
              </g>
            );
          })}
        </svg>
      )}
      <figcaption id="durations-caption">p95 (upper bar) and p50 (lower bar) duration of completed runs per workflow.</figcaption>
      <table class="list compact">
        <thead>
          <tr>
            <th scope="col">Workflow</th>
            <th scope="col">Runs</th>
            <th scope="col">Completed</th>
            <th scope="col">Failed</th>
            <th scope="col">p50</th>
            <th scope="col">p95</th>
          </tr>
        </thead>
        <tbody>
          {workflows.map((w) => (
            <tr key={w.workflow_id}>
              <th scope="row">
                <a href={href(['runs'], { workflow: w.workflow_id })}>{w.workflow_name ?? w.workflow_id.slice(0, 8)}</a>
              </th>
              <td>{w.runs}</td>
              <td>{w.completed}</td>
              <td>{w.failed}</td>
              <td>{formatDuration(w.p50_ms)}</td>
              <td>{formatDuration(w.p95_ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
