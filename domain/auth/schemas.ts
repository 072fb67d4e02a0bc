import { z } from 'zod';

/** Request and response shapes of /api/auth. Request bodies are strict: unknown fields are refused. */

export const emailField = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: 'not a valid e-mail address' }).max(255, 'at most 255 characters'))
  .meta({
    format: 'email',
    maxLength: 255,
    description: 'E-mail address; trimmed, compared case-insensitively, at most 255 characters',
  });

// Long enough for any policy-valid password; the policy itself refuses more than 72 bytes with its own message.
const passwordField = z.string().min(1, 'required').max(1024, 'at most 1024 characters');

const nameField = z.string().trim().max(255, 'at most 255 characters');

const opaqueToken = z.string().min(1).max(512);

export const registerBody = z.strictObject({
  email: emailField,
  password: passwordField.describe('Checked against the password policy (see WEAK_PASSWORD details)'),
  name: nameField.optional(),
  invitationToken: opaqueToken
    .optional()
    .describe(
      'The token of the invitation that brought the person here: its link proves the mailbox, so the account starts ' +
        'with a verified e-mail (no verification mail). It must be pending and sent to `email` (410 INVITATION_EXPIRED, ' +
        '422 otherwise). Registering does not accept it: POST /api/v1/invitations/accept does.',
    ),
});

export const loginBody = z.strictObject({ email: emailField, password: passwordField });

export const refreshBody = z.strictObject({
  refreshToken: z
    .string()
    .min(1)
    .max(4096)
    .optional()
    .describe('Omitted in browser mode: the refresh cookie is used, with the X-CSRF-Token header'),
});

export const profileBody = z.strictObject({
  name: nameField.nullable().optional().describe('Display name; null clears it'),
  image: z
    .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
    .max(2048)
    .nullable()
    .optional()
    .describe('Avatar URL (http or https); null clears it'),
});

export const switchOrganizationBody = z.strictObject({ organizationID: z.uuid() });

export const changePasswordBody = z.strictObject({ currentPassword: passwordField, newPassword: passwordField });

export const resetRequestBody = z.strictObject({ email: emailField });

export const resetConfirmBody = z.strictObject({ token: opaqueToken, password: passwordField });

export const verificationConfirmBody = z.strictObject({ token: opaqueToken });

export const sessionParams = z.strictObject({ id: z.uuid() });

// ------------------------------------------------------------------------------------------- responses

export const tokenPair = z.object({
  accessToken: z.string().describe('JWT (HS256), send as `Authorization: Bearer <token>`'),
  refreshToken: z.string().describe('Single use: each refresh returns a new one; reusing a spent one revokes the session'),
  expiresIn: z.number().int().describe('Access token lifetime in seconds (900 by default)'),
});

export const userSummary = z.object({ id: z.uuid(), email: z.string(), name: z.string().nullable() });

export const authResult = z.object({ user: userSummary, tokens: tokenPair });

export const userProfile = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  image: z.string().nullable(),
  email_verified: z.boolean(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

export const meResponse = z.object({
  user: userProfile,
  organizationID: z.uuid().nullable().describe("The session's active organization"),
  sessionId: z.uuid(),
});

export const sessionInfo = z.object({
  id: z.uuid(),
  current: z.boolean().describe('True for the session of the token making this request'),
  ip_address: z.string().nullable(),
  user_agent: z.string().nullable(),
  active_organization_id: z.uuid().nullable(),
  created_at: z.iso.datetime(),
  last_used_at: z.iso.datetime(),
  expires_at: z.iso.datetime(),
});

export const sessionList = z.object({ data: z.array(sessionInfo) });

export const accepted = z.object({ message: z.string() });
