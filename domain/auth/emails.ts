/** Texts of the e-mails the auth domain sends. Tokens appear once, in the body; they are never logged. */

export interface EmailText {
  subject: string;
  text: string;
}

function minutes(ms: number): number {
  return Math.round(ms / 60_000);
}

export function passwordResetEmail(input: { token: string; ttlMs: number; publicUrl: string }): EmailText {
  return {
    subject: 'Reset your Loom password',
    text: [
      'Someone (hopefully you) asked to reset the password of your Loom account.',
      '',
      `Reset code: ${input.token}`,
      '',
      `Use it within ${minutes(input.ttlMs)} minutes, once: POST ${input.publicUrl}/api/auth/password-reset/confirm`,
      'with { "token": "<the code>", "password": "<your new password>" }. All your sessions will be signed out.',
      '',
      'If you did not ask for this, ignore this e-mail; your password stays as it is.',
    ].join('\n'),
  };
}

export function emailVerificationEmail(input: { token: string; ttlMs: number; publicUrl: string }): EmailText {
  return {
    subject: 'Confirm your e-mail address for Loom',
    text: [
      'Please confirm that this e-mail address belongs to your Loom account.',
      '',
      `Verification code: ${input.token}`,
      '',
      `Use it within ${minutes(input.ttlMs)} minutes, once: POST ${input.publicUrl}/api/auth/email-verification/confirm`,
      'with { "token": "<the code>" }.',
      '',
      'If you did not create a Loom account, ignore this e-mail.',
    ].join('\n'),
  };
}
