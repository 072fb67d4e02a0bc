import type { LinkBase } from './links';
import { tenantName } from './tenantText';

/** The page where a person decides on an approval (api/account-pages/, or the client app's page at the same path). */
export const APPROVAL_PAGE_PATH = '/approvals/decide';

/** The link carries no secret: the page asks the person to sign in, and the API checks who they are. */
export function approvalLink(base: LinkBase, organizationId: string, approvalId: string): string {
  const root = (base.appUrl || base.publicUrl).replace(/\/+$/, '');
  return `${root}${APPROVAL_PAGE_PATH}?organization=${encodeURIComponent(organizationId)}&approval=${encodeURIComponent(approvalId)}`;
}

export const APPROVAL_SUBJECT = 'A workflow run is waiting for your approval on Loom';

/**
 * The mail an approver gets. The subject is fixed; the workflow's name and message are the workflow authors' words:
 * filtered (no links, one line each, cut) and quoted as theirs, so the platform's address does not carry a tenant's
 * text as its own.
 */
export function approvalRequestEmail(input: {
  to: string;
  workflowName: string;
  nodeId: string;
  message: string | null;
  link: string;
  expiresAt: Date;
  required: number;
}): { to: string; subject: string; text: string } {
  const message = input.message ? `Message: "${tenantName(input.message, 500)}"\n` : '';
  const many = input.required > 1 ? ` It needs ${input.required} approvals.` : '';
  return {
    to: input.to,
    subject: APPROVAL_SUBJECT,
    text:
      `A run of a workflow in your organization on Loom waits for a decision at its step "${tenantName(input.nodeId)}".${many}\n\n` +
      `Workflow: "${tenantName(input.workflowName)}"\n` +
      message +
      `(The texts in quotes were written by your organization's workflow authors, not by Loom.)\n\n` +
      `To approve or reject, open this link and sign in:\n\n${input.link}\n\n` +
      `The request expires at ${input.expiresAt.toISOString()}. Loom never asks for your password in an e-mail; ` +
      `the link opens a page of your Loom service where you sign in as usual.\n`,
  };
}
