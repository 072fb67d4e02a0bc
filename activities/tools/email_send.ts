import { defineTool } from './types';

interface EmailInput {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
}

/** Sends an e-mail through the platform mailer (SMTP). At least once: a retry after a lost answer may resend. */
export default defineTool<EmailInput, { sent: boolean; recipients: string[] }>({
  id: 'email_send',
  name: 'E-mail',
  category: 'notification',
  description: 'Sends an e-mail (plain text, optional HTML) to one or more recipients (max 50) through the platform mailer.',
  inputSchema: {
    type: 'object',
    required: ['to', 'subject', 'text'],
    additionalProperties: false,
    properties: {
      to: {
        anyOf: [
          { type: 'string', format: 'email', maxLength: 255 },
          { type: 'array', minItems: 1, maxItems: 50, items: { type: 'string', format: 'email', maxLength: 255 } },
        ],
      },
      subject: { type: 'string', minLength: 1, maxLength: 998 },
      text: { type: 'string', maxLength: 1_000_000 },
      html: { type: 'string', maxLength: 2_000_000 },
    },
  },
  outputSchema: {
    type: 'object',
    required: ['sent', 'recipients'],
    properties: { sent: { type: 'boolean' }, recipients: { type: 'array', items: { type: 'string' } } },
  },
  sideEffect: 'at_least_once',
  async execute(input, ctx) {
    const recipients = Array.isArray(input.to) ? input.to : [input.to];
    // Header injection is impossible: addresses are validated as e-mails and the subject goes through nodemailer.
    await ctx.deps.mailer.send({
      to: recipients.join(', '),
      subject: input.subject.replace(/[\r\n]+/g, ' '),
      text: input.text,
      ...(input.html ? { html: input.html } : {}),
    });
    return { sent: true, recipients };
  },
});
