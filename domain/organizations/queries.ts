import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import { queryNamed } from '../../db/namedStatement';
import { isUuid } from '../../lib/ids';
import type { CursorPosition } from '../../lib/pagination';
import type { Role } from '../../lib/permissions';

/**
 * All SQL of the organizations domain. Functions take `db` (or a transaction) first. Every query on tenant data is
 * scoped by organization id. Lists select `sort_key` (the timestamp as PostgreSQL text, microseconds intact) for
 * exact keyset cursors.
 */
type Conn = Db | Knex.Transaction;
export type Plan = 'free' | 'pro' | 'enterprise';

export interface OrganizationRow {
  id: string;
  name: string;
  slug: string;
  plan: Plan;
  status: 'active' | 'deleting';
  settings: unknown;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  deletion_requested_at: Date | null;
}

// ---------- organizations ----------

/**
 * Serializes, until the transaction ends, everything that makes the user a member (creating an organization,
 * accepting an invitation), so the per-user count read after it cannot be passed by parallel requests.
 */
export async function lockUserOrganizations(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx.raw("SELECT pg_advisory_xact_lock(hashtextextended('organizations.of-user:' || ?::text, 0))", [userId]);
}

export async function countActiveOrganizationsOfUser(db: Conn, userId: string): Promise<number> {
  const row = await db('memberships as m')
    .join('organizations as o', 'o.id', 'm.organization_id')
    .where({ 'm.user_id': userId, 'o.status': 'active' })
    .count<{ count: string }>('* as count')
    .first();
  return Number(row?.count ?? 0);
}

/**
 * Whether another organization holds the slug, now or before: a slug stays with the first organization that used it
 * (table `organization_slug_history`, kept by a trigger, db/migrations/1160), so its webhook URLs cannot be taken over.
 * A deleted organization's slugs stay retired (their owner is null). `exceptId` may take back its own former slugs.
 */
export async function slugInUse(db: Conn, slug: string, exceptId?: string): Promise<boolean> {
  const current = db('organizations').where({ slug });
  if (exceptId) current.whereNot({ id: exceptId });
  if (await current.first('id')) return true;
  const former = await db('organization_slug_history').where({ slug }).first('organization_id');
  return !!former && (exceptId === undefined || former.organization_id !== exceptId);
}

export async function insertOrganization(
  db: Conn,
  row: { id: string; name: string; slug: string; plan: Plan; settings: unknown; createdBy: string },
): Promise<OrganizationRow> {
  const [org] = await db('organizations')
    .insert({ id: row.id, name: row.name, slug: row.slug, plan: row.plan, settings: JSON.stringify(row.settings), created_by: row.createdBy })
    .returning('*');
  return org as OrganizationRow;
}

/** Active organizations only: an organization being deleted behaves as gone. */
export async function getOrganization(db: Conn, id: string, forUpdate = false): Promise<OrganizationRow | undefined> {
  const q = db<OrganizationRow>('organizations').where({ id, status: 'active' });
  if (forUpdate) q.forUpdate();
  return q.first();
}

export async function getOrganizationAnyStatus(db: Conn, id: string): Promise<OrganizationRow | undefined> {
  return db<OrganizationRow>('organizations').where({ id }).first();
}

export async function updateOrganization(
  db: Conn,
  id: string,
  patch: Partial<Pick<OrganizationRow, 'name' | 'slug' | 'plan' | 'status' | 'deletion_requested_at'>> & { settings?: unknown },
): Promise<OrganizationRow> {
  const values: Record<string, unknown> = { ...patch, updated_at: db.fn.now() };
  if (patch.settings !== undefined) values.settings = JSON.stringify(patch.settings);
  const [row] = await db('organizations').where({ id }).update(values).returning('*');
  return row as OrganizationRow;
}

/** The settings document of an organization in any status, its row locked until the transaction ends. */
export async function lockOrganizationSettings(trx: Knex.Transaction, id: string): Promise<{ settings: unknown } | undefined> {
  return trx('organizations').where({ id }).forUpdate().first('settings');
}

