import { z } from 'zod';
import { defineRoute, type RouteDef } from '../../http/route';
import type { OrganizationsServices } from '../../../domain/organizations/services';
import { settingsUpdateSchema } from '../../../domain/organizations/settingsModel';

const tags = ['settings'];

const settingsView = z.object({
  general: z.object({
    name: z.string(),
    slug: z.string(),
    logoUrl: z.string().nullable(),
    brandColor: z.string().nullable(),
    timezone: z.string(),
    language: z.string(),
  }),
  security: z.object({
    requireTwoFactor: z.boolean().describe('stored; enforced at sign-in once two-factor authentication ships'),
    ipAllowlist: z.array(z.string()).describe('CIDR blocks; empty = all addresses; enforced on every request to this organization'),
    sessionTimeoutMinutes: z.number().nullable().describe('idle limit of sessions acting in this organization, in minutes; null = the platform idle timeout'),
    auditLogRetentionDays: z.number(),
  }),
  integration: z
    .object({
      webhooks: z.array(z.object({ id: z.string(), url: z.string(), events: z.array(z.string()), enabled: z.boolean(), secret: z.string().describe('masked') })),
      thirdParty: z.record(z.string(), z.object({ enabled: z.boolean(), config: z.record(z.string(), z.string()), secrets: z.record(z.string(), z.string()).describe('masked') })),
      sso: z.unknown().nullable().describe('secrets masked'),
      apiKeys: z.object({ href: z.string() }).describe('read-only: where API keys are managed; accepted unchanged in an update'),
    })
    .optional()
    .describe('only for owner and admin'),
});

export function settingsRoutes(s: OrganizationsServices): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/organizations/{id}/settings',
      operationId: 'getSettings',
      summary: 'Get settings (general, security, integration); secrets are masked',
      description: 'Members see general and security; the integration group is shown to owners and admins.',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'settings:read',
      params: z.object({ id: z.uuid() }),
      responses: { 200: { description: 'settings', schema: settingsView } },
      errors: ['IP_NOT_ALLOWED'],
      handler: async ({ organization }) => ({ body: await s.settings.read(organization) }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/organizations/{id}/settings',
      operationId: 'updateSettings',
      summary: 'Update settings: any subset of groups, any subset of fields in a group',
      description:
        'Fields left out keep their value. Secrets (webhook signing secrets, third-party secrets, SSO client ' +
        'secret) are encrypted at rest and never returned. An IP allowlist that excludes the caller is refused ' +
        '(UNPROCESSABLE) so nobody locks themselves out. The document GET answers can be sent back (read-modify-write): ' +
        'a secret given as the mask a read showed keeps the stored secret (another mask is UNPROCESSABLE naming the ' +
        'field), and the read-only integration.apiKeys is ignored when unchanged (UNPROCESSABLE when changed).',
      tags,
      auth: 'org',
      organizationFrom: 'path',
      permission: 'settings:update',
      params: z.object({ id: z.uuid() }),
      body: settingsUpdateSchema,
      responses: { 200: { description: 'the settings after the update', schema: settingsView } },
      errors: ['UNPROCESSABLE', 'SLUG_TAKEN', 'IP_NOT_ALLOWED'],
      handler: async ({ organization, body, actor, ctx }) => ({ body: await s.settings.update(organization, actor, ctx.ip, body) }),
    }),
  ];
}
