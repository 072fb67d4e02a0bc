/**
 * `temporal-setup`: makes the configured Temporal namespace ready for Loom (docs/scaling.md#temporal-connection),
 * on any server the configuration reaches (TLS and API keys included): the namespace with its retention, then Loom's
 * search attributes, then a wait until a run start would take them (a real cluster refuses new attributes for a
 * second or two: until they are listed, then one reload of the hosts' namespace caches). Idempotent: run it at every deploy; docker-compose.yml's temporal-init does the same by hand.
 */
import { msToTs } from '@temporalio/common/lib/time';
import { parseDuration } from '../../lib/duration';
import { closeTemporalClient, createTemporalClient } from '../../lib/temporal';
import { checkNamespace, checkSearchAttributes } from '../../lib/temporalSetup';
import { ensureSearchAttributes } from '../../worker/searchAttributes';
import type { AdminCommand } from './command';
import { parseFlags, UsageError } from './options';

const DEFAULT_RETENTION = '7d';
const SETTLE_MS = 30_000;
/**
 * The attributes are read back through the frontend, but every frontend and history host checks a start against
 * its own copy of the namespace, reloaded every 2 s (system.namespaceCacheRefreshInterval): after a change, one
 * reload more, so that "runs can start" holds on each of them (on a cluster a start was refused for up to 2 s).
 */
const CACHE_RELOAD_MS = 2500;

async function until(ready: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    if (await ready()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface SetupReport {
  namespace: string;
  created: boolean;
  retentionDays: number | null;
  searchAttributesAdded: string[];
}

export const TEMPORAL_COMMANDS: Record<string, AdminCommand> = {
  'temporal-setup': {
    usage: '[--retention <duration>]',
    summary: `create the Temporal namespace (retention --retention, default ${DEFAULT_RETENTION}) if it is missing and register Loom's search attributes; idempotent`,
    minArgs: 0,
    maxArgs: 2,
    async run(args, ctx) {
      const flags = parseFlags(args, {
        retention: (v) => {
          try {
            return parseDuration(v);
          } catch {
            throw new UsageError(`--retention must be a duration such as 7d or 72h, got "${v}"`);
          }
        },
      });
      const retentionMs = Number(flags.retention ?? parseDuration(DEFAULT_RETENTION));
      if (retentionMs < 86_400_000) throw new UsageError('--retention must be at least 1d (Temporal\'s minimum)');
      const { namespace } = ctx.config.temporal;
      const client = createTemporalClient(ctx.config.temporal);
      try {
        const service = client.connection.workflowService;
        const existed = (await checkNamespace(client, namespace)).ok;
        if (!existed) await service.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs(retentionMs) });
        else if (flags.retention !== undefined) {
          await service.updateNamespace({ namespace, config: { workflowExecutionRetentionTtl: msToTs(retentionMs) } });
        }
        // A new namespace reaches each of the server's caches in turn: wait until its search attributes can be listed.
        const visible = async () => (await checkNamespace(client, namespace)).ok && (await checkSearchAttributes(client, namespace).then(() => true, () => false));
        if (!(await until(visible))) {
          ctx.err(`namespace ${namespace} was created but is not visible after ${SETTLE_MS / 1000} s`, 'FAILED');
          return 1;
        }
        const attributes = await ensureSearchAttributes(client, namespace);
        if (attributes.conflicting.length) {
          ctx.err(`search attributes registered with another type in ${namespace}: ${attributes.conflicting.join(', ')}; remove or rename them first`, 'FAILED');
          return 1;
        }
        if (!(await until(async () => (await checkSearchAttributes(client, namespace)).ok))) {
          ctx.err(`search attributes added to ${namespace} but not usable after ${SETTLE_MS / 1000} s`, 'FAILED');
          return 1;
        }
        if (!existed || attributes.added.length) await new Promise((r) => setTimeout(r, CACHE_RELOAD_MS));
        const described = await service.describeNamespace({ namespace });
        const ttl = described.config?.workflowExecutionRetentionTtl?.seconds;
        const report: SetupReport = {
          namespace,
          created: !existed,
          retentionDays: ttl === undefined || ttl === null ? null : Number(ttl) / 86_400,
          searchAttributesAdded: attributes.added,
        };
        ctx.emit(report, (r) => [
          `admin: namespace ${r.namespace} ${r.created ? 'created' : 'present'} (retention ${r.retentionDays ?? '?'} days)`,
          `admin: search attributes ${r.searchAttributesAdded.length ? `added: ${r.searchAttributesAdded.join(', ')}` : 'all present'}; runs can start`,
        ]);
        return 0;
      } finally {
        await closeTemporalClient(client).catch(() => undefined);
      }
    },
  },
};
