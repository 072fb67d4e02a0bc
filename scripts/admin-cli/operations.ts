/**
 * Operator commands over runs and retention: dead letters (list, replay), circuit breaker states, purge now.
 * Everything goes through the functions the runs, audit, auth and idempotency code already use (their queries and
 * services), so the CLI answers exactly what the API and the scheduled purges would.
 */
import { purgeExpiredAuditLogs } from '../../domain/audit/queries';
import { pruneAuthData } from '../../domain/auth/admin';
import { purgeExpiredIdempotencyKeys } from '../../domain/idempotency/queries';
import { DEFAULT_AUDIT_RETENTION_DAYS } from '../../domain/organizations/settingsModel';
import { listCircuitBreakers, listDeadLetters, type CircuitBreakerRow, type DeadLetterRow } from '../../domain/runs/failureQueries';
import { serializeCircuitBreaker, serializeDeadLetter } from '../../domain/runs/serializers';
import { createRunActivities } from '../../activities/runs/runActivities';
import { AppError } from '../../lib/errors';
import type { AdminCommand, AdminContext } from './command';
import { formatTable, iso, parseFlags, positiveInt, requireUuid, truncate, UsageError } from './options';

const MAX_LIST = 1000;

/** The organizations a command looks at: the one given, or every organization (operators see across tenants). */
async function organizationIds(ctx: AdminContext, org: string | undefined): Promise<string[]> {
  if (org) return [org];
  return ctx.db('organizations').orderBy('created_at').pluck('id');
}

async function listLetters(args: string[], ctx: AdminContext): Promise<number> {
  const flags = parseFlags(args, { org: (v) => requireUuid('--org', v), limit: positiveInt(MAX_LIST) });
  const limit = flags.limit ?? 50;
  const letters: DeadLetterRow[] = [];
  for (const organizationId of await organizationIds(ctx, flags.org)) {
    letters.push(...(await listDeadLetters(ctx.db, organizationId, { limit })));
  }
  letters.sort((a, b) => new Date(b.created_at).getTime() - new Date(a.created_at).getTime() || (a.id < b.id ? 1 : -1));
  const shown = letters.slice(0, limit);
  const listed = {
    data: shown.map((l) => ({ organization_id: l.organization_id, ...serializeDeadLetter(l) })),
    more: letters.length > shown.length,
  };
  ctx.emit(listed, () => {
    if (!shown.length) return ['admin: no dead letters'];
    const rows = shown.map((l) => [
      l.id,
      l.organization_id,
      l.run_id,
      l.node_id,
      l.tool ?? '-',
      l.queue,
      l.status,
      String(l.attempts),
      iso(l.created_at),
      truncate(`${l.error.code}: ${l.error.message}`, 60),
    ]);
    return [
      ...formatTable(['ID', 'ORGANIZATION', 'RUN', 'NODE', 'TOOL', 'QUEUE', 'STATUS', 'ATTEMPTS', 'CREATED', 'ERROR'], rows),
      `admin: ${shown.length} dead letter(s)${listed.more ? ` (first ${limit}; raise --limit for more)` : ''}`,
    ];
  });
  return 0;
}

