import type { Knex } from 'knex';

/**
 * One open run per workflow and singleton key (migration 1280). Built CONCURRENTLY, outside a transaction, so a
 * large runs table keeps taking writes while it builds; partial, so it holds only the open runs that have a key.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS workflow_runs_singleton_open
      ON workflow_runs (workflow_id, singleton_key)
      WHERE singleton_key IS NOT NULL AND status IN ('pending', 'running')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`DROP INDEX CONCURRENTLY IF EXISTS workflow_runs_singleton_open`);
}
