import type { Knex } from 'knex';

/**
 * The spec's User, Session and Account tables exactly as specified, plus the base of tenancy: organizations and
 * memberships. Passwords live only as a bcrypt hash in `users.password_hash`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE EXTENSION IF NOT EXISTS pgcrypto');

  await knex.schema.createTable('users', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.string('email', 255).notNullable();
    t.string('name', 255).nullable();
    t.boolean('email_verified').notNullable().defaultTo(false);
    t.text('image').nullable();
    t.text('password_hash').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // E-mail is unique case-insensitively; the service stores it trimmed and lower-cased as well.
  await knex.raw('CREATE UNIQUE INDEX users_email_unique ON users (lower(email))');

  await knex.schema.createTable('organizations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.string('name', 255).notNullable();
    t.string('slug', 100).notNullable().unique();
    t.string('plan', 20).notNullable().defaultTo('free');
    t.string('status', 20).notNullable().defaultTo('active');
    t.jsonb('settings').notNullable().defaultTo('{}');
    t.uuid('created_by').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    "ALTER TABLE organizations ADD CONSTRAINT organizations_plan_check CHECK (plan IN ('free','pro','enterprise'))",
  );

  await knex.schema.createTable('sessions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('token').notNullable().unique();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.uuid('active_organization_id').nullable();
    t.string('ip_address', 45).nullable();
    t.text('user_agent').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id']);
  });

  await knex.schema.createTable('accounts', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('provider', 50).notNullable();
    t.string('provider_account_id', 255).notNullable();
    t.text('refresh_token').nullable();
    t.text('access_token').nullable();
    t.timestamp('expires_at', { useTz: true }).nullable();
    t.string('token_type', 50).nullable();
    t.text('scope').nullable();
    t.text('id_token').nullable();
    t.text('session_state').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['provider', 'provider_account_id']);
    t.index(['user_id']);
  });

  await knex.schema.createTable('memberships', (t) => {
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.string('role', 20).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['organization_id', 'user_id']);
    t.index(['user_id']);
  });
  await knex.raw(
    "ALTER TABLE memberships ADD CONSTRAINT memberships_role_check CHECK (role IN ('owner','admin','member','viewer'))",
  );

  // Proves the worker path end to end: a Temporal activity writes here (see activities/system.ts).
  await knex.schema.createTable('system_checks', (t) => {
    t.uuid('id').primary();
    t.text('note').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('system_checks');
  await knex.schema.dropTableIfExists('memberships');
  await knex.schema.dropTableIfExists('accounts');
  await knex.schema.dropTableIfExists('sessions');
  await knex.schema.dropTableIfExists('organizations');
  await knex.schema.dropTableIfExists('users');
}
