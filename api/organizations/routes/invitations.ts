import { z } from 'zod';
import { pageQuerySchema, pageSchema } from '../../../lib/pagination';
import { defineRoute, type RouteDef } from '../../http/route';
import type { Principal } from '../../../domain/principals';
import type { OrganizationsServices } from '../../../domain/organizations/services';
import { invitationSchema, inviteBody, organizationSchema } from '../../../domain/organizations/schemas';
import { serializeInvitation, serializeOrganization } from '../../../domain/organizations/serializers';

const tags = ['invitations'];
const invitationParams = z.object({ id: z.uuid(), invitationId: z.uuid() });
const userIdOf = (p: Principal): string | null => (p.kind === 'user' ? p.userId : null);

export function invitationRoutes(s: OrganizationsServices): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/organizations/{id}/invitations',
      operationId: 'inviteMember',
      summary: 'Invite someone by e-mail',
      description:
        'Sends an e-mail with a token valid 7 days (SERVICE_INVITATION_TTL). Pending invitations count toward the ' +
        "plan's members quota (QUOTA_EXCEEDED). Only an owner invites an owner.",
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'members:manage',
      params: z.object({ id: z.uuid() }),
      body: inviteBody,
      responses: { 201: { description: 'invited', schema: invitationSchema } },
      errors: ['CONFLICT', 'QUOTA_EXCEEDED', 'IP_NOT_ALLOWED'],
      handler: async ({ organization, body, principal, actor }) => ({
        status: 201,
        body: serializeInvitation(await s.invitations.create(organization, actor, userIdOf(principal), body)),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/organizations/{id}/invitations',
      operationId: 'listInvitations',
      summary: 'List pending invitations',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'members:manage',
      params: z.object({ id: z.uuid() }),
      query: pageQuerySchema,
      responses: { 200: { description: 'a page of pending invitations', schema: pageSchema(invitationSchema) } },
      errors: ['IP_NOT_ALLOWED'],
      handler: async ({ organization, query }) => {
        const page = await s.invitations.listPending(organization.organizationId, query.limit, query.cursor);
        return { body: { data: page.data.map(serializeInvitation), nextCursor: page.nextCursor } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/organizations/{id}/invitations/{invitationId}',
      operationId: 'revokeInvitation',
      summary: 'Revoke a pending invitation',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'members:manage',
      params: invitationParams,
      responses: { 204: { description: 'revoked' } },
      errors: ['IP_NOT_ALLOWED'],
      handler: async ({ organization, params, actor }) => {
        await s.invitations.revoke(organization, actor, params.invitationId);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/organizations/{id}/invitations/{invitationId}/resend',
      operationId: 'resendInvitation',
      summary: 'Send the invitation again with a new token and expiry (the old token stops working)',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'members:manage',
      params: invitationParams,
      responses: { 200: { description: 'resent', schema: invitationSchema } },
      errors: ['IP_NOT_ALLOWED'],
      handler: async ({ organization, params, principal, actor }) => ({
        body: serializeInvitation(await s.invitations.resend(organization, actor, userIdOf(principal), params.invitationId)),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/invitations/accept',
      operationId: 'acceptInvitation',
      summary: 'Accept an invitation with the token from the e-mail',
      description: "The signed-in user's e-mail must be the invited address. The organization is not made active; switch to it.",
      tags,
      auth: 'user',
      body: z.strictObject({ token: z.string().min(20).max(200) }),
      responses: {
        200: {
          description: 'joined',
          schema: z.object({ organization: organizationSchema }),
        },
      },
      errors: ['INVITATION_EXPIRED', 'CONFLICT', 'ORGANIZATION_LIMIT', 'FORBIDDEN', 'NOT_FOUND'],
      handler: async ({ body, principal, actor }) => {
        const { organization, role } = await s.invitations.accept(principal, actor, body.token);
        return { body: { organization: serializeOrganization(organization, role) } };
      },
    }),
  ];
}
