import type { Knex } from 'knex';

/**
 * Security events in the audit log (docs/auth.md#security-events):
 * - `organization_id` becomes nullable: account events (login, password, sessions) belong to no organization;
 * - `user_id` is the account such an event concerns (its owner reads them at GET /api/auth/security-events); it
 *   goes with the account (ON DELETE CASCADE);
 * - deleting a user revokes every live API key that user created, in the same statement, whatever path deletes the
 *   row (docs/organizations.md#api-keys): the foreign key would otherwise only set `created_by` to null and leave
 *   the key working.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('ALTER TABLE audit_logs ALTER COLUMN organization_id DROP NOT NULL');
  await knex.raw('ALTER TABLE audit_logs ADD COLUMN user_id uuid NULL REFERENCES users(id) ON DELETE CASCADE');
  await knex.raw(
    'CREATE INDEX audit_logs_user_time ON audit_logs (user_id, created_at DESC, id DESC) WHERE user_id IS NOT NULL',
  );
  // The retention purge of account events (no organization, so no organization's retention setting).
  await knex.raw('CREATE INDEX audit_logs_account_time ON audit_logs (created_at) WHERE organization_id IS NULL');

  await knex.raw(`
    CREATE FUNCTION revoke_api_keys_of_deleted_user() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      WITH revoked AS (
        UPDATE api_keys SET revoked_at = now()
         WHERE created_by = OLD.id AND revoked_at IS NULL
        RETURNING id, organization_id, name, role, prefix
      )
      INSERT INTO audit_logs (organization_id, actor_type, actor_id, action, target_type, target_id, changes)
      SELECT organization_id, 'system', NULL, 'api_key.revoked', 'api_key', id::text,
             jsonb_build_object('before', jsonb_build_object('name', name, 'role', role, 'prefix', prefix),
                                'after', jsonb_build_object('reason', 'creator_deleted', 'creator', OLD.id))
        FROM revoked;
      RETURN OLD;
    END $$`);
  await knex.raw(
    'CREATE TRIGGER users_revoke_api_keys BEFORE DELETE ON users FOR EACH ROW EXECUTE FUNCTION revoke_api_keys_of_deleted_user()',
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS users_revoke_api_keys ON users');
  await knex.raw('DROP FUNCTION IF EXISTS revoke_api_keys_of_deleted_user()');
  await knex.raw('DROP INDEX IF EXISTS audit_logs_account_time');
  await knex.raw('DROP INDEX IF EXISTS audit_logs_user_time');
  await knex.raw('ALTER TABLE audit_logs DROP COLUMN IF EXISTS user_id');
  await knex.raw('DELETE FROM audit_logs WHERE organization_id IS NULL');
  await knex.raw('ALTER TABLE audit_logs ALTER COLUMN organization_id SET NOT NULL');
}
