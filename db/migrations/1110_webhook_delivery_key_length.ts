import type { Knex } from 'knex';

/**
 * A webhook delivery's key is its prefix (`key:` or `webhook-id:`) and a client's value of up to 255 characters
 * (an Idempotency-Key header, or a Standard Webhooks `webhook-id`): up to 266 characters, one more than the
 * column took, so a long key failed the insert (22001, a 500). Widening a varchar rewrites no rows.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE webhook_receipts ALTER COLUMN delivery_key TYPE varchar(300)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE webhook_receipts ALTER COLUMN delivery_key TYPE varchar(255)');
}
