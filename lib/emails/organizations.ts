import type { MailMessage } from '../mailer';
import { tenantName } from './tenantText';

/** The organization notifications. Plain text first (the catcher and most clients show it); no secrets inside. */

/**
 * The subject is fixed and the tenant's names appear only in the body, quoted, filtered (lib/emails/tenantText.ts)
 * and marked as chosen by the inviter: the platform's address must not carry a tenant's words as its own
 * ("Loom Security Team: your account is locked"), nor a tenant's link.
 */
export const INVITATION_SUBJECT = 'You have been invited to an organization on Loom';

export function invitationEmail(input: {
  to: string;
  organizationName: string;
  role: string;
  inviterName: string | null;
  acceptUrl: string;
  token: string;
  expiresAt: Date;
}): MailMessage {
  const inviter = input.inviterName ? `Invited by: "${tenantName(input.inviterName)}"\n` : '';
  return {
    to: input.to,
    subject: INVITATION_SUBJECT,
    text:
      `A member of an organization on Loom invited you to join it as ${input.role}.\n\n` +
      `Organization: "${tenantName(input.organizationName)}"\n` +
      inviter +
      `(The names in quotes were chosen by the inviter; Loom does not check them, and they are not a message from Loom.)\n\n` +
      `To accept, open this link. It asks you to sign in as ${input.to}, or to create your account with that ` +
      `address if you have none yet:\n\n` +
      `${input.acceptUrl}\n\n` +
      `If your Loom app asks for the invitation token instead (POST /api/v1/invitations/accept, signed in as ${input.to}):\n` +
      `${input.token}\n\n` +
      `The invitation expires at ${input.expiresAt.toISOString()}. Loom never asks for your password or payment ` +
      `details in an invitation. If you did not expect it, ignore this e-mail.\n`,
  };
}

// The other mails go to the organization's owners, but its name is any admin's choice: filtered and quoted too.

export function welcomeEmail(input: { to: string; organizationName: string; plan: string }): MailMessage {
  return {
    to: input.to,
    subject: `Welcome to Loom: "${tenantName(input.organizationName)}" is ready`,
    text:
      `Your organization "${tenantName(input.organizationName)}" has been created on the ${input.plan} plan.\n\n` +
      `Invite your team, create API keys in the integration settings and build your first workflow.\n`,
  };
}

export function deletionConfirmationEmail(input: {
  to: string;
  organizationName: string;
  exportUrl: string | null;
  exportExpiresAt?: string | null;
  exportSha256?: string | null;
  exportBytes?: number | null;
}): MailMessage {
  const archive = input.exportUrl
    ? `\nYour data export, one .tar.gz archive (content with every version's bytes, workflows, run summaries, ` +
      `members, settings with secrets masked, audit log; manifest.json lists each file with its SHA-256):\n` +
      `${input.exportUrl}\n` +
      (input.exportExpiresAt ? `The link works until ${input.exportExpiresAt}; the archive is deleted after that.\n` : 'The link is valid for a limited time.\n') +
      (input.exportSha256 ? `Archive SHA-256: ${input.exportSha256}${typeof input.exportBytes === 'number' ? ` (${input.exportBytes} bytes)` : ''}\n` : '')
    : '';
  return {
    to: input.to,
    subject: `"${tenantName(input.organizationName)}" has been deleted`,
    text:
      `The organization "${tenantName(input.organizationName)}" and all its data have been deleted, its subscriptions cancelled ` +
      `and its members removed.\n` +
      archive,
  };
}

export function deletionAbortedEmail(input: { to: string; organizationName: string; reason: string }): MailMessage {
  return {
    to: input.to,
    subject: `"${tenantName(input.organizationName)}" was not deleted`,
    text:
      `The deletion of "${tenantName(input.organizationName)}" was stopped before anything was deleted: its data export could not ` +
      `be written (${input.reason}). The organization is active again. Ask for the deletion again to retry.\n`,
  };
}

export function paymentFailedEmail(input: { to: string; organizationName: string; reason: string }): MailMessage {
  return {
    to: input.to,
    subject: `Payment failed for "${tenantName(input.organizationName)}"`,
    text: `A payment for "${tenantName(input.organizationName)}" failed: ${input.reason}\nPlease update the billing details.\n`,
  };
}
