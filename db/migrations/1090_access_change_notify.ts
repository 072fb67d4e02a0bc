import type { Knex } from 'knex';

/**
 * The organization access check's cache (api/organizations/access.ts) copies an organization's status, plan and
 * security settings, the caller's membership role and whether the caller has two-factor sign-in on. Like the
 * session check's (migration 1080), it must drop a copy as soon as any of those change, in every API process,
 * whoever wrote it: notices on `loom_auth_changed` at the commit, `o:<organization id>` for the organization and
 * `u:<user id>` for a membership or a two-factor enrolment. Unlike sessions, inserts count here: a non-member's or
 * a user's answer may be cached from before the new membership or enrolment existed.
 */
export async function up(knex: Knex): Promise<void> {
  // The kind (TG_ARGV[0]) and the column naming the changed row's owner (TG_ARGV[1]), of the new row or the deleted one.
  await knex.raw(`
    CREATE FUNCTION loom_auth_changed_notify_owner() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      changed jsonb := to_jsonb(CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END);
    BEGIN
      PERFORM pg_notify('loom_auth_changed', TG_ARGV[0] || ':' || (changed ->> TG_ARGV[1]));
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE TRIGGER memberships_auth_changed AFTER INSERT OR UPDATE OR DELETE ON memberships
      FOR EACH ROW EXECUTE FUNCTION loom_auth_changed_notify_owner('u', 'user_id')`);
  await knex.raw(`
    CREATE TRIGGER user_two_factor_auth_changed AFTER INSERT OR UPDATE OR DELETE ON user_two_factor
      FOR EACH ROW EXECUTE FUNCTION loom_auth_changed_notify_owner('u', 'user_id')`);
  // What the access check copies from an organization (the session policy has its own trigger, migration 1080).
  await knex.raw(`
    CREATE TRIGGER organizations_access_changed AFTER UPDATE ON organizations
      FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.plan IS DISTINCT FROM NEW.plan
                         OR OLD.settings IS DISTINCT FROM NEW.settings)
      EXECUTE FUNCTION loom_auth_changed_notify('o')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS organizations_access_changed ON organizations');
  await knex.raw('DROP TRIGGER IF EXISTS user_two_factor_auth_changed ON user_two_factor');
  await knex.raw('DROP TRIGGER IF EXISTS memberships_auth_changed ON memberships');
  await knex.raw('DROP FUNCTION IF EXISTS loom_auth_changed_notify_owner()');
}
