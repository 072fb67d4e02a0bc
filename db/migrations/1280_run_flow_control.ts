import type { Knex } from 'knex';

/**
 * Flow control of runs (docs/runs.md#flow-control):
 * - `flow_keys`: the groups a run's controls put it in (concurrency, throttle, debounce, singleton), evaluated once
 *   at its start from the workflow's key expressions, so a retry of the start and the run view show the same;
 * - `priority`: 1 (first) to 5 (last), null for the default;
 * - `singleton_key`: set for workflows with a singleton control; one open (pending or running) run per workflow and
 *   key, enforced by the partial unique index of migration 1281, which a start that finds one answers with that run.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workflow_runs', (t) => {
    t.jsonb('flow_keys').nullable();
    t.smallint('priority').nullable();
    t.text('singleton_key').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workflow_runs', (t) => {
    t.dropColumn('flow_keys');
    t.dropColumn('priority');
    t.dropColumn('singleton_key');
  });
}
