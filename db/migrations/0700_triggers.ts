import type { Knex } from 'knex';

/**
 * Triggers, events and outgoing webhooks (issue 6, docs/triggers.md):
 * - `trigger_secrets`: the secret of a webhook trigger (bearer token or Standard Webhooks signing secret), one per
 *   workflow and trigger key, sealed at rest (lib/secrets.ts) plus a SHA-256 for bearer checks. Shown once.
 * - `webhook_receipts`: inbound deliveries already accepted (Idempotency-Key or webhook-id), so a retry or a replay
 *   never starts a second run; purged after 24 hours.
 * - `trigger_schedules`: the Temporal Schedules the triggers domain created. No foreign keys on purpose: the
 *   schedules must still be found (and deleted) after their workflow or organization rows are gone.
 * - `webhook_deliveries`: one row per outgoing delivery of an event to an organization's webhook endpoint (the
 *   delivery log), with the outcome of each attempt; a manual redelivery is a new row pointing at the first.
 * - `webhook_endpoint_health`: consecutive failed deliveries per endpoint (auto-disable).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('trigger_secrets', (t) => {
    t.uuid('workflow_id').notNullable().references('id').inTable('workflows').onDelete('CASCADE');
    t.string('trigger_key', 64).notNullable();
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('secret_hash', 64).notNullable();
    t.jsonb('secret_sealed').notNullable();
    t.uuid('created_by').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workflow_id', 'trigger_key']);
  });

  await knex.schema.createTable('webhook_receipts', (t) => {
    t.uuid('workflow_id').notNullable().references('id').inTable('workflows').onDelete('CASCADE');
    t.string('trigger_key', 64).notNullable();
    t.string('delivery_key', 255).notNullable();
    t.string('request_hash', 64).notNullable();
    t.uuid('run_id').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['workflow_id', 'trigger_key', 'delivery_key']);
  });
  await knex.raw('CREATE INDEX webhook_receipts_created_idx ON webhook_receipts (created_at)');

  await knex.schema.createTable('trigger_schedules', (t) => {
    t.string('schedule_id', 200).primary();
    t.uuid('organization_id').notNullable();
    t.uuid('workflow_id').notNullable();
    t.string('trigger_key', 64).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id']);
    t.index(['workflow_id']);
  });

  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.uuid('endpoint_id').notNullable();
    t.uuid('event_id').notNullable();
    t.string('event_type', 100).notNullable();
    t.text('url').notNullable();
    t.string('status', 20).notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('response_code').nullable();
    t.integer('latency_ms').nullable();
    t.text('last_error').nullable();
    t.jsonb('attempt_log').notNullable().defaultTo('[]');
    t.uuid('redelivery_of').nullable();
    // the exact body sent (and signed), so redeliveries and the receiver's checks see the same bytes
    t.text('body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('completed_at', { useTz: true }).nullable();
  });
  await knex.raw(
    "ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_status_check CHECK (status IN ('pending','succeeded','failed'))",
  );
  // One first delivery per event and endpoint: a re-dispatch after a crash finds it instead of sending twice.
  await knex.raw(
    'CREATE UNIQUE INDEX webhook_deliveries_first_idx ON webhook_deliveries (event_id, endpoint_id) WHERE redelivery_of IS NULL',
  );
  await knex.raw(
    'CREATE INDEX webhook_deliveries_list_idx ON webhook_deliveries (organization_id, endpoint_id, created_at DESC, id DESC)',
  );

  await knex.schema.createTable('webhook_endpoint_health', (t) => {
    t.uuid('endpoint_id').primary();
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.integer('consecutive_failures').notNullable().defaultTo(0);
    t.timestamp('last_success_at', { useTz: true }).nullable();
    t.timestamp('last_failure_at', { useTz: true }).nullable();
    t.timestamp('disabled_at', { useTz: true }).nullable();
    // the delivery whose failure disabled the endpoint, so a retried completion still sends the e-mail once
    t.uuid('disabled_by_delivery').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['webhook_endpoint_health', 'webhook_deliveries', 'trigger_schedules', 'webhook_receipts', 'trigger_secrets']) {
    await knex.schema.dropTableIfExists(table);
  }
}
