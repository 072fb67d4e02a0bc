import { z } from 'zod';
import { AppError, notFound } from '../../../lib/errors';
import { pageQuerySchema, pageSchema } from '../../../lib/pagination';
import { defineRoute, type RouteDef } from '../../http/route';
import type { OrganizationsServices } from '../../../domain/organizations/services';
import { deletionStatusSchema, orgIdParams, organizationSchema, planSchema, slugSchema, usageSchema } from '../../../domain/organizations/schemas';
import { serializeOrganization } from '../../../domain/organizations/serializers';

const tags = ['organizations'];
const nameSchema = z.string().trim().min(1).max(255);

export function organizationRoutes(s: OrganizationsServices): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/organizations',
      operationId: 'listOrganizations',
      summary: "List the caller's organizations, with the caller's role in each",
      description: 'A session opened by an organization\'s single sign-on lists that organization only.',
      tags,
      auth: 'user',
      query: pageQuerySchema,
      responses: { 200: { description: 'a page of organizations', schema: pageSchema(organizationSchema) } },
      handler: async ({ query, principal }) => {
        const page = await s.organizations.listForUser(principal, query.limit, query.cursor);
        return { body: { data: page.data.map((r) => serializeOrganization(r, r.role)), nextCursor: page.nextCursor } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/organizations',
      operationId: 'createOrganization',
      summary: 'Create an organization; the caller becomes its owner',
      description:
        'Creates the organization, its default settings and the owner membership in one transaction and answers ' +
        'with the organization. Billing initialisation (free plan) and the welcome e-mail follow in the Temporal ' +
        'workflow `org-create-<id>`. The slug is derived from the name when absent. A user may belong to at most ' +
        'SERVICE_MAX_ORGANIZATIONS_PER_USER (default 10) organizations.',
      tags,
      auth: 'user',
      body: z.strictObject({ name: nameSchema, slug: slugSchema.optional() }),
      responses: { 201: { description: 'created', schema: organizationSchema } },
      errors: ['SLUG_TAKEN', 'ORGANIZATION_LIMIT'],
      handler: async ({ body, principal, actor }) => {
        const org = await s.organizations.create(principal, actor, body);
        return { status: 201, body: serializeOrganization(org, 'owner'), headers: { Location: `/api/v1/organizations/${org.id}` } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/organization',
      operationId: 'getCurrentOrganization',
      summary: "The organization the request acts on: the session's active organization or the API key's",
      tags,
      auth: 'org',
      permission: 'organization:read',
      responses: { 200: { description: 'the organization', schema: organizationSchema } },
      errors: ['IP_NOT_ALLOWED', 'QUOTA_EXCEEDED'],
      handler: async ({ organization }) => ({
        body: serializeOrganization(await s.organizations.get(organization.organizationId), organization.role),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/organizations/{id}',
      operationId: 'getOrganization',
      summary: 'Get an organization',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'organization:read',
      params: orgIdParams,
      responses: { 200: { description: 'the organization', schema: organizationSchema } },
      errors: ['IP_NOT_ALLOWED'],
      handler: async ({ organization }) => ({
        body: serializeOrganization(await s.organizations.get(organization.organizationId), organization.role),
      }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/organizations/{id}',
      operationId: 'updateOrganization',
      summary: "Update the organization's name or slug",
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'organization:update',
      params: orgIdParams,
      body: z
        .strictObject({ name: nameSchema.optional(), slug: slugSchema.optional() })
        .refine((b) => b.name !== undefined || b.slug !== undefined, { message: 'give name or slug' }),
      responses: { 200: { description: 'updated', schema: organizationSchema } },
      errors: ['SLUG_TAKEN', 'IP_NOT_ALLOWED'],
      handler: async ({ organization, body, actor }) => ({
        body: serializeOrganization(await s.organizations.update(organization.organizationId, actor, body), organization.role),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/organizations/{id}',
      operationId: 'deleteOrganization',
      summary: 'Delete the organization (owner, confirmed with the password)',
      description:
        'The organization is unusable from this moment (it answers 404). The Temporal workflow `org-delete-<id>` ' +
        'then exports the data when asked (a time-limited link in the confirmation e-mail), cancels subscriptions, ' +
        'deletes every resource (content, workflows, schedules, runs, vectors, objects), removes the members and ' +
        'sends the confirmation. Follow it at the `Location` header (GET .../deletion). A second request answers 404: ' +
        'the organization is already gone for the API.',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'organization:delete',
      params: orgIdParams,
      body: z.strictObject({
        password: z.string().min(1).max(200).describe("the owner's current password"),
        exportData: z.boolean().optional().default(false),
      }),
      responses: {
        202: {
          description: 'deletion started',
          schema: z.object({ organizationID: z.uuid(), status: z.literal('deleting'), workflowId: z.string(), statusUrl: z.string() }),
        },
      },
      errors: ['INVALID_CREDENTIALS', 'IP_NOT_ALLOWED'],
      handler: async ({ organization, body, principal, actor }) => {
        if (principal.kind !== 'user') throw new AppError('FORBIDDEN', 'an organization is deleted by its owner, not by an API key');
        const id = organization.organizationId;
        const { workflowId } = await s.organizations.requestDeletion(id, principal, actor, body);
        const statusUrl = `/api/v1/organizations/${id}/deletion`;
        return { status: 202, body: { organizationID: id, status: 'deleting', workflowId, statusUrl }, headers: { Location: statusUrl } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/organizations/{id}/deletion',
      operationId: 'getOrganizationDeletion',
      summary: 'Progress of an organization deletion (for the owner who asked for it)',
      tags,
      auth: 'user',
      params: orgIdParams,
      responses: { 200: { description: 'the deletion', schema: deletionStatusSchema } },
      handler: async ({ params, principal }) => {
        const status = await s.lifecycle.deletionStatus(params.id, principal.userId);
        if (!status) throw notFound('deletion');
        return { body: status };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/organizations/{id}/plan',
      operationId: 'changeOrganizationPlan',
      summary: 'Change the plan (owner), through the billing provider',
      description:
        'An upgrade is charged by the billing provider (SERVICE_BILLING_PROVIDER). When the charge fails the plan is ' +
        'unchanged and the answer is 402 `PAYMENT_FAILED` naming the reason; the failed payment is in the audit log ' +
        '(`billing.payment_failed`). A downgrade must fit the members and pending invitations (429 `QUOTA_EXCEEDED`).',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'organization:billing',
      params: orgIdParams,
      body: z.strictObject({ plan: planSchema }),
      responses: { 200: { description: 'the organization on its new plan', schema: organizationSchema } },
      errors: ['QUOTA_EXCEEDED', 'PAYMENT_FAILED', 'IP_NOT_ALLOWED'],
      handler: async ({ organization, body, actor }) => ({
        body: serializeOrganization(await s.organizations.changePlan(organization.organizationId, actor, body.plan), organization.role),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/organizations/{id}/usage',
      operationId: 'getOrganizationUsage',
      summary: 'Members, storage and API calls this month against the plan limits',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'usage:read',
      params: orgIdParams,
      responses: { 200: { description: 'usage', schema: usageSchema } },
      errors: ['IP_NOT_ALLOWED'],
      handler: async ({ organization }) => ({ body: await s.organizations.usage(organization.organizationId) }),
    }),
  ];
}
