import type { Knex } from 'knex';

/**
 * Run execution state (issue 5, runs half):
 * - `workflow_runs`: one row per run (= one Temporal workflow execution whose workflow id is the run id). The API
 *   inserts it `pending`; the interpreter reports `running` and writes the final node states, results and errors
 *   once at the end, so listing and reading finished runs never depend on Temporal's retention.
 * - `dead_letters`: node inputs and errors parked by the `dead_letter_queue` strategy, purged after `expires_at`.
 * - `circuit_breakers`: one breaker per organization and tool, shared by every worker and run; activities update
 *   it under a row lock.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('workflow_runs', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.uuid('workflow_id').notNullable().references('id').inTable('workflows').onDelete('CASCADE');
    t.integer('workflow_version').notNullable();
    t.string('status', 20).notNullable().defaultTo('pending');
    t.jsonb('parameters').notNullable().defaultTo('{}');
    t.jsonb('node_states').notNullable().defaultTo('{}');
    t.jsonb('results').notNullable().defaultTo('{}');
    t.jsonb('errors').notNullable().defaultTo('[]');
    t.jsonb('trigger').notNullable().defaultTo('{"type":"manual"}');
    t.uuid('retry_of').nullable().references('id').inTable('workflow_runs').onDelete('SET NULL');
    t.timestamp('started_at', { useTz: true }).nullable();
    t.timestamp('completed_at', { useTz: true }).nullable();
    t.uuid('created_by').nullable().references('id').inTable('users').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    "ALTER TABLE workflow_runs ADD CONSTRAINT workflow_runs_status_check CHECK (status IN ('pending','running','completed','failed','cancelled'))",
  );
  await knex.raw(
    'CREATE INDEX workflow_runs_list_idx ON workflow_runs (organization_id, workflow_id, created_at DESC, id DESC)',
  );
  await knex.raw('CREATE INDEX workflow_runs_status_idx ON workflow_runs (status)');
  await knex.raw('CREATE INDEX workflow_runs_retry_of_idx ON workflow_runs (retry_of) WHERE retry_of IS NOT NULL');

  await knex.schema.createTable('dead_letters', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.uuid('workflow_id').notNullable();
    t.integer('workflow_version').notNullable();
    t.uuid('run_id').notNullable();
    t.string('node_id', 200).notNullable();
    t.string('queue', 100).notNullable().defaultTo('default');
    t.string('tool', 100).nullable();
    t.jsonb('input').nullable();
    t.jsonb('error').notNullable();
    t.integer('attempts').notNullable();
    t.string('status', 20).notNullable().defaultTo('pending');
    t.uuid('replay_run_id').nullable();
    t.timestamp('replayed_at', { useTz: true }).nullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // One entry per node of a run: an activity retried after a worker crash must not add a second one.
    t.unique(['run_id', 'node_id']);
  });
  await knex.raw(
    "ALTER TABLE dead_letters ADD CONSTRAINT dead_letters_status_check CHECK (status IN ('pending','replayed'))",
  );
  await knex.raw('CREATE INDEX dead_letters_list_idx ON dead_letters (organization_id, created_at DESC, id DESC)');
  await knex.raw('CREATE INDEX dead_letters_expiry_idx ON dead_letters (expires_at)');

  await knex.schema.createTable('circuit_breakers', (t) => {
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    t.string('tool', 100).notNullable();
    t.string('state', 20).notNullable().defaultTo('closed');
    t.integer('consecutive_failures').notNullable().defaultTo(0);
    t.timestamp('opened_at', { useTz: true }).nullable();
    /** the open duration in force when it opened (ms), so readers can tell when it half-opens */
    t.integer('open_timeout_ms').nullable();
    t.integer('half_open_attempts').notNullable().defaultTo(0);
    t.integer('half_open_successes').notNullable().defaultTo(0);
    t.jsonb('last_error').nullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['organization_id', 'tool']);
  });
  await knex.raw(
    "ALTER TABLE circuit_breakers ADD CONSTRAINT circuit_breakers_state_check CHECK (state IN ('closed','open','half_open'))",
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('circuit_breakers');
  await knex.schema.dropTableIfExists('dead_letters');
  await knex.schema.dropTableIfExists('workflow_runs');
}
