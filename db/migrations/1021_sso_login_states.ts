import type { Knex } from 'knex';

/**
 * SSO sign-in (docs/auth.md#single-sign-on-openid-connect): one row per started authorization-code flow. The `state`
 * sent to the provider is stored as SHA-256 only; `nonce` and the PKCE `code_verifier` wait here for the callback.
 * A row is spent (`used_at`) by the first callback that presents its state, so a replayed state is refused; rows
 * live ten minutes.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sso_login_states', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('state_hash').notNullable().unique();
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.text('nonce').notNullable();
    t.text('code_verifier').notNullable();
    t.text('redirect_uri').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('sso_login_states');
}
