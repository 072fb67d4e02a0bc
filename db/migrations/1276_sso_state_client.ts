import type { Knex } from 'knex';

/**
 * Which client started an SSO sign-in: null for API clients (the callback answers JSON), `console` for the web
 * console (the callback sets the browser-mode cookies and sends the browser back to /console).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sso_login_states', (t) => {
    t.text('client').nullable();
  });
  await knex.raw("ALTER TABLE sso_login_states ADD CONSTRAINT sso_login_states_client_check CHECK (client IN ('console'))");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sso_login_states', (t) => {
    t.dropColumn('client');
  });
}