async function replayLetter(args: string[], ctx: AdminContext): Promise<number> {
  if (args.length !== 1) throw new UsageError('replay takes exactly one dead letter id');
  const id = requireUuid('the dead letter id', args[0]);
  // The operator names the letter only; its organization scopes everything after this lookup.
  const owner = (await ctx.db('dead_letters').where({ id }).first('organization_id')) as { organization_id: string } | undefined;
  if (!owner) {
    ctx.err(`no dead letter ${id}`, 'NOT_FOUND');
    return 1;
  }
  try {
    const { deadLetter, run } = await ctx.withServices((services) => services.runs.replayDeadLetter(owner.organization_id, id, null));
    const replayed = { dead_letter_id: deadLetter.id, run_id: String(run.id), workflow_id: deadLetter.workflow_id, status: String(run.status) };
    ctx.emit(replayed, (r) => [`admin: replayed dead letter ${r.dead_letter_id} as run ${r.run_id} (workflow ${r.workflow_id}, status ${r.status})`]);
    return 0;
  } catch (err) {
    if (err instanceof AppError) {
      ctx.err(`cannot replay dead letter ${id}: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

function breakerRetryAt(b: CircuitBreakerRow): string {
  if (b.state !== 'open' || !b.opened_at || b.open_timeout_ms === null) return '-';
  return iso(new Date(new Date(b.opened_at).getTime() + b.open_timeout_ms));
}

function breakerLines(breakers: CircuitBreakerRow[]): string[] {
  if (!breakers.length) return ['admin: no circuit breakers'];
  const rows = breakers.map((b) => [
    b.organization_id,
    b.tool,
    b.scope || '-',
    b.state,
    String(b.consecutive_failures),
    iso(b.opened_at),
    breakerRetryAt(b),
    b.last_error ? truncate(`${b.last_error.code}: ${b.last_error.message}`, 60) : '-',
  ]);
  const open = breakers.filter((b) => b.state !== 'closed').length;
  return [
    ...formatTable(['ORGANIZATION', 'TOOL', 'SCOPE', 'STATE', 'FAILURES', 'OPENED', 'HALF-OPEN AT', 'LAST ERROR'], rows),
    `admin: ${breakers.length} circuit breaker(s), ${open} not closed`,
  ];
}

export const OPERATIONS_COMMANDS: Record<string, AdminCommand> = {
  'dead-letters': {
    usage: 'list [--org <id>] [--limit N] | replay <id>',
    summary: 'list dead letters (newest first, across organizations unless --org) or replay one as a new run',
    minArgs: 1,
    maxArgs: 5,
    async run([action, ...rest], ctx) {
      if (action === 'list') return listLetters(rest, ctx);
      if (action === 'replay') return replayLetter(rest, ctx);
      throw new UsageError(`unknown action "${action}" (list or replay)`);
    },
  },
  'circuit-breakers': {
    usage: '[--org <id>]',
    summary: 'show the circuit breaker of every tool that has one (state, consecutive failures, when an open one retries)',
    minArgs: 0,
    maxArgs: 2,
    async run(args, ctx) {
      const flags = parseFlags(args, { org: (v) => requireUuid('--org', v) });
      const breakers: CircuitBreakerRow[] = [];
      for (const organizationId of await organizationIds(ctx, flags.org)) {
        breakers.push(...(await listCircuitBreakers(ctx.db, organizationId)));
      }
      const data = breakers.map((b) => ({ organization_id: b.organization_id, ...serializeCircuitBreaker(b) }));
      ctx.emit({ data }, () => breakerLines(breakers));
      return 0;
    },
  },
  'purge-retention': {
    usage: '',
    summary:
      'run every retention purge now: dead letters past retention, audit logs past their organization\'s retention, ' +
      'expired idempotency keys, dead sessions and spent or expired auth codes',
    minArgs: 0,
    maxArgs: 0,
    async run(_args, ctx) {
      const deadLetters = await ctx.withServices(({ deps }) => createRunActivities(deps).runPurgeDeadLetters());
      const auditLogs = await purgeExpiredAuditLogs(ctx.db, DEFAULT_AUDIT_RETENTION_DAYS);
      const idempotencyKeys = await purgeExpiredIdempotencyKeys(ctx.db);
      const auth = await pruneAuthData(ctx.db, ctx.config.auth.sessionIdleTimeoutMs);
      const purged = { deadLetters: deadLetters.deleted, auditLogs, idempotencyKeys, sessions: auth.sessions, authTokens: auth.authTokens };
      ctx.emit(purged, (p) => [
        `admin: purged ${p.deadLetters} dead letter(s) past retention`,
        `admin: purged ${p.auditLogs} audit log entry(ies) past their organization's retention`,
        `admin: purged ${p.idempotencyKeys} expired idempotency key(s)`,
        `admin: purged ${p.sessions} dead session(s) and ${p.authTokens} spent or expired auth code(s)`,
      ]);
      return 0;
    },
  },
};
