import { z } from 'zod';
import type { Db } from '../../db/knex';
import { RUN_STATUSES, type RunStatus } from '../../lib/dag/model';
import { notFound, validationError } from '../../lib/errors';
import { workflowNames } from '../workflows/queries';

/**
 * Run statistics for people (the console's charts, GET /api/v1/runs/stats): runs per day by status and duration
 * percentiles per workflow over the last `days` days, days counted in the caller's time zone. Read from
 * workflow_runs through its (organization_id, created_at) index: one range of the organization's rows, at most 90
 * days of them.
 */

const timeZone = z
  .string()
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: zone });
      return /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone);
    } catch {
      return false;
    }
  }, 'an IANA time zone such as UTC, Europe/Berlin or America/New_York');

export const runStatsQuery = z.object({
  days: z.coerce.number().int().min(1).max(90).optional().default(7).describe('how many days back, today included (1–90)'),
  time_zone: timeZone.optional().default('UTC').describe('where days begin and end: an IANA time zone (default UTC)'),
  workflow_id: z.uuid().optional().describe('only runs of this workflow'),
});
export type RunStatsQuery = z.output<typeof runStatsQuery>;

const count = z.number().int();
const perStatus = Object.fromEntries(RUN_STATUSES.map((status) => [status, count])) as Record<RunStatus, typeof count>;

export const runStatsSchema = z
  .object({
    days: z.number().int(),
    time_zone: z.string(),
    from: z.string().describe('the first instant counted: midnight of the first day in time_zone (ISO 8601)'),
    per_day: z
      .array(z.object({ date: z.string().describe('YYYY-MM-DD in time_zone'), total: count, ...perStatus }))
      .describe('one entry per day, oldest first, days without runs included'),
    workflows: z
      .array(
        z.object({
          workflow_id: z.uuid(),
          workflow_name: z.string().nullable(),
          runs: count,
          ...perStatus,
          p50_ms: z.number().nullable().describe('median duration of its completed runs (started_at to completed_at)'),
          p95_ms: z.number().nullable().describe('95th percentile of the same durations'),
        }),
      )
      .describe('workflows with runs in the period, most runs first (at most 100)'),
  })
  .meta({ id: 'RunStats', description: 'Runs per day by status and duration percentiles per workflow' });
export type RunStats = z.infer<typeof runStatsSchema>;

const MAX_WORKFLOWS = 100;

export async function runStatistics(db: Db, organizationId: string, query: RunStatsQuery): Promise<RunStats> {
  // A workflow of another organization (or none) is not found, as everywhere: zeros would say it exists.
  if (query.workflow_id && !(await workflowNames(db, organizationId, [query.workflow_id])).size) throw notFound('workflow');
  try {
    return await read(db, organizationId, query);
  } catch (err) {
    // PostgreSQL's zone list and the runtime's can differ; a zone only one of them knows is the caller's input.
    if ((err as { code?: string }).code === '22023') {
      throw validationError('invalid query', [{ path: 'query.time_zone', problem: `time zone ${query.time_zone} is not known here` }]);
    }
    throw err;
  }
}

async function read(db: Db, organizationId: string, query: RunStatsQuery): Promise<RunStats> {
  const zone = query.time_zone;
  const bounds = (await db.raw(
    `SELECT (date_trunc('day', now() AT TIME ZONE ?) - make_interval(days => ?)) AT TIME ZONE ? AS start,
            to_char(date_trunc('day', now() AT TIME ZONE ?) - make_interval(days => ?), 'YYYY-MM-DD') AS first_day`,
    [zone, query.days - 1, zone, zone, query.days - 1],
  )) as { rows: { start: Date; first_day: string }[] };
  const { start, first_day: firstDay } = bounds.rows[0]!;
  const scope = (q: ReturnType<Db>) => {
    q.where('organization_id', organizationId).andWhere('created_at', '>=', start);
    if (query.workflow_id) q.andWhere('workflow_id', query.workflow_id);
    return q;
  };

  const dayRows = (await scope(db('workflow_runs'))
    .select(db.raw("to_char(created_at AT TIME ZONE ?, 'YYYY-MM-DD') AS day", [zone]), 'status')
    .count<{ day: string; status: RunStatus; n: string }[]>({ n: '*' })
    .groupBy('day', 'status')) as { day: string; status: RunStatus; n: string | number }[];

  const completedMs = "extract(epoch FROM completed_at - started_at) * 1000";
  const workflowRows = (await scope(db('workflow_runs'))
    .select(
      'workflow_id',
      db.raw('count(*)::int AS runs'),
      ...RUN_STATUSES.map((status) => db.raw(`count(*) FILTER (WHERE status = ?)::int AS ??`, [status, status])),
      db.raw(
        `percentile_cont(0.5) WITHIN GROUP (ORDER BY ${completedMs}) FILTER (WHERE status = 'completed' AND started_at IS NOT NULL AND completed_at IS NOT NULL) AS p50_ms`,
      ),
      db.raw(
        `percentile_cont(0.95) WITHIN GROUP (ORDER BY ${completedMs}) FILTER (WHERE status = 'completed' AND started_at IS NOT NULL AND completed_at IS NOT NULL) AS p95_ms`,
      ),
    )
    .groupBy('workflow_id')
    .orderBy([{ column: 'runs', order: 'desc' }, { column: 'workflow_id' }])
    .limit(MAX_WORKFLOWS)) as ({ workflow_id: string; runs: number; p50_ms: number | null; p95_ms: number | null } & Record<RunStatus, number>)[];
  const names = await workflowNames(db, organizationId, workflowRows.map((r) => r.workflow_id));

  return {
    days: query.days,
    time_zone: zone,
    from: new Date(start).toISOString(),
    per_day: dailyCounts(firstDay, query.days, dayRows),
    workflows: workflowRows.map((r) => ({
      workflow_id: r.workflow_id,
      workflow_name: names.get(r.workflow_id) ?? null,
      runs: r.runs,
      ...(Object.fromEntries(RUN_STATUSES.map((status) => [status, r[status]])) as Record<RunStatus, number>),
      p50_ms: roundMs(r.p50_ms),
      p95_ms: roundMs(r.p95_ms),
    })),
  };
}

/** One entry per calendar day from `firstDay` on, zeros where nothing ran. */
export function dailyCounts(firstDay: string, days: number, rows: { day: string; status: RunStatus; n: string | number }[]): RunStats['per_day'] {
  const zero = () => Object.fromEntries(RUN_STATUSES.map((status) => [status, 0])) as Record<RunStatus, number>;
  const byDay = new Map<string, RunStats['per_day'][number]>();
  const first = Date.parse(`${firstDay}T00:00:00Z`);
  for (let i = 0; i < days; i++) {
    const date = new Date(first + i * 86_400_000).toISOString().slice(0, 10);
    byDay.set(date, { date, total: 0, ...zero() });
  }
  for (const row of rows) {
    const entry = byDay.get(row.day);
    if (!entry) continue; // a run created after "now" was read: it belongs to the next answer
    entry[row.status] += Number(row.n);
    entry.total += Number(row.n);
  }
  return [...byDay.values()];
}

function roundMs(value: number | string | null): number | null {
  return value === null ? null : Math.round(Number(value));
}
