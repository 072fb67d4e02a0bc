import type { Knex } from 'knex';

/**
 * Respond nodes (issue 42): `workflow_runs.response` holds the HTTP answer a run gives the sender of the webhook
 * that started it (status, content type, headers, body), written once by its first respond node. Setting it sends
 * the run's notice on `loom_run_finished` too (migration 1051), so the webhook request waiting for the run wakes at
 * the commit and answers with it, before the run ends.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('workflow_runs', (t) => {
    t.jsonb('response').nullable();
  });
  await knex.raw(`
    CREATE TRIGGER workflow_runs_responded_notify
      AFTER UPDATE OF response ON workflow_runs
      FOR EACH ROW
      WHEN (OLD.response IS NULL AND NEW.response IS NOT NULL)
      EXECUTE FUNCTION loom_run_finished_notify()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS workflow_runs_responded_notify ON workflow_runs');
  await knex.schema.alterTable('workflow_runs', (t) => {
    t.dropColumn('response');
  });
}
