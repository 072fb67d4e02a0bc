import type { Knex } from 'knex';

/**
 * Schedules across daylight-saving changes (issue 42, lib/triggers/dst.ts): the latest wall time in its zone a
 * schedule trigger fired at, and the firing that claimed it. With the default `adjust` policy a firing at a wall
 * time not after it (the hour the clocks went back) does not run again; a retried firing finds its own claim.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('trigger_schedules', (t) => {
    t.string('last_wall_time', 19).nullable();
    t.string('last_wall_firing_id', 300).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('trigger_schedules', (t) => {
    t.dropColumn('last_wall_time');
    t.dropColumn('last_wall_firing_id');
  });
}
