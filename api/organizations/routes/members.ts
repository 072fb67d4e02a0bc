import { z } from 'zod';
import { AppError } from '../../../lib/errors';
import { can } from '../../../lib/permissions';
import { pageQuerySchema, pageSchema } from '../../../lib/pagination';
import { defineRoute, type RouteDef } from '../../http/route';
import type { OrganizationsServices } from '../../../domain/organizations/services';
import { memberSchema, roleSchema } from '../../../domain/organizations/schemas';
import { serializeMember } from '../../../domain/organizations/serializers';

const tags = ['members'];
const memberParams = z.object({ id: z.uuid(), userID: z.uuid() });

export function memberRoutes(s: OrganizationsServices): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/organizations/{id}/members',
      operationId: 'listMembers',
      summary: 'List members (newest first)',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'members:read',
      params: z.object({ id: z.uuid() }),
      query: pageQuerySchema,
      responses: { 200: { description: 'a page of members', schema: pageSchema(memberSchema) } },
      errors: ['IP_NOT_ALLOWED'],
      handler: async ({ organization, query }) => {
        const page = await s.members.list(organization.organizationId, query.limit, query.cursor);
        const showTwoFactor = can(organization.role, 'members:manage');
        return { body: { data: page.data.map((row) => serializeMember(row, showTwoFactor)), nextCursor: page.nextCursor } };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/organizations/{id}/members/{userID}',
      operationId: 'changeMemberRole',
      summary: "Change a member's role",
      description:
        'Only an owner grants the owner role or changes an owner; the last owner cannot be demoted (LAST_OWNER). ' +
        'The change applies at once to tokens already issued.',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'members:manage',
      params: memberParams,
      body: z.strictObject({ role: roleSchema }),
      responses: { 200: { description: 'the member with the new role', schema: memberSchema } },
      errors: ['LAST_OWNER', 'IP_NOT_ALLOWED'],
      handler: async ({ organization, params, body, actor }) => ({
        body: serializeMember(await s.members.changeRole(organization, actor, params.userID, body.role)),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/organizations/{id}/members/{userID}',
      operationId: 'removeMember',
      summary: 'Remove a member, or leave (your own user id)',
      description:
        'Removing others needs `members:manage`; anyone may leave. Only an owner removes an owner; the last owner ' +
        'cannot leave or be removed (LAST_OWNER). The member loses access at once.',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'members:read',
      params: memberParams,
      responses: { 204: { description: 'removed' } },
      errors: ['LAST_OWNER', 'IP_NOT_ALLOWED'],
      handler: async ({ organization, params, principal, actor }) => {
        await s.members.remove(organization, actor, principal.kind === 'user' ? principal.userId : null, params.userID);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/organizations/{id}/transfer-ownership',
      operationId: 'transferOwnership',
      summary: 'Make another member the owner; the caller becomes admin',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'organization:transfer',
      params: z.object({ id: z.uuid() }),
      body: z.strictObject({ userID: z.uuid().describe('an existing member') }),
      responses: { 204: { description: 'transferred' } },
      errors: ['CONFLICT', 'IP_NOT_ALLOWED'],
      handler: async ({ organization, body, principal, actor }) => {
        if (principal.kind !== 'user') throw new AppError('FORBIDDEN', 'ownership is transferred by an owner, not by an API key');
        await s.members.transferOwnership(organization, actor, principal.userId, body.userID);
        return { status: 204 };
      },
    }),
  ];
}
