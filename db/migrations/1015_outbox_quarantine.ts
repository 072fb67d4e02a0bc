import type { Knex } from 'knex';

/**
 * Poison events (docs/events.md#quarantine): the dispatcher counts the attempts that failed on an event, waits
 * before the next one (`next_attempt_at`), and after EVENTS_DISPATCH_MAX_ATTEMPTS sets it aside
 * (`quarantine_status` = `quarantined`) so it is no longer retried; a replay through the API makes it `replayed`
 * and dispatchable again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('outbox_events', (t) => {
    t.integer('attempts').notNullable().defaultTo(0);
    t.text('last_error').nullable();
    t.timestamp('next_attempt_at', { useTz: true }).nullable();
    t.string('quarantine_status', 20).nullable();
    t.timestamp('quarantined_at', { useTz: true }).nullable();
    t.timestamp('replayed_at', { useTz: true }).nullable();
  });
  await knex.raw(
    "ALTER TABLE outbox_events ADD CONSTRAINT outbox_events_quarantine_status CHECK (quarantine_status IN ('quarantined', 'replayed'))",
  );
  // The quarantine list of an organization, newest first; the metric's count.
  await knex.raw(
    'CREATE INDEX outbox_events_quarantine ON outbox_events (organization_id, created_at DESC, id DESC) WHERE quarantine_status IS NOT NULL',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS outbox_events_quarantine');
  await knex.raw('ALTER TABLE outbox_events DROP CONSTRAINT IF EXISTS outbox_events_quarantine_status');
  await knex.schema.alterTable('outbox_events', (t) => {
    for (const column of ['attempts', 'last_error', 'next_attempt_at', 'quarantine_status', 'quarantined_at', 'replayed_at']) t.dropColumn(column);
  });
}
