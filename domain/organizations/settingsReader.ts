import type { Knex } from 'knex';
import { withDefaults, type StoredSettings } from './settingsModel';

type Conn = Knex | Knex.Transaction;

/**
 * How other domains and the activities read an organization: its settings complete and typed (defaults filled in,
 * as settingsModel.ts defines them), or its name and slug. The one reader of `organizations` outside this domain,
 * so no caller casts the settings document ad hoc. Null when the organization is gone.
 */
export async function readOrganizationSettings(db: Conn, organizationId: string): Promise<StoredSettings | null> {
  const row: { settings: unknown } | undefined = await db('organizations').where({ id: organizationId }).first('settings');
  return row ? withDefaults(row.settings) : null;
}

export async function readOrganizationNames(db: Conn, organizationId: string): Promise<{ name: string; slug: string } | null> {
  const row: { name: string; slug: string } | undefined = await db('organizations').where({ id: organizationId }).first('name', 'slug');
  return row ?? null;
}
