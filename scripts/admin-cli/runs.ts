/**
 * Operator look-ups of runs: one run by its id alone (across organizations), or an organization's runs. Both read
 * through the runs service, so they show what `GET /api/v1/workflows/{id}/runs/{runId}` and `GET /api/v1/runs` show
 * (an open run's live state included).
 */
import { findRunOwner } from '../../domain/runs/queries';
import type { RunSummaryView, RunView } from '../../domain/runs/schemas';
import { getOrganizationAnyStatus } from '../../domain/organizations/queries';
import { RUN_STATUSES, type RunStatus } from '../../lib/dag/model';
import type { AdminCommand, AdminContext } from './command';
import { formatTable, iso, oneOf, parseFlags, positiveInt, requireUuid, truncate, UsageError } from './options';

/** The API's page size limit: `runs list` reads one page of GET /api/v1/runs. */
const MAX_LIST = 100;

const duration = (ms: number | null): string => (ms === null ? '-' : `${ms} ms`);

function runLines(run: RunView & { organization_id: string }): string[] {
  const fields: [string, string][] = [
    ['run', run.id],
    ['organization', run.organization_id],
    ['workflow', `${run.workflow_id} (version ${run.workflow_version})`],
    ['status', run.awaiting_approval ? `${run.status} (awaiting approval)` : run.status],
    ['trigger', run.trigger.type],
    ['created', iso(run.created_at)],
    ['started', iso(run.started_at)],
    ['completed', iso(run.completed_at)],
    ['duration', duration(run.duration)],
    ['retry of', run.retry_of ?? '-'],
    ['parent', run.parent ? `run ${run.parent.run_id} (node ${run.parent.node_id})` : '-'],
    ['picture', run.links.picture],
    ['temporal', run.links.temporal],
  ];
  const width = Math.max(...fields.map(([name]) => name.length));
  const lines = fields.map(([name, value]) => `${name.padEnd(width)}  ${value}`);
  const nodes = Object.entries(run.node_states);
  if (nodes.length) {
    lines.push('');
    const rows = nodes.map(([id, s]) => [id, s.status, String(s.attempts), iso(s.startedAt), iso(s.finishedAt), s.error ? truncate(`${s.error.code}: ${s.error.message}`, 60) : '-']);
    lines.push(...formatTable(['NODE', 'STATUS', 'ATTEMPTS', 'STARTED', 'FINISHED', 'ERROR'], rows));
  }
  for (const e of run.errors) lines.push(`error: ${e.node ?? '(run)'}: ${e.code}: ${truncate(e.message, 200)}`);
  return lines;
}

async function showRun(args: string[], ctx: AdminContext): Promise<number> {
  if (args.length !== 1) throw new UsageError('show takes exactly one run id');
  const runId = requireUuid('the run id', args[0]);
  const owner = await findRunOwner(ctx.db, runId);
  if (!owner) {
    ctx.err(`no run ${runId}`, 'NOT_FOUND');
    return 1;
  }
  const run = await ctx.withServices((services) => services.runs.get(owner.organization_id, owner.workflow_id, runId));
  ctx.emit({ organization_id: owner.organization_id, ...run }, runLines);
  return 0;
}

function listLines(runs: RunSummaryView[], more: boolean): string[] {
  if (!runs.length) return ['admin: no runs'];
  const rows = runs.map((r) => [
    r.id,
    r.workflow_id,
    truncate(r.workflow_name ?? '-', 40),
    String(r.workflow_version),
    r.status,
    r.trigger.type,
    iso(r.created_at),
    duration(r.duration),
  ]);
  return [
    ...formatTable(['RUN', 'WORKFLOW', 'NAME', 'VERSION', 'STATUS', 'TRIGGER', 'CREATED', 'DURATION'], rows),
    `admin: ${runs.length} run(s)${more ? ' (newest first; raise --limit for more)' : ''}`,
  ];
}

async function listRuns(args: string[], ctx: AdminContext): Promise<number> {
  const flags = parseFlags(args, {
    org: (v) => requireUuid('--org', v),
    status: oneOf<RunStatus>('--status', RUN_STATUSES),
    limit: positiveInt(MAX_LIST),
  });
  if (!flags.org) throw new UsageError('--org is required');
  const organizationId = flags.org;
  if (!(await getOrganizationAnyStatus(ctx.db, organizationId))) {
    ctx.err(`no organization ${organizationId}`, 'NOT_FOUND');
    return 1;
  }
  const page = await ctx.withServices((services) =>
    services.runs.listAll(organizationId, { limit: flags.limit ?? 20, ...(flags.status ? { status: flags.status } : {}) }),
  );
  const listed = { data: page.data, more: page.nextCursor !== null };
  ctx.emit(listed, (l) => listLines(l.data, l.more));
  return 0;
}

export const RUNS_COMMANDS: Record<string, AdminCommand> = {
  runs: {
    usage: 'show <run-id> | list --org <id> [--status <status>] [--limit N]',
    summary:
      "one run by its id (status, times, trigger, each node's state, errors, picture and Temporal links) or an " +
      "organization's runs, newest first (default limit 20, max 100)",
    minArgs: 1,
    maxArgs: 7,
    async run([action, ...rest], ctx) {
      if (action === 'show') return showRun(rest, ctx);
      if (action === 'list') return listRuns(rest, ctx);
      throw new UsageError(`unknown action "${action}" (show or list)`);
    },
  },
};
