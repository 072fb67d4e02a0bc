import type { Knex } from 'knex';

/**
 * `email_sends`: one row per message the `email_send` tool sent (or is sending) through the platform's own mailer,
 * with its recipient count. The per-organization budget (TOOLS_EMAIL_DAILY_RECIPIENTS recipients per rolling 24
 * hours, activities/tools/support/emailBudget.ts) is the sum over the last day; the run and node make a row useful
 * for abuse reports. Rows older than a day are pruned by the budget check itself.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('email_sends', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('run_id', 255).notNullable();
    t.string('node_id', 255).notNullable();
    t.integer('recipients').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('email_sends');
}
