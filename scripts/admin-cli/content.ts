/**
 * Operator commands over content: re-embedding an organization's content with its current embedding model (the
 * same service as POST /api/v1/content/reembeddings, audited with the CLI as actor), and its progress.
 */
import type { ReembeddingView } from '../../domain/content/reembedding';
import type { AdminCommand } from './command';
import { formatTable, iso, parseFlags, requireUuid, truncate, UsageError } from './options';

function progressRows(operations: ReembeddingView[]): string[][] {
  return operations.map((o) => [
    o.id,
    o.status,
    o.fromModel ? `${o.fromModel} → ${o.targetModel}` : `→ ${o.targetModel}`,
    `${o.done}/${o.total}`,
    String(o.skipped),
    String(o.failed),
    String(o.remaining),
    iso(o.createdAt),
    iso(o.finishedAt),
    o.lastError ? truncate(o.lastError, 50) : '-',
  ]);
}

const HEADER = ['ID', 'STATUS', 'MODELS', 'DONE', 'SKIPPED', 'FAILED', 'REMAINING', 'STARTED', 'FINISHED', 'LAST ERROR'];

export const CONTENT_COMMANDS: Record<string, AdminCommand> = {
  reembed: {
    usage: '--org <uuid> [--model <name>]',
    summary: "re-embed an organization's content with its current embedding model in the background (only one model's content with --model)",
    minArgs: 2,
    maxArgs: 4,
    async run(args, ctx) {
      const flags = parseFlags(args, { org: (v) => requireUuid('--org', v), model: (v) => v });
      if (!flags.org) throw new UsageError('--org is required');
      if (!(await ctx.db('organizations').where({ id: flags.org }).first('id'))) {
        ctx.err(`no organization ${flags.org}`, 'NOT_FOUND');
        return 1;
      }
      const started = await ctx.withServices((services) =>
        services.content.reembeddings.start(flags.org!, null, flags.model === undefined ? {} : { model: String(flags.model) }),
      );
      ctx.emit(started, (s) => [
        `admin: re-embedding ${s.id} started: ${s.total} content(s) to ${s.targetModel}`,
        `admin: follow it with: npm run admin -- reembed-status --org ${flags.org} --id ${s.id}`,
      ]);
      return 0;
    },
  },
  'reembed-status': {
    usage: '--org <uuid> [--id <uuid>]',
    summary: "an organization's re-embedding operations (the latest 20) or one of them: done, skipped, failed, remaining",
    minArgs: 2,
    maxArgs: 4,
    async run(args, ctx) {
      const flags = parseFlags(args, { org: (v) => requireUuid('--org', v), id: (v) => requireUuid('--id', v) });
      if (!flags.org) throw new UsageError('--org is required');
      const operations = await ctx.withServices(async (services) =>
        flags.id ? [await services.content.reembeddings.get(flags.org!, flags.id)] : (await services.content.reembeddings.list(flags.org!, { limit: 20 })).data,
      );
      ctx.emit({ data: operations }, ({ data }) => (data.length ? formatTable(HEADER, progressRows(data)) : ['admin: no re-embedding operations']));
      return 0;
    },
  },
};
