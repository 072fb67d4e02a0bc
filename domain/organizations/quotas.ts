import type { Knex } from 'knex';
import type { Config } from '../../lib/config';
import { AppError } from '../../lib/errors';

/**
 * Plan quotas for other domains. The content domain calls `assertStorageQuota` before accepting an upload, with
 * the bytes it already stores for the organization (it knows them from its own records) and the size of the new
 * object: over the plan's storage limit → 429 QUOTA_EXCEEDED.
 */
export async function storageLimitBytes(db: Knex, config: Config, organizationId: string): Promise<number | null> {
  const org = await db('organizations').where({ id: organizationId }).first('plan');
  if (!org) return 0;
  return config.organizations.plans[org.plan as 'free' | 'pro' | 'enterprise']?.storageBytes ?? null;
}

export async function assertStorageQuota(
  db: Knex,
  config: Config,
  organizationId: string,
  usedBytes: number,
  incomingBytes: number,
): Promise<void> {
  const limit = await storageLimitBytes(db, config, organizationId);
  if (limit !== null && usedBytes + incomingBytes > limit) {
    throw new AppError(
      'QUOTA_EXCEEDED',
      `the organization's storage quota (${limit} bytes) would be exceeded; delete content or upgrade the plan`,
    );
  }
}
