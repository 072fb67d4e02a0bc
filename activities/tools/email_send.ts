import { z } from 'zod';
import { safeHeaderValue, senderAddress } from '../../lib/mailer';
import { releaseEmailReservation, reserveEmailRecipients } from './support/emailBudget';
import { organizationLabel, senderDisplayName, withHtmlFooter, withTextFooter } from './support/emailSender';
import { retryable } from './support/net';
import { defineTool, NonRetryableToolError } from './types';
import { readOrganizationNames } from '../../domain/organizations/settingsReader';

export const EMAIL_MAX_RECIPIENTS = 50;
export const EMAIL_SUBJECT_MAX = 200;

/** An address as ajv-formats' `email` format checks it (zod's own e-mail pattern would be stricter than before). */
const address = () => z.string().max(255).meta({ format: 'email' });

/**
 * Sends an e-mail through the platform mailer (SMTP) on behalf of the run's organization. At least once: a retry
 * after a lost answer may resend.
 *
 * Abuse limits (docs/workflows.md#e-mail): From is the platform address with `<organization> via Loom` as display
 * name (support/emailSender.ts), headers `X-Loom-Organization` / `X-Loom-Run` / `X-Loom-Node` identify the sender
 * for abuse reports, the text ends with a footer naming the organization, HTML only where the operator allows it
 * (TOOLS_EMAIL_ALLOW_HTML), and each organization has a budget of recipients per rolling day
 * (TOOLS_EMAIL_DAILY_RECIPIENTS, support/emailBudget.ts).
 */
export default defineTool({
  id: 'email_send',
  name: 'E-mail',
  category: 'notification',
  description:
    `Sends a plain-text e-mail to one or more recipients (max ${EMAIL_MAX_RECIPIENTS}) through the platform mailer, ` +
    'from "<organization> via Loom", with a footer naming the organization. `html` only where the operator enabled ' +
    'HTML mail; `reply_to` sets Reply-To. Each organization may reach a limited number of recipients per day.',
  input: z.strictObject({
    to: z.union([address(), z.array(address()).min(1).max(EMAIL_MAX_RECIPIENTS)]),
    subject: z.string().min(1).max(EMAIL_SUBJECT_MAX),
    text: z.string().max(1_000_000),
    html: z.string().max(2_000_000).optional(),
    reply_to: address().optional(),
  }),
  output: z.object({ sent: z.boolean(), recipients: z.array(z.string()) }),
  sideEffect: 'at_least_once',
  async execute(input, ctx) {
    const { config, db, mailer, logger } = ctx.deps;
    if (input.html !== undefined && !config.tools.email.allowHtml) {
      throw new NonRetryableToolError(
        'EMAIL_HTML_DISABLED',
        'HTML e-mail is switched off on this platform (TOOLS_EMAIL_ALLOW_HTML); send `text` only',
      );
    }
    const recipients = uniqueAddresses(Array.isArray(input.to) ? input.to : [input.to]);
    const names = await readOrganizationNames(db, ctx.organizationId);
    const organization = names ? { id: ctx.organizationId, name: names.name } : undefined;
    if (!organization) throw new NonRetryableToolError('ORGANIZATION_NOT_FOUND', 'the organization of this run no longer exists');
    const label = organizationLabel(organization);

    const reservation = await reserveEmailRecipients(db, {
      organizationId: ctx.organizationId,
      runId: ctx.runId,
      nodeId: ctx.nodeId,
      recipients: recipients.length,
      limit: config.tools.email.dailyRecipients,
    });
    try {
      // Header injection: addresses are schema-checked e-mails passed as objects (never parsed as lists), the
      // display names are sanitised, the subject loses control characters and our own headers are visible ASCII.
      await mailer.send({
        from: { name: senderDisplayName(label), address: senderAddress(config.mail.from) },
        ...(input.reply_to ? { replyTo: { name: '', address: input.reply_to } } : {}),
        to: recipients.map((address) => ({ name: '', address })),
        subject: input.subject.replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ').trim(),
        text: withTextFooter(input.text, label),
        ...(input.html !== undefined ? { html: withHtmlFooter(input.html, label) } : {}),
        headers: {
          'X-Loom-Organization': safeHeaderValue(ctx.organizationId),
          'X-Loom-Run': safeHeaderValue(ctx.runId),
          'X-Loom-Node': safeHeaderValue(ctx.nodeId),
          'Auto-Submitted': 'auto-generated',
        },
      });
    } catch (err) {
      await releaseEmailReservation(db, reservation);
      // The SMTP error names the relay's address: it goes to the worker log, not into the run.
      logger.warn({ err, organizationId: ctx.organizationId, runId: ctx.runId }, 'email_send: the mailer refused the message');
      throw retryable('EMAIL_SEND_FAILED', 'the platform mailer did not accept the message');
    }
    return { sent: true, recipients };
  },
});

/** Each address once (compared case-insensitively), so a repeated address neither counts nor arrives twice. */
function uniqueAddresses(addresses: string[]): string[] {
  const seen = new Set<string>();
  return addresses.filter((a) => {
    const key = a.trim().toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