/** Starts a deletion: only an active organization moves to `deleting` (a repeated call changes nothing). */
export async function markOrganizationDeleting(db: Conn, id: string): Promise<void> {
  await db('organizations')
    .where({ id, status: 'active' })
    .update({ status: 'deleting', deletion_requested_at: db.fn.now(), updated_at: db.fn.now() });
}

/** Ends a deletion that stopped before deleting anything: only a `deleting` organization becomes active again. */
export async function restoreDeletingOrganization(db: Conn, id: string): Promise<boolean> {
  const rows = await db('organizations')
    .where({ id, status: 'deleting' })
    .update({ status: 'active', deletion_requested_at: null, updated_at: db.fn.now() })
    .returning('id');
  return rows.length > 0;
}

/** The organization row and its memberships; everything else of it cascades from the row. */
export async function deleteOrganizationWithMemberships(trx: Knex.Transaction, id: string): Promise<void> {
  await trx('memberships').where({ organization_id: id }).delete();
  await trx('organizations').where({ id }).delete();
}

/** An organization as the operator CLI lists it: with its member count. */
export type OrganizationWithMembers = OrganizationRow & { members: number };

/** Every organization in any status, newest first (operators look across tenants; `limit + 1` tells of more). */
export async function listAllOrganizations(db: Conn, limit: number): Promise<OrganizationWithMembers[]> {
  const rows = await db('organizations as o')
    .select('o.*', db.raw('(SELECT count(*) FROM memberships m WHERE m.organization_id = o.id)::int AS members'))
    .orderBy([{ column: 'o.created_at', order: 'desc' }, { column: 'o.id', order: 'desc' }])
    .limit(limit);
  return rows as OrganizationWithMembers[];
}

/**
 * An organization in any status by its id or its current slug (what an operator is likely to have at hand); a slug
 * is never spelt like an id (slugSchema), so the two cannot be confused.
 */
export async function findOrganizationByIdOrSlug(db: Conn, idOrSlug: string): Promise<OrganizationRow | undefined> {
  const where = isUuid(idOrSlug) ? { id: idOrSlug } : { slug: idOrSlug.toLowerCase() };
  return db<OrganizationRow>('organizations').where(where).first();
}

/** The organizations a user belongs to, in any status, oldest membership first, with the user's role. */
export async function listMembershipsOfUser(
  db: Conn,
  userId: string,
): Promise<{ organization_id: string; slug: string; name: string; status: OrganizationRow['status']; role: Role; joined_at: Date }[]> {
  return db('memberships as m')
    .join('organizations as o', 'o.id', 'm.organization_id')
    .where({ 'm.user_id': userId })
    .orderBy([{ column: 'm.created_at', order: 'asc' }, { column: 'o.id', order: 'asc' }])
    .select('o.id as organization_id', 'o.slug', 'o.name', 'o.status', 'm.role', 'm.created_at as joined_at');
}

export interface UserOrganizationRow extends OrganizationRow {
  role: Role;
  sort_key: string;
}

/** `only`: the one organization an SSO-scoped session may see (null: every organization of the user). */
export async function listOrganizationsOfUser(
  db: Conn,
  userId: string,
  limit: number,
  after: CursorPosition | null,
  only: string | null = null,
): Promise<UserOrganizationRow[]> {
  const q = db('organizations as o')
    .join('memberships as m', 'm.organization_id', 'o.id')
    .where({ 'm.user_id': userId, 'o.status': 'active' })
    .select('o.*', 'm.role', db.raw('o.created_at::text AS sort_key'));
  if (only) q.where('o.id', only);
  if (after) q.whereRaw('(o.created_at, o.id) < (?::timestamptz, ?::uuid)', [after.sort, after.id]);
  return q.orderBy([{ column: 'o.created_at', order: 'desc' }, { column: 'o.id', order: 'desc' }]).limit(limit + 1);
}

/** The one query behind every org-scoped request: organization state and the caller's live role. */
export interface AccessRow {
  status: string;
  plan: Plan;
  ip_allowlist: string[] | null;
  /** `security.sessionTimeoutMinutes` (a column PostgreSQL derives from the settings document). */
  session_idle_timeout_minutes: number | null;
  role: Role | null;
  /** `security.requireTwoFactor` is true. */
  require_two_factor: boolean;
  /** The user (none for an API key) has two-factor sign-in on. */
  two_factor_enabled: boolean;
}

