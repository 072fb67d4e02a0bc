import type { Knex } from 'knex';

/**
 * Finding runs by a parameter value (`GET /api/v1/runs?parameter=customer=acme`, the console's run search): a
 * containment test (`parameters @> '{"customer":"acme"}'`) that this index answers without reading an organization's
 * every run. jsonb_path_ops: smaller and faster than the default operator class, and containment is all it serves.
 * Built CONCURRENTLY, outside a transaction, so a large runs table keeps taking writes while it builds.
 */
export const config = { transaction: false };

export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX CONCURRENTLY IF NOT EXISTS workflow_runs_parameters_idx ON workflow_runs USING gin (parameters jsonb_path_ops)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX CONCURRENTLY IF EXISTS workflow_runs_parameters_idx');
}
