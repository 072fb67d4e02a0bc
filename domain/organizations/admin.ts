import type { Db } from '../../db/knex';
import { countMembers, countPendingInvitations, findOrganizationByIdOrSlug, listAllOrganizations, ownerEmails } from './queries';
import { serializeOrganization } from './serializers';

/**
 * Operator look-ups of organizations (the admin CLI, scripts/admin-cli/organizations.ts). Unlike the API's they
 * cross tenants and show organizations in any status, a `deleting` one included: an operator is asked about those.
 */

export type OrganizationListing = ReturnType<typeof serializeOrganization> & { members: number };

export interface OrganizationOverview extends OrganizationListing {
  deletionRequestedAt: string | null;
  owners: string[];
  pendingInvitations: number;
}

/** The newest `limit` organizations with their member counts; `more` when there are others. */
export async function listOrganizationsForOperator(db: Db, limit: number): Promise<{ data: OrganizationListing[]; more: boolean }> {
  const rows = await listAllOrganizations(db, limit + 1);
  const data = rows.slice(0, limit).map((row) => ({ ...serializeOrganization(row), members: row.members }));
  return { data, more: rows.length > limit };
}

/** One organization by id or slug, with who owns it; null when there is none. */
export async function describeOrganization(db: Db, idOrSlug: string): Promise<OrganizationOverview | null> {
  const row = await findOrganizationByIdOrSlug(db, idOrSlug);
  if (!row) return null;
  const [members, owners, pendingInvitations] = await Promise.all([
    countMembers(db, row.id),
    ownerEmails(db, row.id),
    countPendingInvitations(db, row.id),
  ]);
  return {
    ...serializeOrganization(row),
    members,
    deletionRequestedAt: row.deletion_requested_at ? new Date(row.deletion_requested_at).toISOString() : null,
    owners: owners.sort(),
    pendingInvitations,
  };
}
