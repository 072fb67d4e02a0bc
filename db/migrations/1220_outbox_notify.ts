import type { Knex } from 'knex';

/**
 * A notice on channel `loom_outbox_event` when events are written to the outbox (one per statement, no payload),
 * sent at the commit: the event dispatcher, between polls, wakes at once instead of at its next poll
 * (EVENTS_DISPATCH_INTERVAL), so a run waiting for an event resumes in milliseconds (issue 42).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION loom_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('loom_outbox_event', '');
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE TRIGGER outbox_events_notify
      AFTER INSERT ON outbox_events
      FOR EACH STATEMENT
      EXECUTE FUNCTION loom_outbox_notify()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS outbox_events_notify ON outbox_events');
  await knex.raw('DROP FUNCTION IF EXISTS loom_outbox_notify()');
}
