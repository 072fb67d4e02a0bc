import type { Db } from '../../db/knex';
import { AppError, notFound } from '../../lib/errors';
import type { Role } from '../../lib/permissions';
import { hashToken } from './apiKeyFormat';
import { getInvitationByTokenHash, getOrganization, getUser } from './queries';

/** What the holder of an invitation token may see before signing in: what the invitation e-mail already told them. */
export interface InvitationPreview {
  organizationName: string;
  email: string;
  role: Role;
  inviterName: string | null;
  expiresAt: Date;
}

/**
 * The invitation a token stands for, for the accept page (api/account-pages/): it tells the person which address to
 * sign in with before anything is changed. Reads only. The same answers as accepting: an unknown token (or one
 * replaced by a resend) 404, an expired, revoked or used one 410 INVITATION_EXPIRED.
 */
export async function previewInvitation(db: Db, token: string): Promise<InvitationPreview> {
  const inv = await getInvitationByTokenHash(db, hashToken(token));
  if (!inv) throw notFound('invitation');
  const organization = await getOrganization(db, inv.organization_id);
  if (!organization) throw notFound('invitation');
  if (inv.status !== 'pending' || inv.expires_at.getTime() <= Date.now()) {
    throw new AppError('INVITATION_EXPIRED', 'this invitation has expired, was revoked or was already used; ask for a new one');
  }
  const inviter = inv.invited_by ? await getUser(db, inv.invited_by) : undefined;
  return {
    organizationName: organization.name,
    email: inv.email,
    role: inv.role,
    inviterName: inviter?.name ?? inviter?.email ?? null,
    expiresAt: inv.expires_at,
  };
}

/** The address of a pending, unexpired invitation, for its token; null otherwise (registration: auth/service.ts). */
export async function pendingInvitationAddress(db: Db, token: string): Promise<string | null> {
  const inv = await getInvitationByTokenHash(db, hashToken(token));
  if (!inv || inv.status !== 'pending' || inv.expires_at.getTime() <= Date.now()) return null;
  return inv.email;
}
