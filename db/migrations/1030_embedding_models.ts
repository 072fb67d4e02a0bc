import type { Knex } from 'knex';

/**
 * Custom embedding models, registered per organization: a name, its dimension and who makes its vectors
 * (`provider`, a label). Before this table, PUT /content/{id}/embedding read the dimension of a custom model from the
 * LanceDB table that every organization shares, so one tenant learnt another's model names and dimensions and could
 * squat a name for everyone. Backfilled from the models already stored on content (one dimension per name: the most
 * recent), so vectors written before keep their model.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('embedding_models', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.text('name').notNullable();
    t.integer('dimensions').notNullable();
    t.text('provider').notNullable().defaultTo('custom');
    t.uuid('created_by').nullable();
    t.uuid('created_by_api_key_id').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_id', 'name'], { indexName: 'embedding_models_organization_name' });
  });
  await knex.raw(`
    INSERT INTO embedding_models (organization_id, name, dimensions, provider, created_at)
    SELECT DISTINCT ON (organization_id, embedding_model) organization_id, embedding_model, embedding_dimensions, 'custom', embedded_at
    FROM content
    WHERE embedding_model IS NOT NULL AND embedding_dimensions IS NOT NULL AND embedded_at IS NOT NULL
      AND embedding_model NOT LIKE 'lexical-hash-%'
    ORDER BY organization_id, embedding_model, embedded_at DESC
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('embedding_models');
}
