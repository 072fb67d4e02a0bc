import type { Knex } from 'knex';

/**
 * Content: one row per item, one per uploaded file version, and the processing jobs with their steps. Vectors and
 * chunk text live in LanceDB (lib/vectors), files in MinIO under `org/<orgId>/content/<contentId>/<version>/`.
 * `outbox_events` records domain events in the same transaction as the change; dispatch is later work
 * (docs/events.md).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('content', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.uuid('created_by').nullable().references('id').inTable('users').onDelete('SET NULL');
    // API keys belong to another domain; kept as a plain id for the "own content" rule.
    t.uuid('created_by_api_key_id').nullable();
    t.string('title', 500).nullable();
    t.specificType('tags', 'text[]').notNullable().defaultTo('{}');
    t.jsonb('metadata').notNullable().defaultTo('{}');
    // Mirrors of the current version, so lists, filters and sorting need no join.
    t.integer('current_version').notNullable();
    // Highest version number handed out (a counter: a failed upload leaves a gap, never a half-written row).
    t.integer('last_version').notNullable();
    t.string('filename', 500).notNullable();
    t.string('mime_type', 255).notNullable();
    t.string('media_type', 20).notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.string('sha256', 64).notNullable();
    t.string('processing_status', 20).notNullable().defaultTo('none');
    t.string('embedding_model', 255).nullable();
    t.integer('embedding_dimensions').nullable();
    t.timestamp('embedded_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id', 'created_at', 'id']);
    t.index(['organization_id', 'media_type']);
  });
  await knex.raw('CREATE INDEX content_tags_gin ON content USING gin (tags)');
  await knex.raw('CREATE INDEX content_metadata_gin ON content USING gin (metadata jsonb_path_ops)');

  await knex.schema.createTable('content_versions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('content_id').notNullable().references('id').inTable('content').onDelete('CASCADE');
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.string('object_key', 1024).notNullable();
    t.string('filename', 500).notNullable();
    t.string('mime_type', 255).notNullable();
    t.string('declared_mime_type', 255).nullable();
    t.string('media_type', 20).notNullable();
    t.bigInteger('size_bytes').notNullable();
    t.string('sha256', 64).notNullable();
    // What the metadata step found (pages, dimensions, EXIF...) and the derived files (thumbnail, text...).
    t.jsonb('extracted').notNullable().defaultTo('{}');
    t.jsonb('derived').notNullable().defaultTo('{}');
    t.uuid('created_by').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['content_id', 'version']);
    t.index(['organization_id']);
  });

  await knex.schema.createTable('content_processing_jobs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('content_id').notNullable().references('id').inTable('content').onDelete('CASCADE');
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.string('workflow_id', 255).notNullable();
    t.string('status', 20).notNullable().defaultTo('pending');
    t.string('trigger', 20).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('started_at', { useTz: true }).nullable();
    t.timestamp('completed_at', { useTz: true }).nullable();
    t.index(['content_id', 'created_at']);
  });

  await knex.schema.createTable('content_processing_steps', (t) => {
    t.uuid('job_id').notNullable().references('id').inTable('content_processing_jobs').onDelete('CASCADE');
    t.string('name', 40).notNullable();
    t.integer('position').notNullable();
    t.string('state', 20).notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('error').nullable();
    t.jsonb('output').nullable();
    t.timestamp('started_at', { useTz: true }).nullable();
    t.timestamp('completed_at', { useTz: true }).nullable();
    t.primary(['job_id', 'name']);
  });

  // No foreign key on purpose: an event (content.deleted, organization.deleted...) outlives what it describes.
  await knex.schema.createTable('outbox_events', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').nullable();
    t.string('type', 100).notNullable();
    t.jsonb('payload').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('dispatched_at', { useTz: true }).nullable();
    t.index(['organization_id', 'created_at']);
  });
  await knex.raw('CREATE INDEX outbox_events_pending ON outbox_events (created_at) WHERE dispatched_at IS NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('outbox_events');
  await knex.schema.dropTableIfExists('content_processing_steps');
  await knex.schema.dropTableIfExists('content_processing_jobs');
  await knex.schema.dropTableIfExists('content_versions');
  await knex.schema.dropTableIfExists('content');
}
