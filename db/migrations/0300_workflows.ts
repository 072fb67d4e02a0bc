import type { Knex } from 'knex';

/**
 * Workflow definitions and their immutable versions. `workflows` holds what may change without a new version
 * (name, description, status, metadata); `workflow_versions.definition` holds the compiled, validated model a run
 * executes (dag with derived entry/exit points, tools, triggers, parameters, errorHandling). A run pins
 * (workflow_id, version), so editing a workflow never changes what a started run does.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workflows', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('name', 255).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.string('status', 20).notNullable().defaultTo('draft');
    t.integer('current_version').notNullable();
    // metadata.tags and metadata.category are copied into columns so list filters can use indexes.
    t.specificType('tags', 'text[]').notNullable().defaultTo('{}');
    t.string('category', 100).nullable();
    t.jsonb('metadata').notNullable().defaultTo('{}');
    t.uuid('created_by').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    "ALTER TABLE workflows ADD CONSTRAINT workflows_status_check CHECK (status IN ('draft','active','paused','archived'))",
  );
  await knex.raw('CREATE INDEX workflows_org_created_idx ON workflows (organization_id, created_at DESC, id DESC)');
  await knex.raw('CREATE INDEX workflows_tags_idx ON workflows USING gin (tags)');

  await knex.schema.createTable('workflow_versions', (t) => {
    t.uuid('workflow_id').notNullable().references('id').inTable('workflows').onDelete('CASCADE');
    t.uuid('organization_id').notNullable();
    t.integer('version').notNullable();
    t.jsonb('definition').notNullable();
    t.uuid('created_by').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workflow_id', 'version']);
    t.index(['organization_id']);
  });
  await knex.raw('ALTER TABLE workflow_versions ADD CONSTRAINT workflow_versions_version_check CHECK (version >= 1)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('workflow_versions');
  await knex.schema.dropTableIfExists('workflows');
}
