import type { Knex } from 'knex';

/**
 * `Idempotency-Key` records (api/middleware/idempotency.ts): one row per organization and key, holding the
 * fingerprint of the first request and, once it finished, its response, replayed for 24 hours. A row `in_progress`
 * is a lease (`locked_until`) so a crashed request does not block its key for a day.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('key', 255).notNullable();
    t.string('fingerprint', 64).notNullable();
    t.string('state', 20).notNullable().defaultTo('in_progress');
    t.timestamp('locked_until', { useTz: true }).notNullable();
    t.integer('response_status').nullable();
    t.jsonb('response_headers').nullable();
    t.jsonb('response_body').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'key']);
  });
  await knex.raw(
    "ALTER TABLE idempotency_keys ADD CONSTRAINT idempotency_keys_state_check CHECK (state IN ('in_progress','completed'))",
  );
  await knex.raw('CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('idempotency_keys');
}
