import { hostname } from 'node:os';
import { BUILT_IN_TOOLS } from '../../lib/tools/builtIn.generated';
import { isToolAvailable, toolRunOptions, type ToolDescriptor } from '../../lib/tools/descriptor';
import type { Db } from '../../db/knex';
import type { Config } from '../../lib/config';
import type { Logger } from '../../lib/logger';
import { catalogueVersion, findCatalogue, findCatalogueVersion, publishCatalogue } from './queries';

/**
 * The tool catalogue: which tools the workers of a task queue run, with their schemas. A worker publishes its tools
 * when it starts (`publishWorkerTools`); the API lists them, validates node configs against them and gives runs their
 * time limits from them (`toolCatalogueFor`). So a tool added to a worker (a module in activities/tools/ or in
 * TOOLS_DIRECTORIES) appears after a restart of the worker alone: the API picks the new catalogue up within
 * TOOLS_CATALOGUE_REFRESH. Until a worker has published for the queue, the API uses the tools it was built with.
 *
 * The last worker started on a queue sets its catalogue: during a rolling update that is the newest code's.
 */

export interface CatalogueSource {
  /** `worker`: published by a worker of the queue; `built_in`: none published yet, the API's own tool modules. */
  kind: 'worker' | 'built_in';
  version: string | null;
  publishedBy: string | null;
  publishedAt: Date | null;
}

export interface ToolCatalogue {
  /** Re-reads the catalogue when the last check is older than TOOLS_CATALOGUE_REFRESH (its version; the tools only when it changed). */
  refresh(): Promise<void>;
  /** The tools of the queue as last read, test tools left out unless TOOLS_TEST_TOOLS_ENABLED, by id. */
  list(): readonly ToolDescriptor[];
  get(id: string): ToolDescriptor | undefined;
  /** The tools' time limits and local tools, for a run's options. */
  runOptions(): ReturnType<typeof toolRunOptions>;
  source(): CatalogueSource;
}

interface CatalogueDeps {
  db: Db;
  config: Pick<Config, 'tools' | 'temporal'>;
  logger?: Logger;
}

interface Snapshot {
  tools: readonly ToolDescriptor[];
  byId: ReadonlyMap<string, ToolDescriptor>;
  runOptions: ReturnType<typeof toolRunOptions>;
  source: CatalogueSource;
}

function snapshotOf(tools: readonly ToolDescriptor[], testToolsEnabled: boolean, source: CatalogueSource): Snapshot {
  const available = tools.filter((t) => isToolAvailable(t, testToolsEnabled)).sort((a, b) => a.id.localeCompare(b.id));
  return { tools: available, byId: new Map(available.map((t) => [t.id, t])), runOptions: toolRunOptions(available), source };
}

export function createToolCatalogue(deps: CatalogueDeps): ToolCatalogue {
  const { db, config, logger } = deps;
  const taskQueue = config.temporal.taskQueue;
  const testToolsEnabled = config.tools.testToolsEnabled;
  const builtIn = (): Snapshot =>
    snapshotOf(BUILT_IN_TOOLS, testToolsEnabled, { kind: 'built_in', version: null, publishedBy: null, publishedAt: null });

  let snapshot: Snapshot | null = null;
  let checkedAt = 0;
  let inFlight: Promise<void> | null = null;
  // Descriptors that did not change keep their object, so the validators compiled for them are kept too.
  let byVersion = new Map<string, ToolDescriptor>();

  async function load(): Promise<void> {
    const version = await findCatalogueVersion(db, taskQueue);
    if (version === null) {
      if (snapshot?.source.kind !== 'built_in') snapshot = builtIn();
      return;
    }
    if (snapshot?.source.version === version) return;
    const row = await findCatalogue(db, taskQueue);
    if (!row) return;
    const kept = new Map<string, ToolDescriptor>();
    const tools = row.tools.map((tool) => {
      const key = catalogueVersion([tool]);
      const same = byVersion.get(key) ?? tool;
      kept.set(key, same);
      return same;
    });
    byVersion = kept;
    snapshot = snapshotOf(tools, testToolsEnabled, {
      kind: 'worker',
      version: row.version,
      publishedBy: row.published_by,
      publishedAt: row.published_at,
    });
    logger?.info({ taskQueue, version: row.version, tools: tools.length, publishedBy: row.published_by }, 'tool catalogue loaded');
  }

  function refresh(): Promise<void> {
    if (Date.now() - checkedAt < config.tools.catalogueRefreshMs && snapshot) return Promise.resolve();
    inFlight ??= load()
      .then(() => {
        checkedAt = Date.now();
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  }

  /** The last snapshot, and a refresh in the background when it is stale (sync readers cannot wait). */
  function current(): Snapshot {
    if (Date.now() - checkedAt >= config.tools.catalogueRefreshMs) {
      refresh().catch((err: unknown) => logger?.warn({ err, taskQueue }, 'tool catalogue: refresh failed; keeping the last one'));
    }
    return (snapshot ??= builtIn());
  }

  return {
    refresh: async () => {
      try {
        await refresh();
      } catch (err) {
        // A database hiccup keeps the last catalogue (or the built-in one): validation and listing go on.
        if (!snapshot) throw err;
        logger?.warn({ err, taskQueue }, 'tool catalogue: refresh failed; keeping the last one');
      }
    },
    list: () => current().tools,
    get: (id) => current().byId.get(id),
    runOptions: () => current().runOptions,
    source: () => current().source,
  };
}

/**
 * A worker's start: publishes the tools it runs (the same selection it registers activities for, as descriptors:
 * worker/main.ts) as its queue's catalogue. Returns the ids published.
 */
export async function publishWorkerTools(deps: { db: Db; config: Pick<Config, 'temporal'>; logger?: Logger }, tools: readonly ToolDescriptor[]): Promise<string[]> {
  const { version } = await publishCatalogue(deps.db, {
    taskQueue: deps.config.temporal.taskQueue,
    tools: [...tools],
    publishedBy: `${hostname()}:${process.pid}`,
  });
  const ids = tools.map((t) => t.id);
  deps.logger?.info({ taskQueue: deps.config.temporal.taskQueue, version, tools: ids }, 'tool catalogue published');
  return ids;
}
