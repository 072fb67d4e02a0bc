import { z } from 'zod';
import { authResult, tokenPair, userSummary } from './schemas';

/** Inputs and answers of two-factor sign-in (docs/auth.md#two-factor-sign-in). */

const codeField = z
  .string()
  .trim()
  .min(6, 'a 6-digit code or a recovery code')
  .max(32, 'a 6-digit code or a recovery code')
  .describe('The 6-digit code the authenticator app shows, or one of the recovery codes (`abcde-fghjk`)');

export const enrolmentConfirmBody = z.strictObject({
  code: z.string().trim().regex(/^\d{6}$/, 'the 6-digit code the authenticator app shows'),
});

export const disableBody = z.strictObject({
  password: z.string().min(1).max(1024).optional().describe('The current password; required when the account has one'),
  code: codeField,
});

export const recoveryCodesBody = z.strictObject({ code: codeField });

export const challengeBody = z.strictObject({
  challengeToken: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .describe('From the answer of POST /api/auth/login; absent after an SSO sign-in of the console, whose challenge is in its cookie'),
  code: codeField,
});

export const signInChallenge = z.object({
  twoFactorRequired: z.literal(true),
  challengeToken: z.string().describe('Send with a code to POST /api/auth/login/2fa; single use'),
  expiresIn: z.number().int().describe('Seconds the challenge stays valid (five wrong codes end it sooner)'),
  methods: z.array(z.enum(['totp', 'recovery_code'])),
});

/** Tokens in browser mode (docs/auth.md#browser-clients-refresh-cookie): the refresh token is in an HttpOnly cookie. */
export const cookieTokens = z.object({
  accessToken: z.string(),
  expiresIn: z.number().int(),
  csrfToken: z.string().describe('Send as X-CSRF-Token on POST /api/auth/refresh (also in the readable cookie loom_csrf)'),
  refreshTokenTransport: z.literal('cookie'),
});

export const refreshResult = z.union([tokenPair, cookieTokens]);

/** POST /api/auth/switch-organization: the new pair (browser mode: the access token, the refresh token in its cookie). */
export const switchOrganizationResult = z.union([
  tokenPair.extend({ organizationID: z.uuid() }),
  cookieTokens.extend({ organizationID: z.uuid() }).describe('Browser mode (X-Refresh-Token-Transport: cookie)'),
]);

export const loginResult = z.union([
  authResult,
  z.object({ user: userSummary, tokens: cookieTokens }).describe('Browser mode (X-Refresh-Token-Transport: cookie)'),
  z.object({ user: userSummary, challenge: signInChallenge }).describe('Two-factor sign-in is on: no tokens yet'),
]);

export const twoFactorStatus = z.object({
  enabled: z.boolean(),
  enrolmentPending: z.boolean().describe('An enrolment was started and waits for its first code'),
  enabledAt: z.iso.datetime().nullable(),
  recoveryCodesRemaining: z.number().int(),
});

export const enrolment = z.object({
  secret: z.string().describe('Base32 secret, for typing into an authenticator app by hand'),
  otpauthUri: z.string().describe('otpauth://totp/... URI (RFC 6238 key URI format)'),
  qrCodeSvg: z.string().describe('The URI as a QR code: an SVG data URL, ready for an <img src>'),
  algorithm: z.literal('SHA1'),
  digits: z.number().int(),
  period: z.number().int(),
});

export const enrolmentConfirmed = z.object({
  recoveryCodes: z.array(z.string()).describe('Ten single-use recovery codes, shown this once'),
  tokens: tokenPair.describe("A fresh pair for this device: enabling ends all of the user's sessions"),
});

export const recoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });
