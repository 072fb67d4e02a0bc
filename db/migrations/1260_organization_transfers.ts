import type { Knex } from 'knex';

/**
 * On-demand exports and imports of an organization's archive (issue 43, docs/organizations.md#export-and-import):
 * one row per operation, with its state, its archive's object key and its result.
 */
export async function up(knex: Knex): Promise<void> {
  for (const table of ['organization_exports', 'organization_imports']) {
    await knex.schema.createTable(table, (t) => {
      t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
      t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
      t.string('status', 20).notNullable();
      t.string('object_key', 1024).notNullable();
      t.bigInteger('bytes').nullable();
      t.string('sha256', 64).nullable();
      t.jsonb('result').nullable();
      t.text('error').nullable();
      t.uuid('requested_by').nullable().references('id').inTable('users').onDelete('SET NULL');
      t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
      t.timestamp('finished_at', { useTz: true }).nullable();
      t.timestamp('expires_at', { useTz: true }).nullable();
      t.index(['organization_id', 'created_at']);
    });
    await knex.raw(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_status CHECK (status IN ('running', 'succeeded', 'failed', 'expired'))`);
  }
  // One import per organization at a time.
  await knex.raw(`CREATE UNIQUE INDEX organization_imports_one_running ON organization_imports (organization_id) WHERE status = 'running'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('organization_imports');
  await knex.schema.dropTable('organization_exports');
}
