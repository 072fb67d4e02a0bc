import type { Knex } from 'knex';
import type { HostRateLimit } from '../../lib/destinationLimits';
import { isUuid } from '../../lib/ids';
import { withDefaults, type StoredSettings } from './settingsModel';

type Conn = Knex | Knex.Transaction;

/**
 * How other domains and the activities read an organization: its settings complete and typed (defaults filled in,
 * as settingsModel.ts defines them), its name and slug, its plan, or which organization a URL names. The one reader
 * of `organizations` outside this domain, so no caller casts the settings document ad hoc. Null when the
 * organization is gone.
 */
export async function readOrganizationSettings(db: Conn, organizationId: string): Promise<StoredSettings | null> {
  const row: { settings: unknown } | undefined = await db('organizations').where({ id: organizationId }).first('settings');
  return row ? withDefaults(row.settings) : null;
}

/**
 * The organization's rate limits on destinations (`integration.rateLimits`, validated and normalised when saved):
 * only that part of the document, read for every tool call that names a destination.
 */
export async function readOrganizationRateLimits(db: Conn, organizationId: string): Promise<HostRateLimit[]> {
  const row: { rate_limits: unknown } | undefined = await db('organizations')
    .where({ id: organizationId })
    .first(db.raw("settings->'integration'->'rateLimits' AS rate_limits"));
  return Array.isArray(row?.rate_limits) ? (row.rate_limits as HostRateLimit[]) : [];
}

export async function readOrganizationNames(db: Conn, organizationId: string): Promise<{ name: string; slug: string } | null> {
  const row: { name: string; slug: string } | undefined = await db('organizations').where({ id: organizationId }).first('name', 'slug');
  return row ?? null;
}

/** The organization's plan (storage quotas): null when it is gone. */
export async function readOrganizationPlan(db: Conn, organizationId: string): Promise<string | null> {
  const row: { plan: string } | undefined = await db('organizations').where({ id: organizationId }).first('plan');
  return row?.plan ?? null;
}

export interface OrganizationByRef {
  id: string;
  slug: string;
  status: string;
  settings: StoredSettings;
}

/** An organization by id or by its current slug, whatever its status (SSO sign-in names it either way). */
export async function findOrganizationByIdOrSlug(db: Conn, by: { slug: string } | { id: string }): Promise<OrganizationByRef | null> {
  const row: { id: string; slug: string; status: string; settings: unknown } | undefined = await db('organizations')
    .where(by)
    .first('id', 'slug', 'status', 'settings');
  return row ? { ...row, settings: withDefaults(row.settings) } : null;
}

const SLUG_CHARS = /^[a-z0-9-]{1,100}$/;

/**
 * An active organization by id or slug (the first segment of a webhook URL). A slug resolves to the organization
 * that holds it now or held it before (`organization_slug_history`: a slug never passes to another organization),
 * so a sender still posting to an old URL reaches the organization it was given to, never a newcomer. A value shaped
 * like an id is an id only: no slug can stand in for another organization's id.
 */
export async function findActiveOrganizationByRef(db: Conn, ref: string): Promise<{ id: string } | null> {
  // Neither an id nor a slug: the same "not found" as an unknown organization (a NUL would otherwise reach
  // PostgreSQL and answer a different 400).
  if (!isUuid(ref) && !SLUG_CHARS.test(ref)) return null;
  const q = db('organizations').where({ status: 'active' });
  if (isUuid(ref)) return (await q.andWhere({ id: ref.toLowerCase() }).first('id')) ?? null;
  const former = db('organization_slug_history').where({ slug: ref }).select('organization_id');
  const row = await q.andWhere((w) => w.where({ slug: ref }).orWhereIn('id', former)).first('id');
  return row ?? null;
}
