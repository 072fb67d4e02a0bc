import type { Knex } from 'knex';

/**
 * Two-factor sign-in (docs/auth.md#two-factor-sign-in).
 *
 * user_two_factor: one TOTP secret per user, sealed (lib/secrets.ts, bound to the user id). `enabled_at` is null
 * while an enrolment waits for its first code. `last_used_step` is the 30-second time step of the last accepted
 * code: a code is accepted once, never again (replay).
 *
 * user_recovery_codes: single-use recovery codes, stored as SHA-256 hex; `used_at` marks a spent one.
 *
 * login_challenges: the pending second step of a sign-in whose password (or SSO) step passed: a random token,
 * stored hashed, valid a few minutes and for a few wrong codes; consumed when the code is right.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_two_factor', (t) => {
    t.uuid('user_id').primary().references('id').inTable('users').onDelete('CASCADE');
    t.text('secret_enc').notNullable();
    t.timestamp('enabled_at', { useTz: true }).nullable();
    t.bigInteger('last_used_step').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('user_recovery_codes', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('code_hash').notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['user_id', 'code_hash']);
  });

  await knex.schema.createTable('login_challenges', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique();
    t.uuid('organization_id').nullable().references('id').inTable('organizations').onDelete('SET NULL');
    t.string('method', 16).notNullable().defaultTo('password');
    t.integer('failed_attempts').notNullable().defaultTo(0);
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('login_challenges');
  await knex.schema.dropTableIfExists('user_recovery_codes');
  await knex.schema.dropTableIfExists('user_two_factor');
}
