import { z } from 'zod';
import { pageQuerySchema, pageSchema } from '../../../lib/pagination';
import { defineRoute, type RouteDef } from '../../http/route';
import type { OrganizationsServices } from '../../../domain/organizations/services';
import { apiKeySchema } from '../../../domain/organizations/schemas';
import { serializeApiKey } from '../../../domain/organizations/serializers';

const tags = ['api-keys'];

export function apiKeyRoutes(s: OrganizationsServices): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/organizations/{id}/api-keys',
      operationId: 'createApiKey',
      summary: 'Create an API key (the key is in this response only)',
      description:
        'Present it as `Authorization: Bearer loom_...` or `X-API-Key: loom_...`. It acts on this organization ' +
        'with its role (admin, member or viewer; at most the creator\'s role). An admin key is created by a person only: ' +
        'an API key gets HUMAN_REQUIRED.',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'integrations:manage',
      params: z.object({ id: z.uuid() }),
      body: z.strictObject({
        name: z.string().trim().min(1).max(100),
        role: z.enum(['admin', 'member', 'viewer']).optional().default('member'),
        expiresAt: z.iso
          .datetime({ offset: true })
          .refine((v) => Date.parse(v) > Date.now(), 'must be in the future')
          .nullable()
          .optional()
          .describe('absent or null = never expires'),
      }),
      responses: { 201: { description: 'created', schema: apiKeySchema.extend({ key: z.string().describe('shown once') }) } },
      errors: ['IP_NOT_ALLOWED', 'HUMAN_REQUIRED'],
      handler: async ({ organization, body, principal, actor }) => {
        const { row, key } = await s.apiKeys.create(organization, actor, principal.kind === 'user' ? principal.userId : null, {
          name: body.name,
          role: body.role,
          expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
        });
        return { status: 201, body: { ...serializeApiKey(row), key } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/organizations/{id}/api-keys',
      operationId: 'listApiKeys',
      summary: 'List live (not revoked) API keys',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'integrations:manage',
      params: z.object({ id: z.uuid() }),
      query: pageQuerySchema,
      responses: { 200: { description: 'a page of keys', schema: pageSchema(apiKeySchema) } },
      errors: ['IP_NOT_ALLOWED'],
      handler: async ({ organization, query }) => {
        const page = await s.apiKeys.list(organization.organizationId, query.limit, query.cursor);
        return { body: { data: page.data.map(serializeApiKey), nextCursor: page.nextCursor } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/organizations/{id}/api-keys/{keyId}',
      operationId: 'revokeApiKey',
      summary: 'Revoke an API key (it stops working at once)',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'integrations:manage',
      params: z.object({ id: z.uuid(), keyId: z.uuid() }),
      responses: { 204: { description: 'revoked' } },
      errors: ['IP_NOT_ALLOWED'],
      handler: async ({ organization, params, actor }) => {
        await s.apiKeys.revoke(organization, actor, params.keyId);
        return { status: 204 };
      },
    }),
  ];
}
