import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { recordAudit } from '../../domain/audit/record';
import {
  completePendingDelivery,
  endpointDisabledBy,
  getDelivery,
  markEndpointDisabled,
  recordDeliveryAttempt,
  recordEndpointAttemptFailure,
  recordEndpointOutcome,
} from '../../domain/events/queries';
import { signingSecretsOf, type StoredWebhook } from '../../domain/organizations/settingsModel';
import { disableWebhookEndpoint } from '../../domain/organizations/webhookEndpoints';
import { signatureHeaders } from '../../lib/triggers/standardWebhooks';
import type { ActivityDeps } from '../deps';
import { guardedRequest } from '../../lib/net/httpClient';
import { outboundGuards } from '../../lib/net/outbound';
import { SsrfRefusedError } from '../../lib/net/ssrfGuard';
import { readOrganizationNames, readOrganizationSettings } from '../../domain/organizations/settingsReader';

/**
 * Outgoing webhook deliveries (workflows/triggers/events.ts#webhookDeliveryWorkflow): one attempt per activity
 * execution, signed per Standard Webhooks with the endpoint's secret (`webhook-id` = the event id, stable across
 * retries and redeliveries), every attempt appended to the delivery log; then the outcome, the endpoint's run of
 * consecutive failed deliveries, and automatic disabling after WEBHOOKS_DISABLE_AFTER_FAILURES of them.
 */

