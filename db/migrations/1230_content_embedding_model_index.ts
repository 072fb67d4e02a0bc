import type { Knex } from 'knex';

/**
 * Which embedding models hold an organization's content: search asks on every request (it searches each model's
 * vectors while content moves from one model to another, issue 43), and the index answers with a skip scan of
 * a few probes however much content there is.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE INDEX content_organization_embedding_model
      ON content (organization_id, embedding_model, embedding_dimensions)
      WHERE embedding_model IS NOT NULL`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX content_organization_embedding_model');
}
