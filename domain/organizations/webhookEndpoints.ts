import type { Knex } from 'knex';
import type { Config } from '../../lib/config';
import { AppError } from '../../lib/errors';
import { outboundGuards } from '../../lib/net/outbound';
import { SsrfRefusedError } from '../../lib/net/ssrfGuard';
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

/**
 * Checks the destinations an update adds or changes with the outbound policy deliveries use
 * (lib/net/outbound.ts `webhooks`): a URL that could never be delivered is refused when it is saved (422 naming the
 * operator setting that would allow it, WEBHOOKS_ALLOWED_PRIVATE_HOSTS), instead of failing every delivery. A host
 * that does not resolve (yet) is accepted: DNS can change, the policy cannot. Unchanged URLs are not checked again.
 */
export async function vetWebhookDestinations(
  config: Config,
  current: readonly StoredWebhook[],
  input: readonly { id?: string; url: string }[] | undefined,
): Promise<void> {
  if (!input) return;
  const guard = outboundGuards(config).webhooks;
  const stored = new Map(current.map((w) => [w.id, w.url]));
  for (const [i, w] of input.entries()) {
    if (w.id && stored.get(w.id) === w.url) continue;
    try {
      await guard.vet(w.url);
    } catch (err) {
      if (!(err instanceof SsrfRefusedError)) continue;
      throw new AppError('UNPROCESSABLE', `webhook endpoint ${w.url} can never be delivered: ${err.message}`, [
        { path: `body.integration.webhooks.${i}.url`, problem: err.message },
      ]);
    }
  }
}
