import type { Knex } from 'knex';

/**
 * Rate limits on destinations (docs/runs.md#rate-limits-on-destinations): one row per (organization, limit), holding
 * the time the limit's next call may start (its "theoretical arrival time", in microseconds on the database's clock).
 * Every tool call under a limit moves it forward with one upsert (domain/destinationLimits/queries.ts), so every
 * worker process counts against the same turn. A row whose time has passed says nothing a missing row does not, so
 * idle rows are deleted freely.
 *
 * A logged table, unlike the API limiter's counters (1100_rate_limits_unlogged): after a crash of PostgreSQL an
 * unlogged table starts empty, and the calls started just before the crash would be joined by a new burst.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('destination_turns', (t) => {
    t.uuid('organization_id').notNullable().references('id').inTable('organizations').onDelete('CASCADE');
    // `host:<host[:port]>` (up to 264 characters), `key:<key>` (204) or `tool:<tool id>` (105)
    t.string('limit_key', 300).notNullable();
    // when the limit's next call may start, microseconds since the epoch
    t.bigInteger('next_turn_us').notNullable();
    // the database's clock when the last turn was taken (what its wait was measured from)
    t.bigInteger('taken_at_us').notNullable();
    t.primary(['organization_id', 'limit_key']);
  });
  await knex.raw('CREATE INDEX destination_turns_next_turn ON destination_turns (next_turn_us)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('destination_turns');
}
