import type { Knex } from 'knex';

/**
 * Circuit breakers keyed by destination too (issue 42): one per (organization, tool, scope), where the scope is the
 * node's explicit `circuit_breaker.key`, else the host a tool's `url` names, else '' (tools without a destination).
 * A failing host no longer opens the breaker for the same tool's calls to every other host.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('circuit_breakers', (t) => {
    t.string('scope', 300).notNullable().defaultTo('');
  });
  await knex.raw('ALTER TABLE circuit_breakers DROP CONSTRAINT circuit_breakers_pkey');
  await knex.raw('ALTER TABLE circuit_breakers ADD PRIMARY KEY (organization_id, tool, scope)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("DELETE FROM circuit_breakers WHERE scope <> ''");
  await knex.raw('ALTER TABLE circuit_breakers DROP CONSTRAINT circuit_breakers_pkey');
  await knex.raw('ALTER TABLE circuit_breakers ADD PRIMARY KEY (organization_id, tool)');
  await knex.schema.alterTable('circuit_breakers', (t) => {
    t.dropColumn('scope');
  });
}
