import type { Knex } from 'knex';

/**
 * The tool catalogue (domain/tools): each worker publishes the tools it runs (descriptors: ids, names, JSON schemas,
 * time limits) for its task queue when it starts; the API lists and validates against the catalogue of its queue,
 * so a tool added to a worker appears without restarting the API. One row per task queue: the last worker started
 * on a queue sets it. `version` is a hash of `tools`, which API instances compare to reload only on a change.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tool_catalogues', (t) => {
    t.text('task_queue').primary();
    t.jsonb('tools').notNullable();
    t.text('version').notNullable();
    t.text('published_by').notNullable();
    t.timestamp('published_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('tool_catalogues');
}
