import type { Knex } from 'knex';

/**
 * Re-embedding operations (issue 43): an organization's content moved to its current embedding model in the
 * background, batch by batch, resumable from `cursor` (the last content id done), with its counts for progress.
 * At most one runs per organization (the partial unique index), so one tenant's re-embedding holds one worker slot.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('content_reembeddings', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('target_model', 255).notNullable();
    t.integer('target_dimensions').notNullable();
    t.string('from_model', 255).nullable();
    t.string('status', 20).notNullable();
    t.integer('total').notNullable();
    t.integer('done').notNullable().defaultTo(0);
    t.integer('skipped').notNullable().defaultTo(0);
    t.integer('failed').notNullable().defaultTo(0);
    t.text('last_error').nullable();
    t.uuid('cursor').nullable();
    t.string('workflow_id', 255).notNullable();
    t.uuid('created_by').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.uuid('created_by_api_key_id').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('finished_at', { useTz: true }).nullable();
    t.index(['organization_id', 'created_at', 'id'], 'content_reembeddings_organization_created');
  });
  await knex.raw(`ALTER TABLE content_reembeddings ADD CONSTRAINT content_reembeddings_status
    CHECK (status IN ('running', 'succeeded', 'failed', 'cancelled'))`);
  await knex.raw(`CREATE UNIQUE INDEX content_reembeddings_one_running ON content_reembeddings (organization_id) WHERE status = 'running'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('content_reembeddings');
}
