import type { Knex } from 'knex';

/**
 * Organization secrets (docs/secrets.md): values node configs reference as `{{secret.NAME}}`. The value is sealed
 * with AES-256-GCM (lib/secrets.ts), bound to its organization and name, and only the worker opens it, right
 * before a tool runs; the API never returns it. `last4` is set for values of 12 characters or more, so lists can
 * tell values apart. Names: an upper-case letter, then up to 63 upper-case letters, digits or underscores.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('organization_secrets', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('name', 64).notNullable();
    t.text('value_enc').notNullable();
    t.string('last4', 4).notNullable().defaultTo('');
    t.string('created_by', 64).nullable();
    t.string('updated_by', 64).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_id', 'name']);
  });
  await knex.raw(
    "ALTER TABLE organization_secrets ADD CONSTRAINT organization_secrets_name_check CHECK (name ~ '^[A-Z][A-Z0-9_]{0,63}$')",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('organization_secrets');
}
