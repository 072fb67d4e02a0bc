import type { Knex } from 'knex';

/**
 * Subworkflow children own a `workflow_runs` row (issue 24): listed under the child workflow, linked to their parent.
 * - `parent_run_id`: the run whose subworkflow node (or loop item) started this one. `ON DELETE SET NULL`: deleting
 *   the parent's workflow (and so its runs) leaves the child runs listed under their own workflow, unlinked.
 * - `parent_node_id`: the node of the parent (`sub`, or `each[3]` for a loop item); kept when the parent goes, so a
 *   child run stays recognisable (it is not counted as an API-started open run, domain/runs/admission.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workflow_runs', (t) => {
    t.uuid('parent_run_id').nullable().references('id').inTable('workflow_runs').onDelete('SET NULL');
    t.string('parent_node_id', 200).nullable();
  });
  await knex.raw('CREATE INDEX workflow_runs_parent_idx ON workflow_runs (parent_run_id) WHERE parent_run_id IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS workflow_runs_parent_idx');
  await knex.schema.alterTable('workflow_runs', (t) => {
    t.dropColumn('parent_node_id');
    t.dropColumn('parent_run_id');
  });
}
