import type { Knex } from 'knex';

/**
 * Shared state of the fixed-window rate limiter (api/ratelimit): one row per (bucket, key, window). Kept in
 * PostgreSQL so every API instance counts against the same limits. Rows are deleted once `expires_at` passes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limit_counters', (t) => {
    t.string('bucket', 100).notNullable();
    t.string('key', 64).notNullable();
    t.bigInteger('window_start_ms').notNullable();
    t.integer('hits').notNullable().defaultTo(0);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['bucket', 'key', 'window_start_ms']);
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('rate_limit_counters');
}
