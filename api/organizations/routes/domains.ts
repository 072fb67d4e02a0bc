import { z } from 'zod';
import { pageQuerySchema, pageSchema } from '../../../lib/pagination';
import { defineRoute, type RouteDef } from '../../http/route';
import { domainName, organizationDomainSchema, serializeOrganizationDomain, type DomainsService } from '../../../domain/organizations/domainsService';

/** /api/v1/organizations/{id}/domains: e-mail domains proven by DNS, for single sign-on; rules in domainsService.ts. */

const tags = ['settings'];
const params = z.object({ id: z.uuid() });
const domainParams = z.object({ id: z.uuid(), domainId: z.uuid() });

export function domainRoutes(s: DomainsService): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/organizations/{id}/domains',
      operationId: 'registerOrganizationDomain',
      summary: 'Register an e-mail domain to prove with a DNS TXT record',
      description:
        'Answers the TXT record to publish (`_loom-verification.<domain>` = `loom-verification=<token>`); then ' +
        'POST .../domains/{domainId}/verify. Single sign-on creates or joins accounts by e-mail only in verified domains.',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'integrations:manage',
      params,
      body: z.strictObject({ domain: domainName }),
      responses: { 201: { description: 'registered, not verified yet', schema: organizationDomainSchema } },
      errors: ['CONFLICT'],
      handler: async ({ organization, actor, body }) => ({
        status: 201,
        body: serializeOrganizationDomain(await s.register(organization, actor, body.domain)),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/organizations/{id}/domains',
      operationId: 'listOrganizationDomains',
      summary: "List the organization's e-mail domains, pending and verified",
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'integrations:manage',
      params,
      query: pageQuerySchema,
      responses: { 200: { description: 'a page of domains', schema: pageSchema(organizationDomainSchema) } },
      handler: async ({ organization, query }) => {
        const page = await s.list(organization.organizationId, query.limit, query.cursor);
        return { body: { data: page.data.map(serializeOrganizationDomain), nextCursor: page.nextCursor } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/organizations/{id}/domains/{domainId}/verify',
      operationId: 'verifyOrganizationDomain',
      summary: "Check the domain's TXT record and mark it verified",
      description:
        'Looks up the TXT record once. 422 DOMAIN_NOT_VERIFIED while it is missing; 409 DOMAIN_CLAIMED when another ' +
        'organization verified the domain first; a verified domain answers as it is.',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'integrations:manage',
      params: domainParams,
      responses: { 200: { description: 'verified', schema: organizationDomainSchema } },
      errors: ['DOMAIN_NOT_VERIFIED', 'DOMAIN_CLAIMED', 'UPSTREAM_ERROR'],
      handler: async ({ organization, actor, params: p }) => ({ body: serializeOrganizationDomain(await s.verify(organization, actor, p.domainId)) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/organizations/{id}/domains/{domainId}',
      operationId: 'deleteOrganizationDomain',
      summary: 'Delete a domain (a verified one is released)',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'integrations:manage',
      params: domainParams,
      responses: { 204: { description: 'deleted' } },
      handler: async ({ organization, actor, params: p }) => {
        await s.remove(organization, actor, p.domainId);
        return { status: 204 };
      },
    }),
  ];
}