/** Whether the member `m` has two-factor sign-in on: the access check and the member lists. */
const TWO_FACTOR_ENABLED =
  'EXISTS (SELECT 1 FROM user_two_factor f WHERE f.user_id = m.user_id AND f.enabled_at IS NOT NULL) AS two_factor_enabled';

const ACCESS_CHECK = `
  SELECT o.status, o.plan, o.settings->'security'->'ipAllowlist' AS ip_allowlist, o.session_idle_timeout_minutes, m.role,
         coalesce(o.settings->'security'->'requireTwoFactor' = 'true'::jsonb, false) AS require_two_factor,
         ${TWO_FACTOR_ENABLED}
    FROM organizations o LEFT JOIN memberships m ON m.organization_id = o.id AND m.user_id = $2
   WHERE o.id = $1`;

/**
 * Everything the access check of an org-scoped request needs (api/organizations/access.ts), in one query by primary
 * keys; `userId` null (an API key) finds no membership. On every org-scoped request, so a named statement
 * (db/namedStatement.ts): with knex's builder it was as costly as the request's own query.
 */
export async function getAccessRow(db: Db, organizationId: string, userId: string | null): Promise<AccessRow | undefined> {
  const rows = await queryNamed<AccessRow>(db, 'organization_access_check', ACCESS_CHECK, [organizationId, userId]);
  return rows[0];
}

// ---------- memberships ----------

export interface MemberRow {
  organization_id: string;
  user_id: string;
  role: Role;
  email: string;
  name: string | null;
  created_at: Date;
  updated_at: Date;
  sort_key: string;
  /** The member has two-factor sign-in on (docs/auth.md#organization-requirement). */
  two_factor_enabled: boolean;
}

export async function listMembers(db: Conn, organizationId: string, limit: number, after: CursorPosition | null): Promise<MemberRow[]> {
  const q = db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.organization_id', organizationId)
    .select('m.*', 'u.email', 'u.name', db.raw('m.created_at::text AS sort_key'), db.raw(TWO_FACTOR_ENABLED));
  if (after) q.whereRaw('(m.created_at, m.user_id) < (?::timestamptz, ?::uuid)', [after.sort, after.id]);
  return q.orderBy([{ column: 'm.created_at', order: 'desc' }, { column: 'm.user_id', order: 'desc' }]).limit(limit + 1);
}

export async function getMember(db: Conn, organizationId: string, userId: string, forUpdate = false): Promise<MemberRow | undefined> {
  const q = db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.organization_id': organizationId, 'm.user_id': userId })
    .first('m.*', 'u.email', 'u.name', db.raw('m.created_at::text AS sort_key'), db.raw(TWO_FACTOR_ENABLED));
  if (forUpdate) q.forUpdate('m');
  return q;
}

export async function insertMembership(db: Conn, organizationId: string, userId: string, role: Role): Promise<void> {
  await db('memberships').insert({ organization_id: organizationId, user_id: userId, role });
}

export async function setMemberRole(db: Conn, organizationId: string, userId: string, role: Role): Promise<void> {
  await db('memberships').where({ organization_id: organizationId, user_id: userId }).update({ role, updated_at: db.fn.now() });
}

export async function deleteMembership(db: Conn, organizationId: string, userId: string): Promise<void> {
  await db('memberships').where({ organization_id: organizationId, user_id: userId }).delete();
}

/** Locks the owner rows so two concurrent demotions cannot both see "another owner remains". */
export async function lockOwners(db: Knex.Transaction, organizationId: string): Promise<string[]> {
  const rows = await db('memberships').where({ organization_id: organizationId, role: 'owner' }).forUpdate().select('user_id');
  return rows.map((r: { user_id: string }) => r.user_id);
}

export async function countMembers(db: Conn, organizationId: string): Promise<number> {
  const row = await db('memberships').where({ organization_id: organizationId }).count<{ count: string }>('* as count').first();
  return Number(row?.count ?? 0);
}

/** Every member with their address and role (the deletion notice goes to each). */
export async function memberEmails(db: Conn, organizationId: string): Promise<{ user_id: string; email: string; role: Role }[]> {
  return db('memberships as m').join('users as u', 'u.id', 'm.user_id').where({ 'm.organization_id': organizationId }).select('m.user_id', 'u.email', 'm.role');
}

