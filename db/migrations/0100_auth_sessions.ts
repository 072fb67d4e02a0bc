import type { Knex } from 'knex';

/**
 * Auth domain additions to the spec's tables.
 *
 * sessions: `token` (spec column) holds the SHA-256 hex of the session's current refresh token, never the token.
 * `previous_token` keeps the hash the last rotation replaced, with `rotated_at`, so a replayed refresh token can be
 * told apart from a random one (reuse detection). `updated_at` is the last-used time for idle expiry.
 *
 * auth_tokens: single-use tokens sent by e-mail (password reset, e-mail verification), stored hashed.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sessions', (t) => {
    t.text('previous_token').nullable();
    t.timestamp('rotated_at', { useTz: true }).nullable();
    t.index(['user_id', 'created_at'], 'sessions_user_created_idx');
  });

  await knex.schema.createTable('auth_tokens', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('purpose', 32).notNullable();
    t.text('token_hash').notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'purpose']);
  });
  await knex.raw(
    "ALTER TABLE auth_tokens ADD CONSTRAINT auth_tokens_purpose_check CHECK (purpose IN ('password_reset','email_verification'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('auth_tokens');
  await knex.schema.alterTable('sessions', (t) => {
    t.dropIndex(['user_id', 'created_at'], 'sessions_user_created_idx');
    t.dropColumn('rotated_at');
    t.dropColumn('previous_token');
  });
}
