import type { Config } from '../../lib/config';
import type { StorageQuota } from '../../lib/content/quota';
import { readOrganizationPlan } from '../organizations/settingsReader';
import { storageUsed, type Queryable } from './queries';

/** The plan's storage quota in bytes (`CONTENT_QUOTA_<PLAN>_BYTES`, else the plan's storage GB), null when unlimited. */
export function storageLimitOf(config: Config, plan: string | undefined): number | null {
  return config.content.quotaBytes[(plan ?? 'free') as 'free' | 'pro' | 'enterprise'] ?? null;
}

/**
 * The one storage figure: what the upload checks and what GET /organizations/{id}/usage reports. Used = the sum of
 * the sizes of every stored version of every content of the organization.
 */
export async function storageQuota(db: Queryable, config: Config, organizationId: string): Promise<StorageQuota> {
  const [plan, usedBytes] = await Promise.all([readOrganizationPlan(db, organizationId), storageUsed(db, organizationId)]);
  return { usedBytes, limitBytes: storageLimitOf(config, plan ?? undefined) };
}
