import type { Knex } from 'knex';

/**
 * Run admission (domain/runs/admission.ts) counts an organization's open runs on every API start. A partial index
 * holds only open runs, so the count stays small and cheap however many finished runs an organization keeps.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    "CREATE INDEX workflow_runs_open_by_org_idx ON workflow_runs (organization_id) WHERE status IN ('pending','running')",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS workflow_runs_open_by_org_idx');
}
