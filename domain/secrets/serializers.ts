import type { z } from 'zod';
import type { SecretRow } from './queries';
import type { secretSchema } from './schemas';

/** A secret as routes show it: its name and metadata, never its value. */
export function serializeSecret(row: SecretRow): z.infer<typeof secretSchema> {
  return {
    name: row.name,
    last4: row.last4 || null,
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
