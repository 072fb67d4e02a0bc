/**
 * Operator commands over runs and retention: dead letters (list, replay), circuit breaker states, purge now.
 * Everything goes through the functions the runs, audit, auth and idempotency code already use (their queries and
 * services), so the CLI answers exactly what the API and the scheduled purges would.
 */
import type { AppDeps } from '../../domain/deps';
import { createDeps } from '../../domain/runtime';
import { createServices, type Services } from '../../domain/services';
import { purgeExpiredAuditLogs } from '../../domain/audit/queries';
import { pruneAuthData } from '../../domain/auth/admin';
import { purgeExpiredIdempotencyKeys } from '../../domain/idempotency/queries';
import { DEFAULT_AUDIT_RETENTION_DAYS } from '../../domain/organizations/settingsModel';
import { listCircuitBreakers, listDeadLetters, type CircuitBreakerRow, type DeadLetterRow } from '../../domain/runs/failureQueries';
import { createRunActivities } from '../../activities/runs/runActivities';
import { AppError } from '../../lib/errors';
import { createLogger } from '../../lib/logger';
import type { AdminCommand, AdminContext } from '../admin';
import { formatTable, iso, parseFlags, positiveInt, requireUuid, truncate, UsageError } from './options';

const MAX_LIST = 1000;

/** The organizations a command looks at: the one given, or every organization (operators see across tenants). */
async function organizationIds(ctx: AdminContext, org: string | undefined): Promise<string[]> {
  if (org) return [org];
  return ctx.db('organizations').orderBy('created_at').pluck('id');
}

/**
 * The CLI's composition root: the API's services on the CLI's connection, built on first use (Temporal, MinIO and
 * SMTP clients are lazy: nothing connects unused). The operator's starts skip run admission.
 */
export async function withServices<T>(ctx: AdminContext, work: (services: Services) => Promise<T>): Promise<T> {
  const deps: AppDeps = createDeps(ctx.config, createLogger('silent', 'admin'), ctx.db);
  const services = createServices(deps, { admitRunStarts: false });
  try {
    return await work(services);
  } finally {
    await services.close();
    await deps.temporal.connection.close().catch(() => undefined);
  }
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
  if (!shown.length) {
    ctx.out('admin: no dead letters');
    return 0;
  }
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
  for (const line of formatTable(['ID', 'ORGANIZATION', 'RUN', 'NODE', 'TOOL', 'QUEUE', 'STATUS', 'ATTEMPTS', 'CREATED', 'ERROR'], rows)) {
    ctx.out(line);
  }
  ctx.out(`admin: ${shown.length} dead letter(s)${letters.length > shown.length ? ` (first ${limit}; raise --limit for more)` : ''}`);
  return 0;
}

async function replayLetter(args: string[], ctx: AdminContext): Promise<number> {
  if (args.length !== 1) throw new UsageError('replay takes exactly one dead letter id');
  const id = requireUuid('the dead letter id', args[0]);
  // The operator names the letter only; its organization scopes everything after this lookup.
  const owner = (await ctx.db('dead_letters').where({ id }).first('organization_id')) as { organization_id: string } | undefined;
  if (!owner) {
    ctx.err(`admin: no dead letter ${id}`);
    return 1;
  }
  try {
    const { deadLetter, run } = await withServices(ctx, (services) => services.runs.replayDeadLetter(owner.organization_id, id, null));
    ctx.out(`admin: replayed dead letter ${deadLetter.id} as run ${String(run.id)} (workflow ${deadLetter.workflow_id}, status ${String(run.status)})`);
    return 0;
  } catch (err) {
    if (err instanceof AppError) {
      ctx.err(`admin: cannot replay dead letter ${id}: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

function breakerRetryAt(b: CircuitBreakerRow): string {
  if (b.state !== 'open' || !b.opened_at || b.open_timeout_ms === null) return '-';
  return iso(new Date(new Date(b.opened_at).getTime() + b.open_timeout_ms));
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
      if (!breakers.length) {
        ctx.out('admin: no circuit breakers');
        return 0;
      }
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
      for (const line of formatTable(['ORGANIZATION', 'TOOL', 'SCOPE', 'STATE', 'FAILURES', 'OPENED', 'HALF-OPEN AT', 'LAST ERROR'], rows)) {
        ctx.out(line);
      }
      const open = breakers.filter((b) => b.state !== 'closed').length;
      ctx.out(`admin: ${breakers.length} circuit breaker(s), ${open} not closed`);
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
      const deadLetters = await withServices(ctx, ({ deps }) => createRunActivities(deps).runPurgeDeadLetters());
      ctx.out(`admin: purged ${deadLetters.deleted} dead letter(s) past retention`);
      const audit = await purgeExpiredAuditLogs(ctx.db, DEFAULT_AUDIT_RETENTION_DAYS);
      ctx.out(`admin: purged ${audit} audit log entry(ies) past their organization's retention`);
      const keys = await purgeExpiredIdempotencyKeys(ctx.db);
      ctx.out(`admin: purged ${keys} expired idempotency key(s)`);
      const auth = await pruneAuthData(ctx.db, ctx.config.auth.sessionIdleTimeoutMs);
      ctx.out(`admin: purged ${auth.sessions} dead session(s) and ${auth.authTokens} spent or expired auth code(s)`);
      return 0;
    },
  },
};
