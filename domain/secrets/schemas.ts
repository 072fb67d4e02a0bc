import { z } from 'zod';
import { SECRET_NAME, SECRET_NAME_RULE } from '../../lib/dag/secretReferences';

/** Largest value accepted: room for a PEM private key or a service account JSON. */
export const MAX_SECRET_VALUE_LENGTH = 16_384;
/** Secrets one organization may hold. */
export const MAX_SECRETS_PER_ORGANIZATION = 500;

export const secretNameParams = z.object({
  name: z.string().regex(SECRET_NAME, SECRET_NAME_RULE).describe(`the secret's name: ${SECRET_NAME_RULE}`),
});

export const putSecretBody = z.strictObject({
  value: z
    .string()
    .min(1)
    .max(MAX_SECRET_VALUE_LENGTH)
    .describe('the secret value; stored encrypted and never returned by any route'),
});

export const secretSchema = z.object({
  name: z.string(),
  last4: z.string().nullable().describe('last 4 characters of values of 12 characters or more, else null'),
  createdBy: z.string().nullable(),
  updatedBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
