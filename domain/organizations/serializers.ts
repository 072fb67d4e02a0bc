import type { z } from 'zod';
import type { Role } from '../../lib/permissions';
import type { ApiKeyRow, InvitationRow, MemberRow, OrganizationRow } from './queries';
import type { apiKeySchema, invitationSchema, memberSchema, organizationSchema } from './schemas';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

export function serializeOrganization(row: OrganizationRow, role?: Role | null): z.infer<typeof organizationSchema> {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    plan: row.plan,
    status: row.status,
    ...(role ? { role } : {}),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** `showTwoFactor`: the caller manages members, so sees who has two-factor sign-in on. */
export function serializeMember(row: MemberRow, showTwoFactor = false): z.infer<typeof memberSchema> {
  return {
    userID: row.user_id,
    email: row.email,
    name: row.name,
    role: row.role,
    joinedAt: row.created_at.toISOString(),
    ...(showTwoFactor ? { twoFactorEnabled: Boolean(row.two_factor_enabled) } : {}),
  };
}

export function serializeInvitation(row: InvitationRow): z.infer<typeof invitationSchema> {
  return {
    id: row.id,
    organizationID: row.organization_id,
    email: row.email,
    role: row.role,
    status: row.status,
    expiresAt: row.expires_at.toISOString(),
    createdAt: row.created_at.toISOString(),
  };
}

export function serializeApiKey(row: ApiKeyRow): z.infer<typeof apiKeySchema> {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    prefix: row.prefix,
    expiresAt: iso(row.expires_at),
    lastUsedAt: iso(row.last_used_at),
    createdAt: row.created_at.toISOString(),
  };
}
