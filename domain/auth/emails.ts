import { accountLink, type LinkBase } from '../../lib/emails/links';

/**
 * Texts of the e-mails the auth domain sends. Each carries a link to open (the API's own page, or the client app's
 * when SERVICE_APP_URL is set: lib/emails/links.ts) and the bare code for a client that asks for it. Tokens appear
 * only here, in the body; they are never logged.
 */

export interface EmailText {
  subject: string;
  text: string;
}

export interface EmailTokenInput extends LinkBase {
  token: string;
  ttlMs: number;
}

function minutes(ms: number): number {
  return Math.round(ms / 60_000);
}

export function passwordResetEmail(input: EmailTokenInput): EmailText {
  return {
    subject: 'Reset your Loom password',
    text: [
      'Someone (hopefully you) asked to reset the password of your Loom account.',
      '',
      `To choose a new password, open this link within ${minutes(input.ttlMs)} minutes (it works once):`,
      '',
      accountLink(input, 'resetPassword', input.token),
      '',
      'Setting a new password signs out all your sessions.',
      'If you did not ask for this, ignore this e-mail; your password stays as it is.',
      '',
      'If your Loom app asks for a code instead:',
      `Reset code: ${input.token}`,
    ].join('\n'),
  };
}

export function emailVerificationEmail(input: EmailTokenInput): EmailText {
  return {
    subject: 'Confirm your e-mail address for Loom',
    text: [
      'Please confirm that this e-mail address belongs to your Loom account.',
      '',
      `To confirm it, open this link within ${minutes(input.ttlMs)} minutes (it works once):`,
      '',
      accountLink(input, 'verifyEmail', input.token),
      '',
      'If you did not create a Loom account, ignore this e-mail.',
      '',
      'If your Loom app asks for a code instead:',
      `Verification code: ${input.token}`,
    ].join('\n'),
  };
}
