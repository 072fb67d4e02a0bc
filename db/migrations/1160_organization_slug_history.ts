import type { Knex } from 'knex';

/**
 * Every slug an organization has ever had (issue 40, finding 9). Webhook URLs name the organization by slug
 * (`/api/hooks/{slug}/{path}`), and senders keep posting to a URL long after the organization renamed itself: when
 * another organization could take the old slug and add a hook at the same path, it received those deliveries (with
 * the first organization's bearer secret in them). A slug therefore belongs to the first organization that used it,
 * for good: renaming keeps the old slug reserved for it (its old URLs keep resolving to it, and it may take the slug
 * back), and no other organization can claim it. A deleted organization's slugs stay retired (organization_id
 * becomes null): nobody can take over the URLs its senders may still call.
 *
 * Kept by PostgreSQL itself, so every writer of `organizations.slug` (the services, the test fixtures, an operator's
 * SQL) goes through it. A slug held by another organization is refused as a violation of `organizations_slug_unique`,
 * the constraint every caller already answers with 409 SLUG_TAKEN: current and former slugs are one namespace. The
 * insert waits for a concurrent transaction that claims the same slug, so two organizations racing for one slug get
 * one winner.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('organization_slug_history', (t) => {
    t.string('slug', 100).primary();
    t.uuid('organization_id').nullable().references('id').inTable('organizations').onDelete('SET NULL');
    t.timestamp('first_used_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['organization_id'], 'organization_slug_history_organization');
  });
  await knex.raw('INSERT INTO organization_slug_history (slug, organization_id, first_used_at) SELECT slug, id, created_at FROM organizations');
  await knex.raw(`
    CREATE FUNCTION loom_reserve_organization_slug() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO organization_slug_history (slug, organization_id) VALUES (NEW.slug, NEW.id) ON CONFLICT (slug) DO NOTHING;
      IF EXISTS (SELECT 1 FROM organization_slug_history WHERE slug = NEW.slug AND organization_id IS DISTINCT FROM NEW.id) THEN
        RAISE EXCEPTION 'the slug % belongs to another organization', NEW.slug
          USING ERRCODE = 'unique_violation', CONSTRAINT = 'organizations_slug_unique';
      END IF;
      RETURN NULL;
    END
    $$`);
  await knex.raw(`
    CREATE TRIGGER organizations_slug_reserved_on_insert AFTER INSERT ON organizations
      FOR EACH ROW EXECUTE FUNCTION loom_reserve_organization_slug()`);
  await knex.raw(`
    CREATE TRIGGER organizations_slug_reserved_on_update AFTER UPDATE OF slug ON organizations
      FOR EACH ROW WHEN (OLD.slug IS DISTINCT FROM NEW.slug) EXECUTE FUNCTION loom_reserve_organization_slug()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER IF EXISTS organizations_slug_reserved_on_update ON organizations');
  await knex.raw('DROP TRIGGER IF EXISTS organizations_slug_reserved_on_insert ON organizations');
  await knex.raw('DROP FUNCTION IF EXISTS loom_reserve_organization_slug()');
  await knex.schema.dropTableIfExists('organization_slug_history');
}
