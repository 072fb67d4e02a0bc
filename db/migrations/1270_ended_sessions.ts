import type { Knex } from 'knex';

/**
 * Sessions ended before their time, and why: a logout, a revocation from the session list, a password change or
 * reset, two-factor sign-in turned on, an operator, a refresh token used twice, or eviction by a newer sign-in
 * beyond the per-user limit. Ending a session deletes its row (its tokens stop working at once); this row keeps the
 * reason, so a token of it is answered "signed out: ..." instead of "session expired" (domain/auth/endedSessions.ts).
 * Kept until the session would have expired (`expires_at`, copied from it): no token of it can be presented later.
 * Written in the statement that deletes the session (domain/auth/queries.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('ended_sessions', (t) => {
    t.uuid('id').primary();
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('reason', 30).notNullable();
    t.timestamp('ended_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });
  await knex.raw(
    `ALTER TABLE ended_sessions ADD CONSTRAINT ended_sessions_reason_check CHECK (reason IN
      ('logout', 'revoked', 'password_changed', 'password_reset', 'two_factor_enabled', 'admin', 'refresh_reuse', 'evicted'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('ended_sessions');
}
