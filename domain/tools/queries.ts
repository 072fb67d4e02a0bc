import { createHash } from 'node:crypto';
import type { ToolDescriptor } from '../../lib/tools/descriptor';
import type { Db } from '../../db/knex';

/**
 * All SQL of the tool catalogue (the only writer of `tool_catalogues`, migration 1070): one row per task queue,
 * written by the worker that starts last on it, read by the API. Not tenant data: tools are the platform's.
 */

export interface CatalogueRow {
  task_queue: string;
  tools: ToolDescriptor[];
  version: string;
  published_by: string;
  published_at: Date;
}

/** A stable hash of the descriptors (their JSON with sorted keys). */
export function catalogueVersion(tools: readonly ToolDescriptor[]): string {
  const canonical = JSON.stringify(tools, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );
  return createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

/** Replaces the catalogue of `taskQueue` with `tools`. */
export async function publishCatalogue(
  db: Db,
  input: { taskQueue: string; tools: readonly ToolDescriptor[]; publishedBy: string },
): Promise<{ version: string }> {
  const version = catalogueVersion(input.tools);
  await db('tool_catalogues')
    .insert({
      task_queue: input.taskQueue,
      tools: JSON.stringify(input.tools),
      version,
      published_by: input.publishedBy,
      published_at: db.fn.now(),
    })
    .onConflict('task_queue')
    .merge(['tools', 'version', 'published_by', 'published_at']);
  return { version };
}

/** The version of a queue's catalogue, or null when no worker has published one (one small row read). */
export async function findCatalogueVersion(db: Db, taskQueue: string): Promise<string | null> {
  const row = await db('tool_catalogues').where({ task_queue: taskQueue }).first<{ version: string } | undefined>('version');
  return row?.version ?? null;
}

export async function findCatalogue(db: Db, taskQueue: string): Promise<CatalogueRow | null> {
  const row = await db('tool_catalogues').where({ task_queue: taskQueue }).first<CatalogueRow | undefined>();
  return row ?? null;
}
