import { z } from 'zod';
import { isUuid } from '../../lib/ids';
import { ROLES } from '../../lib/permissions';

/** Response shapes (they are the OpenAPI document) and shared request pieces. */
export const roleSchema = z.enum(ROLES);
/** POST .../invitations, and each member an import invites (importArchive.ts). */
export const inviteBody = z.strictObject({ email: z.email().max(255), role: roleSchema.optional().default('member') });
export const planSchema = z.enum(['free', 'pro', 'enterprise']);
export const orgIdParams = z.object({ id: z.uuid() });
export const slugSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/, 'lower-case letters, digits and inner hyphens')
  // Webhook URLs take an organization's id or slug in one place: a slug spelt like an id could pose as another
  // organization (the ingress reads an id-shaped value as an id only, domain/triggers/queries.ts).
  .refine((slug) => !isUuid(slug), 'not in the form of an organization id (a UUID)');

export const organizationSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  plan: planSchema,
  status: z.enum(['active', 'deleting']),
  role: roleSchema.optional().describe("the caller's role (absent for API keys' view)"),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const memberSchema = z.object({
  userID: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  role: roleSchema,
  joinedAt: z.string(),
  twoFactorEnabled: z
    .boolean()
    .optional()
    .describe('Whether the member has two-factor sign-in on; shown to roles that manage members (owner, admin)'),
});

export const invitationSchema = z.object({
  id: z.uuid(),
  organizationID: z.uuid(),
  email: z.string(),
  role: roleSchema,
  status: z.enum(['pending', 'accepted', 'revoked']),
  expiresAt: z.string(),
  createdAt: z.string(),
});

export const apiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  role: roleSchema,
  prefix: z.string().describe('the first characters of the key, to tell keys apart'),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable().describe('updated at most once a minute'),
  createdAt: z.string(),
});

const quota = z.object({ used: z.number(), limit: z.number().nullable().describe('null = unlimited') });
export const usageSchema = z.object({
  organizationID: z.uuid(),
  plan: planSchema,
  period: z.string().describe('calendar month (UTC), YYYY-MM'),
  members: quota.extend({ pendingInvitations: z.number() }).describe('members plus pending invitations count toward the limit'),
  storage: quota.describe('bytes of every stored content version (what the storage quota counts; derived files are not counted), and the plan quota (null = unlimited)'),
  apiCalls: quota.describe('org-scoped API requests this month'),
});

export const deletionStatusSchema = z.object({
  organizationID: z.uuid(),
  workflowId: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  step: z.string().describe('the step in progress or the last one done'),
  stepsDone: z.array(z.string()),
  exportUrl: z.string().nullable().describe('time-limited download link of the data export, when one was asked for'),
});
