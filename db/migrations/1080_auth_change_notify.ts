import type { Knex } from 'knex';

/**
 * The session check's cache (domain/auth/sessionCheckCache.ts) must drop an entry as soon as what it copied changes,
 * in every API process, whoever wrote it (a logout, a revocation, a password change, a profile update, an
 * organization's session policy, the worker's deletion workflow, an operator's SQL). PostgreSQL says so on channel
 * `loom_auth_changed` at the commit, with the kind and id of the changed row as payload: `s:<session id>`,
 * `u:<user id>` (its sessions) or `o:<organization id>` (sessions acting in it). Inserts need no notice: nothing
 * cached can refer to a row that did not exist.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE FUNCTION loom_auth_changed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('loom_auth_changed', TG_ARGV[0] || ':' || OLD.id::text);
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE TRIGGER sessions_auth_changed AFTER UPDATE OR DELETE ON sessions
      FOR EACH ROW EXECUTE FUNCTION loom_auth_changed_notify('s')`);
  await knex.raw(`
    CREATE TRIGGER users_auth_changed AFTER UPDATE OR DELETE ON users
      FOR EACH ROW EXECUTE FUNCTION loom_auth_changed_notify('u')`);
  // Only the session policy is copied from an organization; other settings changes cost nothing more than the test.
  await knex.raw(`
    CREATE TRIGGER organizations_auth_changed AFTER UPDATE ON organizations
      FOR EACH ROW WHEN (OLD.session_idle_timeout_minutes IS DISTINCT FROM NEW.session_idle_timeout_minutes)
      EXECUTE FUNCTION loom_auth_changed_notify('o')`);
  await knex.raw(`
    CREATE TRIGGER organizations_deleted_auth_changed AFTER DELETE ON organizations
      FOR EACH ROW EXECUTE FUNCTION loom_auth_changed_notify('o')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS organizations_deleted_auth_changed ON organizations');
  await knex.raw('DROP TRIGGER IF EXISTS organizations_auth_changed ON organizations');
  await knex.raw('DROP TRIGGER IF EXISTS users_auth_changed ON users');
  await knex.raw('DROP TRIGGER IF EXISTS sessions_auth_changed ON sessions');
  await knex.raw('DROP FUNCTION IF EXISTS loom_auth_changed_notify()');
}