/** Owners and admins: who is told about quotas. */
export async function managerEmails(db: Conn, organizationId: string): Promise<string[]> {
  const rows = await db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.organization_id': organizationId })
    .whereIn('m.role', ['owner', 'admin'])
    .select('u.email');
  return rows.map((r: { email: string }) => r.email);
}

export async function ownerEmails(db: Conn, organizationId: string): Promise<string[]> {
  const rows = await db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.organization_id': organizationId, 'm.role': 'owner' })
    .select('u.email');
  return rows.map((r: { email: string }) => r.email);
}

export async function getUser(db: Conn, userId: string): Promise<{ id: string; email: string; name: string | null; password_hash: string | null } | undefined> {
  return db('users').where({ id: userId }).first('id', 'email', 'name', 'password_hash');
}

// ---------- invitations ----------

export interface InvitationRow {
  id: string;
  organization_id: string;
  email: string;
  role: Role;
  token_hash: string;
  status: 'pending' | 'accepted' | 'revoked';
  invited_by: string | null;
  accepted_by: string | null;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
}

export async function countPendingInvitations(db: Conn, organizationId: string): Promise<number> {
  const row = await db('invitations')
    .where({ organization_id: organizationId, status: 'pending' })
    .where('expires_at', '>', db.fn.now())
    .count<{ count: string }>('* as count')
    .first();
  return Number(row?.count ?? 0);
}

export async function insertInvitation(
  db: Conn,
  row: { organizationId: string; email: string; role: Role; tokenHash: string; invitedBy: string | null; expiresAt: Date },
): Promise<InvitationRow> {
  // An expired pending invitation for the same address is superseded rather than blocking a new one.
  await db('invitations')
    .where({ organization_id: row.organizationId, status: 'pending' })
    .whereRaw('lower(email) = lower(?)', [row.email])
    .where('expires_at', '<=', db.fn.now())
    .update({ status: 'revoked', updated_at: db.fn.now() });
  const [inv] = await db('invitations')
    .insert({
      organization_id: row.organizationId,
      email: row.email,
      role: row.role,
      token_hash: row.tokenHash,
      invited_by: row.invitedBy,
      expires_at: row.expiresAt,
    })
    .returning('*');
  return inv as InvitationRow;
}

export async function listPendingInvitations(
  db: Conn,
  organizationId: string,
  limit: number,
  after: CursorPosition | null,
): Promise<(InvitationRow & { sort_key: string })[]> {
  const q = db('invitations')
    .where({ organization_id: organizationId, status: 'pending' })
    .select('*', db.raw('created_at::text AS sort_key'));
  if (after) q.whereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [after.sort, after.id]);
  return q.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit + 1);
}

export async function getInvitation(db: Conn, organizationId: string, id: string): Promise<InvitationRow | undefined> {
  return db<InvitationRow>('invitations').where({ organization_id: organizationId, id }).first();
}

export async function getInvitationByTokenHash(db: Conn, tokenHash: string): Promise<InvitationRow | undefined> {
  return db<InvitationRow>('invitations').where({ token_hash: tokenHash }).forUpdate().first();
}

export async function updateInvitation(
  db: Conn,
  id: string,
  patch: Partial<Pick<InvitationRow, 'status' | 'token_hash' | 'expires_at' | 'accepted_by'>>,
): Promise<InvitationRow> {
  const [row] = await db('invitations').where({ id }).update({ ...patch, updated_at: db.fn.now() }).returning('*');
  return row as InvitationRow;
}

export async function memberWithEmailExists(db: Conn, organizationId: string, email: string): Promise<boolean> {
  return !!(await db('memberships as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.organization_id', organizationId)
    .whereRaw('lower(u.email) = lower(?)', [email])
    .first('m.user_id'));
}

// ---------- API keys ----------

