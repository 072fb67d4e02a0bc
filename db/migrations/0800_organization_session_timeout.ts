import type { Knex } from 'knex';

/**
 * The security setting `sessionTimeoutMinutes` as a column PostgreSQL derives from the settings document itself, so
 * the per-request session check (domain/auth/queries.ts) reads one small integer of the session's active organization
 * instead of its whole settings document, and the document stays the only place the value is written.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE organizations ADD COLUMN session_idle_timeout_minutes integer GENERATED ALWAYS AS (
      CASE WHEN jsonb_typeof(settings->'security'->'sessionTimeoutMinutes') = 'number'
           THEN (settings->'security'->>'sessionTimeoutMinutes')::numeric::integer END
    ) STORED`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE organizations DROP COLUMN IF EXISTS session_idle_timeout_minutes');
}
