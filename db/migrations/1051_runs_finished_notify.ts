import type { Knex } from 'knex';

/**
 * Run and wait (docs/runs.md#run-and-wait): a notice on channel `loom_run_finished` (payload: the run id) whenever a
 * run's row turns final, whoever writes it (the worker's final write, the API's reconciliation or cancellation of a
 * run whose execution is gone). PostgreSQL delivers it at the commit, so a listener that reads the row then finds it
 * final. Only the status change from open to final fires it: node-state merges and other updates cost nothing more
 * than the WHEN test.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION loom_run_finished_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('loom_run_finished', NEW.id::text);
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE TRIGGER workflow_runs_finished_notify
      AFTER UPDATE OF status ON workflow_runs
      FOR EACH ROW
      WHEN (OLD.status IN ('pending', 'running') AND NEW.status IN ('completed', 'failed', 'cancelled'))
      EXECUTE FUNCTION loom_run_finished_notify()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS workflow_runs_finished_notify ON workflow_runs');
  await knex.raw('DROP FUNCTION IF EXISTS loom_run_finished_notify()');
}
