import type { Knex } from 'knex';

/**
 * The SSO identity model (docs/auth.md#identities-and-linking):
 * - External identities live in the spec's `accounts` table (migration 0001), keyed by (provider,
 *   provider_account_id) = (`oidc:<base64url SHA-256 of the issuer URL>`, the ID token's `sub`). The hash keeps the
 *   spec's varchar(50) `provider` as it is (48 characters) whatever the issuer's length; the issuer itself is kept
 *   beside it for people to read.
 * - `organization_domains`: e-mail domains an organization registered, with the token of its DNS TXT proof and
 *   when it was proven. A domain is verified by at most one organization at a time (the partial unique index: the
 *   first verification wins); any number may have it pending.
 * - `sessions.sso_organization_id`: a session opened by an organization's SSO acts in that organization only. The
 *   session goes with the organization.
 * - `sso_login_states.link_user_id`: a flow started from a signed-in session to link the identity to that user
 *   instead of signing in.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('accounts', (t) => {
    t.text('issuer').nullable();
  });
  await knex.schema.createTable('organization_domains', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('domain', 253).notNullable();
    t.string('token', 64).notNullable();
    t.timestamp('verified_at', { useTz: true }).nullable();
    t.uuid('created_by').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_id', 'domain']);
    t.index(['organization_id', 'created_at']);
  });
  await knex.raw('CREATE UNIQUE INDEX organization_domains_verified_unique ON organization_domains (domain) WHERE verified_at IS NOT NULL');
  await knex.schema.alterTable('sessions', (t) => {
    t.uuid('sso_organization_id').nullable().references('id').inTable('organizations').onDelete('CASCADE');
  });
  await knex.schema.alterTable('sso_login_states', (t) => {
    t.uuid('link_user_id').nullable().references('id').inTable('users').onDelete('CASCADE');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sso_login_states', (t) => t.dropColumn('link_user_id'));
  await knex.schema.alterTable('sessions', (t) => t.dropColumn('sso_organization_id'));
  await knex.schema.dropTableIfExists('organization_domains');
  await knex.schema.alterTable('accounts', (t) => t.dropColumn('issuer'));
}
