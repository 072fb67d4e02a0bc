import type { Knex } from 'knex';

/**
 * Payment failures (docs/organizations.md#billing): every charge a billing provider reports, once per provider
 * payment id (`billing_payments`), and the organization's billing state on its active subscription
 * (`active`, or `past_due` from the first failed renewal until a payment succeeds).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('billing_subscriptions', (t) => {
    t.string('billing_state', 20).notNullable().defaultTo('active');
    t.timestamp('past_due_since', { useTz: true }).nullable();
  });
  await knex.raw(
    "ALTER TABLE billing_subscriptions ADD CONSTRAINT billing_subscriptions_billing_state CHECK (billing_state IN ('active', 'past_due'))",
  );

  await knex.schema.createTable('billing_payments', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('provider', 30).notNullable();
    t.string('external_id', 255).notNullable();
    t.string('kind', 20).notNullable();
    t.string('outcome', 20).notNullable();
    t.string('plan', 20).notNullable();
    t.text('reason').nullable();
    t.timestamp('occurred_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['provider', 'external_id']);
    t.index(['organization_id', 'occurred_at']);
  });
  await knex.raw(
    "ALTER TABLE billing_payments ADD CONSTRAINT billing_payments_kind CHECK (kind IN ('plan_change', 'renewal')), " +
      "ADD CONSTRAINT billing_payments_outcome CHECK (outcome IN ('succeeded', 'failed'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('billing_payments');
  await knex.raw('ALTER TABLE billing_subscriptions DROP CONSTRAINT IF EXISTS billing_subscriptions_billing_state');
  await knex.schema.alterTable('billing_subscriptions', (t) => {
    t.dropColumn('past_due_since');
    t.dropColumn('billing_state');
  });
}
