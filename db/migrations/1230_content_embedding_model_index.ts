import type { Knex } from 'knex';

/**
 * Which embedding models hold an organization's content: search asks on every request (it searches each model's
 * vectors while content moves from one model to another, issue 43), and the index answers with a skip scan of
 * a few probes however much content there is. Built CONCURRENTLY, outside a transaction: a large content table keeps
 * taking writes while it builds.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX CONCURRENTLY IF NOT EXISTS content_organization_embedding_model
      ON content (organization_id, embedding_model, embedding_dimensions)
      WHERE embedding_model IS NOT NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS content_organization_embedding_model');
}
