import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { isUniqueViolation } from '../../lib/db/errors';
import { AppError, notFound } from '../../lib/errors';
import { createTxtLookup, DnsTxtError } from '../../lib/net/dnsTxt';
import { decodeCursorOrThrow, toPage, type Page } from '../../lib/pagination';
import { recordAudit } from '../audit/record';
import type { Actor, OrganizationContext } from '../principals';
import * as q from './domainQueries';
import type { OrgServiceDeps } from './serviceDeps';

/**
 * An organization's e-mail domains (docs/organizations.md#verified-domains). Single sign-on may create or join an
 * account by e-mail only for a domain its organization has proven it owns (domain/auth/sso.ts): an admin registers
 * the domain and gets a token, publishes `_loom-verification.<domain>` TXT `loom-verification=<token>`, and asks for
 * the check. The record is looked up once, through the DNS servers the operator configured
 * (SERVICE_DOMAIN_VERIFICATION_DNS_SERVERS) or the system's; the domain stays verified until the organization deletes
 * it. One organization at a time may hold a domain verified: the first to prove it; others may register it but not
 * verify it while the first keeps it (409 DOMAIN_CLAIMED).
 */

const MAX_DOMAINS_PER_ORGANIZATION = 20;
const DNS_TIMEOUT_MS = 5_000;
export const VERIFICATION_PREFIX = '_loom-verification';
const RECORD_PREFIX = 'loom-verification=';

/** A DNS name as people type it, lower-cased, without a final dot; IDNs in their A-label (`xn--`) form. */
export const domainName = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .regex(/^(?=.{1,254}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?\.?$/, 'a domain name such as corp.example')
  .describe('an e-mail domain such as corp.example (IDNs in their xn-- form)');

/** The stored form: without the final dot of a fully qualified name. */
export const canonicalDomain = (domain: string): string => domain.replace(/\.$/, '');

export const organizationDomainSchema = z
  .object({
    id: z.uuid(),
    domain: z.string(),
    status: z.enum(['pending', 'verified']),
    verifiedAt: z.string().nullable(),
    verification: z
      .object({
        recordName: z.string().describe('the DNS name to publish the TXT record at'),
        recordType: z.literal('TXT'),
        recordValue: z.string().describe('the TXT record value'),
      })
      .describe('publish this record, then POST .../verify'),
    createdAt: z.string(),
  })
  .meta({ id: 'OrganizationDomain' });

export type OrganizationDomainView = z.infer<typeof organizationDomainSchema>;

export function serializeOrganizationDomain(row: q.OrganizationDomainRow): OrganizationDomainView {
  return {
    id: row.id,
    domain: row.domain,
    status: row.verified_at ? 'verified' : 'pending',
    verifiedAt: row.verified_at ? new Date(row.verified_at).toISOString() : null,
    verification: { recordName: `${VERIFICATION_PREFIX}.${row.domain}`, recordType: 'TXT', recordValue: `${RECORD_PREFIX}${row.token}` },
    createdAt: new Date(row.created_at).toISOString(),
  };
}

export function createDomainsService(d: OrgServiceDeps) {
  const { db } = d;
  const lookupTxt = createTxtLookup({ servers: d.config.organizations.domainVerificationDnsServers, timeoutMs: DNS_TIMEOUT_MS });

  async function register(org: OrganizationContext, actor: Actor, input: string): Promise<q.OrganizationDomainRow> {
    const domain = canonicalDomain(input);
    if ((await q.countOrganizationDomains(db, org.organizationId)) >= MAX_DOMAINS_PER_ORGANIZATION) {
      throw new AppError('CONFLICT', `an organization may register at most ${MAX_DOMAINS_PER_ORGANIZATION} domains; delete one first`);
    }
    try {
      return await db.transaction(async (trx) => {
        const row = await q.insertOrganizationDomain(trx, {
          organizationId: org.organizationId,
          domain,
          token: randomBytes(24).toString('base64url'),
          createdBy: actor.type === 'user' ? actor.id : null,
        });
        await recordAudit(trx, { organizationId: org.organizationId, actor, action: 'domain.registered', target: { type: 'domain', id: row.id }, after: { domain } });
        return row;
      });
    } catch (err) {
      if (isUniqueViolation(err, q.ORGANIZATION_DOMAIN_INDEX)) throw new AppError('CONFLICT', `${domain} is already registered for this organization`);
      throw err;
    }
  }

  async function list(organizationId: string, limit: number, cursor?: string): Promise<Page<q.OrganizationDomainRow & { sort_key: string }>> {
    const after = decodeCursorOrThrow(cursor);
    return toPage(await q.listOrganizationDomains(db, organizationId, limit, after), limit, (r) => ({ sort: r.sort_key, id: r.id }));
  }

  async function get(organizationId: string, id: string): Promise<q.OrganizationDomainRow> {
    const row = await q.getOrganizationDomain(db, organizationId, id);
    if (!row) throw notFound('domain');
    return row;
  }

  const claimed = (domain: string): AppError => new AppError('DOMAIN_CLAIMED', `${domain} is already verified by another organization`);

  /** Looks the TXT record up (outside any transaction), then marks the domain verified unless another organization holds it. */
  async function verify(org: OrganizationContext, actor: Actor, id: string): Promise<q.OrganizationDomainRow> {
    const row = await get(org.organizationId, id);
    if (row.verified_at) return row;
    const owner = await q.findVerifiedDomainOwner(db, row.domain);
    if (owner && owner !== org.organizationId) throw claimed(row.domain);
    const name = `${VERIFICATION_PREFIX}.${row.domain}`;
    const expected = `${RECORD_PREFIX}${row.token}`;
    let records: string[];
    try {
      records = await lookupTxt(name);
    } catch (err) {
      if (!(err instanceof DnsTxtError)) throw err;
      if (err.kind === 'FAILED') throw new AppError('UPSTREAM_ERROR', `${err.message}; try again later`);
      records = [];
    }
    if (!records.some((r) => r.trim() === expected)) {
      throw new AppError('DOMAIN_NOT_VERIFIED', `${name} has no TXT record ${expected} (yet); publish it, then verify again`);
    }
    try {
      return await db.transaction(async (trx) => {
        const verified = await q.markOrganizationDomainVerified(trx, org.organizationId, id);
        if (!verified) throw notFound('domain');
        await recordAudit(trx, { organizationId: org.organizationId, actor, action: 'domain.verified', target: { type: 'domain', id }, after: { domain: row.domain } });
        return verified;
      });
    } catch (err) {
      if (isUniqueViolation(err, q.VERIFIED_DOMAIN_INDEX)) throw claimed(row.domain);
      throw err;
    }
  }

  /** Deleting a verified domain releases it: SSO no longer creates accounts in it, and another organization may prove it. */
  async function remove(org: OrganizationContext, actor: Actor, id: string): Promise<void> {
    const row = await get(org.organizationId, id);
    await db.transaction(async (trx) => {
      await q.deleteOrganizationDomain(trx, org.organizationId, id);
      await recordAudit(trx, {
        organizationId: org.organizationId,
        actor,
        action: 'domain.deleted',
        target: { type: 'domain', id },
        before: { domain: row.domain, verified: row.verified_at !== null },
      });
    });
  }

  return { register, list, get, verify, remove };
}

export type DomainsService = ReturnType<typeof createDomainsService>;
