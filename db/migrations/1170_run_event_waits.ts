import type { Knex } from 'knex';

/**
 * Runs waiting for an event (wait_for_event nodes, issue 42): one row per waiting node, written when its wait starts
 * and deleted when it ends (the event came, the timeout passed, the run was cancelled). The event dispatcher reads
 * the rows of an event's organization and type and signals the runs whose `match` holds. `context` keeps what the
 * match expression may read of the run (its parameters and earlier outputs). The organization's rows go with it.
 *
 * An index on outbox_events by (organization, type, time) serves the look-back: a wait also takes an event of its type
 * published since the node started (or up to `lookback` before), so an event that raced the wait's start is not lost.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('run_event_waits', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.uuid('run_id').notNullable();
    t.string('node_id', 200).notNullable();
    t.string('event_type', 200).notNullable();
    t.text('match').nullable();
    t.jsonb('context').notNullable().defaultTo('{}');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['run_id', 'node_id'], { indexName: 'run_event_waits_node' });
    t.index(['organization_id', 'event_type'], 'run_event_waits_by_type');
  });
  await knex.raw('CREATE INDEX outbox_events_org_type_time ON outbox_events (organization_id, type, created_at)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS outbox_events_org_type_time');
  await knex.schema.dropTableIfExists('run_event_waits');
}
