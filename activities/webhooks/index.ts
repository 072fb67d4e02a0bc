import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { recordAudit } from '../../domain/audit/record';
import type { StoredWebhook } from '../../domain/organizations/settingsModel';
import { createSecretBox } from '../../lib/secrets';
import { signatureHeaders } from '../../lib/triggers/standardWebhooks';
import type { ActivityDeps } from '../deps';
import { guardedRequest } from '../../lib/net/httpClient';
import { outboundGuards } from '../../lib/net/outbound';
import { SsrfRefusedError } from '../../lib/net/ssrfGuard';
import type { DeliveryRow } from '../../domain/events/service';

/**
 * Outgoing webhook deliveries (workflows/triggers/events.ts#webhookDeliveryWorkflow): one attempt per activity
 * execution, signed per Standard Webhooks with the endpoint's secret (`webhook-id` = the event id, stable across
 * retries and redeliveries), every attempt appended to the delivery log; then the outcome, the endpoint's run of
 * consecutive failed deliveries, and automatic disabling after WEBHOOKS_DISABLE_AFTER_FAILURES of them.
 */

export function createWebhookActivities(deps: ActivityDeps) {
  const { db, config } = deps;
  const box = createSecretBox({ encryptionKey: config.organizations.encryptionKey, jwtSecret: config.jwt.secret });
  // The outbound policy (lib/net/outbound.ts): public addresses only, except WEBHOOKS_ALLOWED_PRIVATE_HOSTS, never
  // the platform's own services; no redirects.
  const guard = outboundGuards(config).webhooks;

  async function endpointOf(organizationId: string, endpointId: string): Promise<StoredWebhook | null> {
    const org = await db('organizations').where({ id: organizationId }).first('settings');
    const hooks = ((org?.settings ?? {}) as { integration?: { webhooks?: StoredWebhook[] } }).integration?.webhooks ?? [];
    return hooks.find((w) => w.id === endpointId) ?? null;
  }

  const refuse = (message: string): ApplicationFailure => ApplicationFailure.nonRetryable(message, 'DELIVERY_REFUSED');

  return {
    async deliverWebhook(input: { deliveryId: string }): Promise<{ status: number }> {
      const delivery = (await db('webhook_deliveries').where({ id: input.deliveryId }).first()) as DeliveryRow | undefined;
      if (!delivery) throw refuse('delivery not found');
      if (delivery.status === 'succeeded') return { status: 200 };
      const endpoint = await endpointOf(delivery.organization_id, delivery.endpoint_id);
      if (!endpoint) throw refuse('the webhook endpoint was removed');
      if (!endpoint.enabled) throw refuse('the webhook endpoint is disabled');
      const headers = {
        ...signatureHeaders(box.open(endpoint.secret), delivery.event_id, delivery.body),
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
      const entry = { attempt, at: new Date(started).toISOString(), responseCode: code, latencyMs: latency, error };
      await db('webhook_deliveries')
        .where({ id: delivery.id })
        .update({
          url: endpoint.url,
          attempts: attempt,
          response_code: code,
          latency_ms: latency,
          last_error: error,
          attempt_log: db.raw('attempt_log || ?::jsonb', [JSON.stringify([entry])]),
          updated_at: db.fn.now(),
        });
      if (refused) throw refuse(error!);
      if (error !== null) throw ApplicationFailure.retryable(error, 'DELIVERY_FAILED');
      return { status: code! };
    },

    /** Records the outcome once (a retried call changes nothing) and disables the endpoint after a run of failures. */
    async completeWebhookDelivery(input: { deliveryId: string; succeeded: boolean; error: string | null }): Promise<{ disabledEndpointId: string | null }> {
      return db.transaction(async (trx) => {
        const [delivery] = (await trx('webhook_deliveries')
          .where({ id: input.deliveryId, status: 'pending' })
          .update({
            status: input.succeeded ? 'succeeded' : 'failed',
            ...(input.error && !input.succeeded ? { last_error: input.error } : {}),
            completed_at: trx.fn.now(),
            updated_at: trx.fn.now(),
          })
          .returning(['organization_id', 'endpoint_id'])) as { organization_id: string; endpoint_id: string }[];
        if (!delivery) {
          const health = await trx('webhook_endpoint_health').where({ disabled_by_delivery: input.deliveryId }).first('endpoint_id');
          return { disabledEndpointId: health?.endpoint_id ?? null };
        }
        const { rows } = await trx.raw<{ rows: { consecutive_failures: number }[] }>(
          `INSERT INTO webhook_endpoint_health AS h (endpoint_id, organization_id, consecutive_failures, last_success_at, last_failure_at)
           VALUES (?, ?, ?, CASE WHEN ? THEN now() END, CASE WHEN ? THEN NULL ELSE now() END)
           ON CONFLICT (endpoint_id) DO UPDATE SET
             consecutive_failures = CASE WHEN ? THEN 0 ELSE h.consecutive_failures + 1 END,
             last_success_at = CASE WHEN ? THEN now() ELSE h.last_success_at END,
             last_failure_at = CASE WHEN ? THEN h.last_failure_at ELSE now() END
           RETURNING consecutive_failures`,
          [delivery.endpoint_id, delivery.organization_id, input.succeeded ? 0 : 1, input.succeeded, input.succeeded, input.succeeded, input.succeeded, input.succeeded],
        );
        const failures = rows[0]?.consecutive_failures ?? 0;
        if (input.succeeded || failures < config.triggers.delivery.disableAfterFailures) return { disabledEndpointId: null };

        const org = await trx('organizations').where({ id: delivery.organization_id }).forUpdate().first('settings');
        const settings = structuredClone((org?.settings ?? {}) as { integration?: { webhooks?: StoredWebhook[] } });
        const hook = settings.integration?.webhooks?.find((w) => w.id === delivery.endpoint_id);
        if (!hook || !hook.enabled) return { disabledEndpointId: null };
        hook.enabled = false;
        await trx('organizations').where({ id: delivery.organization_id }).update({ settings: JSON.stringify(settings), updated_at: trx.fn.now() });
        await trx('webhook_endpoint_health')
          .where({ endpoint_id: delivery.endpoint_id })
          .update({ consecutive_failures: 0, disabled_at: trx.fn.now(), disabled_by_delivery: input.deliveryId });
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
      const delivery = (await db('webhook_deliveries').where({ id: input.deliveryId }).first()) as DeliveryRow | undefined;
      if (!delivery) return { sent: 0 };
      const org = await db('organizations').where({ id: delivery.organization_id }).first('name');
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
            `(last error: ${(await db('webhook_deliveries').where({ id: input.deliveryId }).first('last_error'))?.last_error ?? 'unknown'}) ` +
            `and was disabled. Fix the endpoint, enable it again in the organization's integration settings, and redeliver ` +
            `missed events from its delivery log (GET /api/v1/webhooks/${delivery.endpoint_id}/deliveries).`,
        });
      }
      return { sent: admins.length };
    },
  };
}
