import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import type { CursorPosition } from '../../lib/pagination';

/**
 * SQL of an organization's e-mail domains (db/migrations/1130_sso_identities.ts): the only writer of
 * `organization_domains`. A domain is verified by one organization at most (a partial unique index), so two
 * organizations racing to verify the same domain cannot both win.
 */

type Conn = Db | Knex.Transaction;

export interface OrganizationDomainRow {
  id: string;
  organization_id: string;
  domain: string;
  token: string;
  verified_at: Date | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export const VERIFIED_DOMAIN_INDEX = 'organization_domains_verified_unique';
export const ORGANIZATION_DOMAIN_INDEX = 'organization_domains_organization_id_domain_unique';

export async function insertOrganizationDomain(
  db: Conn,
  input: { organizationId: string; domain: string; token: string; createdBy: string | null },
): Promise<OrganizationDomainRow> {
  const [row] = await db('organization_domains')
    .insert({ organization_id: input.organizationId, domain: input.domain, token: input.token, created_by: input.createdBy })
    .returning('*');
  return row as OrganizationDomainRow;
}

export async function countOrganizationDomains(db: Conn, organizationId: string): Promise<number> {
  const row = await db('organization_domains').where({ organization_id: organizationId }).count<{ count: string }[]>({ count: '*' }).first();
  return Number(row?.count ?? 0);
}

export async function listOrganizationDomains(
  db: Conn,
  organizationId: string,
  limit: number,
  after: CursorPosition | null,
): Promise<(OrganizationDomainRow & { sort_key: string })[]> {
  const q = db('organization_domains').where({ organization_id: organizationId }).select('*', db.raw('created_at::text AS sort_key'));
  if (after) q.whereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [after.sort, after.id]);
  return q.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(limit + 1);
}

export async function getOrganizationDomain(db: Conn, organizationId: string, id: string): Promise<OrganizationDomainRow | undefined> {
  return db<OrganizationDomainRow>('organization_domains').where({ organization_id: organizationId, id }).first();
}

/** Marks the domain proven; throws a unique violation of VERIFIED_DOMAIN_INDEX when another organization has it. */
export async function markOrganizationDomainVerified(db: Conn, organizationId: string, id: string): Promise<OrganizationDomainRow | undefined> {
  const [row] = await db('organization_domains')
    .where({ organization_id: organizationId, id })
    .update({ verified_at: db.fn.now(), updated_at: db.fn.now() })
    .returning('*');
  return row as OrganizationDomainRow | undefined;
}

export async function deleteOrganizationDomain(db: Conn, organizationId: string, id: string): Promise<number> {
  return db('organization_domains').where({ organization_id: organizationId, id }).delete();
}

/** The organization that has verified `domain`, if any. */
export async function findVerifiedDomainOwner(db: Conn, domain: string): Promise<string | undefined> {
  const row: { organization_id: string } | undefined = await db('organization_domains')
    .where({ domain })
    .whereNotNull('verified_at')
    .first('organization_id');
  return row?.organization_id;
}

/** Whether `organizationId` has verified `domain` (the SSO sign-in's condition to create or join an account). */
export async function isDomainVerifiedBy(db: Conn, organizationId: string, domain: string): Promise<boolean> {
  return (await findVerifiedDomainOwner(db, domain)) === organizationId;
}
