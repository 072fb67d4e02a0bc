import type { Knex } from 'knex';

/**
 * The organizations domain: lifecycle status, invitations, API keys, the audit log, usage counters, quota alerts
 * and billing subscriptions. Every table references `organizations` with ON DELETE CASCADE, so deleting the
 * organization row (the last step of the deletion workflow) removes all of it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organizations', (t) => {
    t.timestamp('deletion_requested_at', { useTz: true }).nullable();
  });
  await knex.raw(
    "ALTER TABLE organizations ADD CONSTRAINT organizations_status_check CHECK (status IN ('active','deleting'))",
  );

  await knex.schema.createTable('invitations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('email', 255).notNullable();
    t.string('role', 20).notNullable();
    // SHA-256 of a 32-byte random token: the token itself is only ever in the e-mail.
    t.string('token_hash', 64).notNullable().unique();
    t.string('status', 20).notNullable().defaultTo('pending');
    t.uuid('invited_by').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.uuid('accepted_by').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id', 'status']);
  });
  await knex.raw(
    "ALTER TABLE invitations ADD CONSTRAINT invitations_role_check CHECK (role IN ('owner','admin','member','viewer'))",
  );
  await knex.raw(
    "ALTER TABLE invitations ADD CONSTRAINT invitations_status_check CHECK (status IN ('pending','accepted','revoked'))",
  );
  // At most one pending invitation per address and organization.
  await knex.raw(
    "CREATE UNIQUE INDEX invitations_pending_email ON invitations (organization_id, lower(email)) WHERE status = 'pending'",
  );

  await knex.schema.createTable('api_keys', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.string('role', 20).notNullable();
    // The first characters of the key, shown in lists so people can tell keys apart.
    t.string('prefix', 20).notNullable();
    t.string('key_hash', 64).notNullable().unique();
    t.uuid('created_by').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('expires_at', { useTz: true }).nullable();
    t.timestamp('last_used_at', { useTz: true }).nullable();
    t.timestamp('revoked_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id', 'created_at']);
  });
  await knex.raw("ALTER TABLE api_keys ADD CONSTRAINT api_keys_role_check CHECK (role IN ('admin','member','viewer'))");

  await knex.schema.createTable('audit_logs', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('actor_type', 20).notNullable();
    t.string('actor_id', 64).nullable();
    t.string('action', 100).notNullable();
    t.string('target_type', 50).nullable();
    t.string('target_id', 255).nullable();
    t.jsonb('changes').nullable();
    t.string('ip', 45).nullable();
    t.text('user_agent').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE INDEX audit_logs_org_time ON audit_logs (organization_id, created_at DESC, id DESC)');

  await knex.schema.createTable('organization_usage', (t) => {
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    // Calendar month in UTC, 'YYYY-MM'.
    t.string('period', 7).notNullable();
    t.bigInteger('api_calls').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['organization_id', 'period']);
  });

  await knex.schema.createTable('quota_alerts', (t) => {
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('quota', 30).notNullable();
    t.string('period', 7).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['organization_id', 'quota', 'period']);
  });

  await knex.schema.createTable('billing_subscriptions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('provider', 30).notNullable();
    t.string('external_id', 255).notNullable();
    t.string('plan', 20).notNullable();
    t.string('status', 20).notNullable().defaultTo('active');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('cancelled_at', { useTz: true }).nullable();
    t.unique(['provider', 'external_id']);
  });
  // One live subscription per organization: initialisation is idempotent on this.
  await knex.raw(
    "CREATE UNIQUE INDEX billing_subscriptions_one_active ON billing_subscriptions (organization_id) WHERE status = 'active'",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('billing_subscriptions');
  await knex.schema.dropTableIfExists('quota_alerts');
  await knex.schema.dropTableIfExists('organization_usage');
  await knex.schema.dropTableIfExists('audit_logs');
  await knex.schema.dropTableIfExists('api_keys');
  await knex.schema.dropTableIfExists('invitations');
  await knex.raw('ALTER TABLE organizations DROP CONSTRAINT IF EXISTS organizations_status_check');
  await knex.schema.alterTable('organizations', (t) => {
    t.dropColumn('deletion_requested_at');
  });
}