export function createWebhookActivities(deps: ActivityDeps) {
  const { db, config, box } = deps;
  // The outbound policy (lib/net/outbound.ts): public addresses only, except WEBHOOKS_ALLOWED_PRIVATE_HOSTS, never
  // the platform's own services; no redirects.
  const guard = outboundGuards(config).webhooks;

  async function endpointOf(organizationId: string, endpointId: string): Promise<StoredWebhook | null> {
    const hooks = (await readOrganizationSettings(db, organizationId))?.integration.webhooks ?? [];
    return hooks.find((w) => w.id === endpointId) ?? null;
  }

  const refuse = (message: string): ApplicationFailure => ApplicationFailure.nonRetryable(message, 'DELIVERY_REFUSED');

  return {
    async deliverWebhook(input: { deliveryId: string }): Promise<{ status: number }> {
      const delivery = await getDelivery(db, input.deliveryId);
      if (!delivery) throw refuse('delivery not found');
      if (delivery.status === 'succeeded') return { status: 200 };
      const endpoint = await endpointOf(delivery.organization_id, delivery.endpoint_id);
      if (!endpoint) throw refuse('the webhook endpoint was removed');
      if (!endpoint.enabled) throw refuse('the webhook endpoint is disabled');
      // During a rotation's overlap, two signatures (new secret first): receivers holding either one verify.
      const now = new Date();
      const headers = {
        ...signatureHeaders(signingSecretsOf(endpoint, now).map((s) => box.open(s)), delivery.event_id, delivery.body, now),
        'content-type': 'application/json',
        'user-agent': 'Loom-Webhooks/1.0',
      };
      const attempt = Context.current().info.attempt;
      const started = Date.now();
      let code: number | null = null;
      let error: string | null = null;
      let refused = false;
      try {
        const res = await guardedRequest(guard, {
          url: endpoint.url,
          method: 'POST',
          headers,
          body: delivery.body,
          timeoutMs: config.triggers.delivery.timeoutMs,
          maxResponseBytes: 64 * 1024,
          maxRedirects: 0,
        });
        code = res.status;
        const snippet = res.body.toString('utf8', 0, Math.min(res.body.length, 200));
        if (code < 200 || code >= 300) error = `HTTP ${code}${snippet ? `: ${snippet}` : ''}`;
      } catch (err) {
        refused = err instanceof SsrfRefusedError;
        error = (err as Error).message || 'request failed';
      }
      const latency = Date.now() - started;
      const entry = { attempt, at: new Date(started).toISOString(), responseCode: code, latencyMs: latency, error, ...(refused ? { refusedByPolicy: true } : {}) };
      await recordDeliveryAttempt(db, delivery.id, { url: endpoint.url, attempt, responseCode: code, latencyMs: latency, error, logEntry: entry });
      if (error !== null) {
        await recordEndpointAttemptFailure(
          db,
          { endpointId: delivery.endpoint_id, organizationId: delivery.organization_id },
          { error, refusedByPolicy: refused },
        );
      }
      if (refused) throw refuse(error!);
      if (error !== null) throw ApplicationFailure.retryable(error, 'DELIVERY_FAILED');
      return { status: code! };
    },

    /** Records the outcome once (a retried call changes nothing) and disables the endpoint after a run of failures. */
    async completeWebhookDelivery(input: { deliveryId: string; succeeded: boolean; error: string | null }): Promise<{ disabledEndpointId: string | null }> {
      return db.transaction(async (trx) => {
        const delivery = await completePendingDelivery(trx, input.deliveryId, { succeeded: input.succeeded, error: input.error });
        if (!delivery) return { disabledEndpointId: await endpointDisabledBy(trx, input.deliveryId) };
        // A destination the outbound policy refused says nothing about the endpoint: not counted toward auto-disable
        // (it shows in the endpoint's health as a policy refusal; the operator setting is named in the error).
        const last = delivery.attempt_log.at(-1) as { refusedByPolicy?: boolean } | undefined;
        if (!input.succeeded && last?.refusedByPolicy) return { disabledEndpointId: null };
        const failures = await recordEndpointOutcome(
          trx,
          { endpointId: delivery.endpoint_id, organizationId: delivery.organization_id },
          input.succeeded,
        );
        if (input.succeeded || failures < config.triggers.delivery.disableAfterFailures) return { disabledEndpointId: null };

        const hook = await disableWebhookEndpoint(trx, delivery.organization_id, delivery.endpoint_id);
        if (!hook) return { disabledEndpointId: null };
        await markEndpointDisabled(trx, delivery.endpoint_id, input.deliveryId);
        await recordAudit(trx, {
          organizationId: delivery.organization_id,
          actor: { type: 'system', id: null },
          action: 'webhook.auto_disabled',
          target: { type: 'webhook', id: delivery.endpoint_id },
          before: { enabled: true },
          after: { enabled: false, consecutiveFailures: failures, url: hook.url },
        });
        return { disabledEndpointId: delivery.endpoint_id };
      });
    },

    /** E-mails the organization's owners and admins that an endpoint was disabled. */
    async notifyWebhookDisabled(input: { deliveryId: string }): Promise<{ sent: number }> {
      const delivery = await getDelivery(db, input.deliveryId);
      if (!delivery) return { sent: 0 };
      const org = await readOrganizationNames(db, delivery.organization_id);
      const admins = (await db('memberships as m')
        .join('users as u', 'u.id', 'm.user_id')
        .where('m.organization_id', delivery.organization_id)
        .whereIn('m.role', ['owner', 'admin'])
        .select('u.email')) as { email: string }[];
      const threshold = config.triggers.delivery.disableAfterFailures;
      for (const { email } of admins) {
        await deps.mailer.send({
          to: email,
          subject: `Webhook endpoint disabled: ${delivery.url}`,
          text:
            `The webhook endpoint ${delivery.url} of ${org?.name ?? 'your organization'} failed ${threshold} deliveries in a row ` +
            `(last error: ${(await getDelivery(db, input.deliveryId))?.last_error ?? 'unknown'}) ` +
            `and was disabled. Fix the endpoint, enable it again in the organization's integration settings, and redeliver ` +
            `missed events from its delivery log (GET /api/v1/webhooks/${delivery.endpoint_id}/deliveries).`,
        });
      }
      return { sent: admins.length };
    },
  };
}
