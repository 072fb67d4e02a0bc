import type { Knex } from 'knex';

/**
 * GET /api/v1/runs lists an organization's runs across its workflows, newest first (keyset by created_at, id):
 * without this index PostgreSQL reads every run of the organization and sorts them for each page.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX workflow_runs_org_created_idx ON workflow_runs (organization_id, created_at DESC, id DESC)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS workflow_runs_org_created_idx');
}
