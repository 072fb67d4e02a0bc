import type { Knex } from 'knex';

/**
 * `webhook_endpoint_health` also keeps the attempts, not only the deliveries: failed attempts (a delivery that
 * succeeds on its third attempt leaves two), the last one's time and error, and the deliveries the outbound policy
 * refused (counted apart: they say nothing about the endpoint's health and never count toward auto-disable).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_endpoint_health', (t) => {
    t.integer('failed_attempts').notNullable().defaultTo(0);
    t.timestamp('last_attempt_failed_at', { useTz: true }).nullable();
    t.text('last_attempt_error').nullable();
    t.integer('policy_refusals').notNullable().defaultTo(0);
    t.timestamp('last_policy_refusal_at', { useTz: true }).nullable();
    t.text('last_policy_refusal').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_endpoint_health', (t) => {
    for (const column of ['failed_attempts', 'last_attempt_failed_at', 'last_attempt_error', 'policy_refusals', 'last_policy_refusal_at', 'last_policy_refusal']) {
      t.dropColumn(column);
    }
  });
}
