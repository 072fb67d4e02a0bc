import type { Knex } from 'knex';

/**
 * The one firing of a schedule that may wait for its organization's budget of scheduled runs
 * (domain/triggers/schedules.ts): an `allow_all` schedule firing every second kept up to 900 firings waiting
 * (15 minutes each), every one a Temporal execution asking again each window. `waiting_until` frees the slot of a
 * firing that gave up or vanished.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('trigger_schedules', (t) => {
    t.string('waiting_firing_id', 300).nullable();
    t.timestamp('waiting_until', { useTz: true }).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('trigger_schedules', (t) => {
    t.dropColumn('waiting_firing_id');
    t.dropColumn('waiting_until');
  });
}