export interface ApiKeyRow {
  id: string;
  organization_id: string;
  name: string;
  role: Role;
  prefix: string;
  key_hash: string;
  created_by: string | null;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

export async function insertApiKey(
  db: Conn,
  row: { organizationId: string; name: string; role: Role; prefix: string; keyHash: string; createdBy: string | null; expiresAt: Date | null },
): Promise<ApiKeyRow> {
  const [key] = await db('api_keys')
    .insert({
      organization_id: row.organizationId,
      name: row.name,
      role: row.role,
      prefix: row.prefix,
      key_hash: row.keyHash,
      created_by: row.createdBy,
      expires_at: row.expiresAt,
    })
    .returning('*');
  return key as ApiKeyRow;
}

export async function listApiKeys(
  db: Conn,
  organizationId: string,
  limit: number,
  after: CursorPosition | null,
): Promise<(ApiKeyRow & { sort_key: string })[]> {
  const q = db('api_keys')
    .where({ organization_id: organizationId })
    .whereNull('revoked_at')
    .select('*', db.raw('created_at::text AS sort_key'));
  if (after) q.whereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [after.sort, after.id]);
  return q.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit + 1);
}

export async function getApiKey(db: Conn, organizationId: string, id: string): Promise<ApiKeyRow | undefined> {
  return db<ApiKeyRow>('api_keys').where({ organization_id: organizationId, id }).whereNull('revoked_at').first();
}

export async function revokeApiKey(db: Conn, organizationId: string, id: string): Promise<void> {
  await db('api_keys').where({ organization_id: organizationId, id }).update({ revoked_at: db.fn.now() });
}

/**
 * Revokes the live keys `userId` created in the organization, all of them or only those with one of `roles`;
 * returns what was revoked (for the audit entries).
 */
export async function revokeApiKeysOfCreator(
  db: Conn,
  organizationId: string,
  userId: string,
  roles: readonly Role[] | null,
): Promise<Pick<ApiKeyRow, 'id' | 'name' | 'role' | 'prefix'>[]> {
  const q = db('api_keys').where({ organization_id: organizationId, created_by: userId }).whereNull('revoked_at');
  if (roles) q.whereIn('role', roles);
  return q.update({ revoked_at: db.fn.now() }).returning(['id', 'name', 'role', 'prefix']);
}

/** The user a key was created by (the person accountable for keys it mints in turn). */
export async function getApiKeyCreator(db: Conn, organizationId: string, id: string): Promise<string | null> {
  const row = await db('api_keys').where({ organization_id: organizationId, id }).first('created_by');
  return (row?.created_by as string | null | undefined) ?? null;
}

export async function findApiKeyByHash(db: Conn, keyHash: string): Promise<ApiKeyRow | undefined> {
  return db<ApiKeyRow>('api_keys').where({ key_hash: keyHash }).first();
}

export async function touchApiKey(db: Conn, id: string): Promise<void> {
  await db('api_keys')
    .where({ id })
    .where((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', db.raw("now() - interval '1 minute'")))
    .update({ last_used_at: db.fn.now() });
}

// ---------- usage ----------

export async function addApiCalls(db: Conn, period: string, counts: [string, number][]): Promise<void> {
  if (!counts.length) return;
  // Rows of organizations deleted in between are skipped (the FK would reject them).
  await db.raw(
    `INSERT INTO organization_usage (organization_id, period, api_calls)
       SELECT c.org, ?, c.n FROM unnest(?::uuid[], ?::bigint[]) AS c(org, n)
       JOIN organizations o ON o.id = c.org
     ON CONFLICT (organization_id, period)
     DO UPDATE SET api_calls = organization_usage.api_calls + EXCLUDED.api_calls, updated_at = now()`,
    [period, counts.map((c) => c[0]), counts.map((c) => c[1])],
  );
}

export async function getApiCalls(db: Conn, organizationId: string, period: string): Promise<number> {
  const row = await db('organization_usage').where({ organization_id: organizationId, period }).first('api_calls');
  return Number(row?.api_calls ?? 0);
}

/** True only for the first alert of this quota and period. */
export async function claimQuotaAlert(db: Conn, organizationId: string, quota: string, period: string): Promise<boolean> {
  const rows = await db('quota_alerts')
    .insert({ organization_id: organizationId, quota, period })
    .onConflict(['organization_id', 'quota', 'period'])
    .ignore()
    .returning('organization_id');
  return rows.length > 0;
}
