import type { Knex } from 'knex';
import { lockOrganizationSettings, updateOrganization } from './queries';
import { disableWebhook, type StoredWebhook } from './settingsModel';

/**
 * Turns an organization's webhook endpoint off inside the caller's transaction (the delivery activities' automatic
 * disabling after a run of failures, activities/webhooks/index.ts). The settings row is locked first, so a settings
 * update racing this one is applied before or after it, never half-way. Returns the endpoint, now off, or null
 * when it is gone or already off (nothing written).
 */
export async function disableWebhookEndpoint(trx: Knex.Transaction, organizationId: string, endpointId: string): Promise<StoredWebhook | null> {
  const org = await lockOrganizationSettings(trx, organizationId);
  const change = disableWebhook(org?.settings, endpointId);
  if (!change) return null;
  await updateOrganization(trx, organizationId, { settings: change.settings });
  return change.webhook;
}
