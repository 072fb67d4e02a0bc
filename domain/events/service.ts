import { randomUUID } from 'node:crypto';
import { AppError, notFound } from '../../lib/errors';
import { catalogDocument, CUSTOM_EVENT_TYPE } from '../../lib/events/catalog';
import { decodeCursorOrThrow, toPage, type Page } from '../../lib/pagination';
import { uuidFrom } from '../../lib/triggers/ids';
import { recordAudit } from '../audit/record';
import type { AppDeps } from '../deps';
import type { RateLimiter } from '../ratelimit/limiter';
import type { Actor, OrganizationContext } from '../principals';
import { isUuid } from '../triggers/queries';
import { deliveryInput, startDelivery } from './deliveries';
import type { DeliveryAttemptView, DeliveryView, QuarantinedEventView } from './schemas';
import { writeEvent, writeEventOnce } from './outbox';
import {
  deleteQuarantinedEvent,
  failUnstartedDelivery,
  getDelivery,
  getEndpointDelivery,
  getQuarantinedEvent,
  insertDelivery,
  listEndpointDeliveries,
  listEndpointHealth,
  listQuarantinedEvents,
  replayQuarantinedEvent,
  type DeliveryRow,
  type OutboxEventRow,
} from './queries';
import { readOrganizationSettings } from '../organizations/settingsReader';

/**
 * Events published by API clients (custom.*), the catalog, and the delivery log of the organization's outgoing
 * webhook endpoints with manual redelivery (docs/events.md, docs/triggers.md#outgoing-webhooks).
 */

const MAX_CUSTOM_PAYLOAD_BYTES = 64 * 1024;

function iso(d: Date): string;
function iso(d: Date | null): string | null;
function iso(d: Date | null): string | null {
  return d ? new Date(d).toISOString() : null;
}

export function serializeDelivery(row: DeliveryRow, detail = false): DeliveryView {
  return {
    id: row.id,
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    eventType: row.event_type,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    responseCode: row.response_code,
    latencyMs: row.latency_ms,
    lastError: row.last_error,
    redeliveryOf: row.redelivery_of,
    createdAt: iso(row.created_at),
    completedAt: iso(row.completed_at),
    // attempt_log is JSON that activities/webhooks appends in DeliveryAttemptView's shape.
    ...(detail ? { attemptLog: row.attempt_log as DeliveryAttemptView[], body: JSON.parse(row.body) as unknown } : {}),
  };
}

export function serializeQuarantinedEvent(row: OutboxEventRow): QuarantinedEventView {
  return {
    id: row.id,
    type: row.type,
    organizationID: row.organization_id!,
    data: row.payload,
    createdAt: iso(row.created_at),
    status: row.quarantine_status!,
    attempts: row.attempts,
    lastError: row.last_error,
    quarantinedAt: iso(row.quarantined_at),
    replayedAt: iso(row.replayed_at),
    dispatchedAt: iso(row.dispatched_at),
  };
}

export function createEventsService(deps: AppDeps, ensureDispatcher: () => Promise<void>, limiter: RateLimiter) {
  const { db, config } = deps;

  async function endpointsOf(organizationId: string) {
    return (await readOrganizationSettings(db, organizationId))?.integration.webhooks ?? [];
  }

  async function requireEndpoint(organizationId: string, endpointId: string) {
    if (!isUuid(endpointId)) throw notFound('webhook endpoint');
    const endpoint = (await endpointsOf(organizationId)).find((w) => w.id === endpointId);
    if (!endpoint) throw notFound('webhook endpoint');
    return endpoint;
  }

  async function publishAs(
    organizationId: string,
    publishedBy: { type: string; id: string } | null,
    input: { type: string; data: Record<string, unknown> },
    requestKey: string | null,
    path: string,
  ) {
    if (!CUSTOM_EVENT_TYPE.test(input.type)) {
      throw new AppError('VALIDATION_ERROR', 'invalid body', [{ path: `${path}.type`, problem: 'custom events are named custom.<word>(.<word>)*, lower case' }]);
    }
    if (Buffer.byteLength(JSON.stringify(input.data)) > MAX_CUSTOM_PAYLOAD_BYTES) {
      throw new AppError('PAYLOAD_TOO_LARGE', `event data larger than ${MAX_CUSTOM_PAYLOAD_BYTES} bytes`);
    }
    // Runs started by events pass no admission gate (docs/runs.md#fairness): the flood is stopped here instead.
    await limiter.consume([{ bucket: 'events.publish', key: organizationId, rule: config.triggers.publishRate }]);
    const payload = { ...input.data, publishedBy };
    const id = requestKey
      ? await writeEventOnce(db, uuidFrom(`publish:${organizationId}:${requestKey}`), organizationId, input.type, payload)
      : await writeEvent(db, organizationId, input.type, payload);
    // The dispatcher polls the outbox anyway; this only makes sure it exists (best effort).
    await ensureDispatcher().catch((err: unknown) => deps.logger.warn({ err }, 'could not ensure the event dispatcher'));
    return { id, type: input.type, organizationID: organizationId, data: payload };
  }

  return {
    catalog: () => catalogDocument(),

    /** `requestKey`: the client's Idempotency-Key with the request's fingerprint, when the client sent a key. */
    async publish(org: OrganizationContext, actor: Actor | null, input: { type: string; data: Record<string, unknown> }, requestKey: string | null = null) {
      return publishAs(org.organizationId, actor ? { type: actor.type, id: actor.id } : null, input, requestKey, 'body');
    },

    /**
     * A webhook trigger with `publish` (docs/triggers.md#webhooks-that-publish-events): the delivery becomes a custom
     * event, `publishedBy` naming the trigger. `deliveryKey`: a repeated delivery finds the event of the first.
     */
    async publishFromWebhook(
      organizationId: string,
      source: { workflowId: string; triggerKey: string },
      input: { type: string; data: Record<string, unknown> },
      deliveryKey: string | null,
    ) {
      const by = { type: 'webhook', id: `${source.workflowId}/${source.triggerKey}` };
      return publishAs(organizationId, by, input, deliveryKey ? `webhook:${by.id}:${deliveryKey}` : null, 'body');
    },

    async listEndpoints(organizationId: string) {
      const endpoints = await endpointsOf(organizationId);
      const health = new Map((await listEndpointHealth(db, organizationId)).map((h) => [h.endpoint_id, h]));
      return endpoints.map((w) => {
        const h = health.get(w.id);
        return {
          id: w.id,
          url: w.url,
          events: w.events,
          enabled: w.enabled,
          consecutiveFailures: h?.consecutive_failures ?? 0,
          lastSuccessAt: iso(h?.last_success_at ?? null),
          lastFailureAt: iso(h?.last_failure_at ?? null),
          autoDisabledAt: iso(h?.disabled_at ?? null),
          failedAttempts: h?.failed_attempts ?? 0,
          lastAttemptFailedAt: iso(h?.last_attempt_failed_at ?? null),
          lastAttemptError: h?.last_attempt_error ?? null,
          policyRefusals: h?.policy_refusals ?? 0,
          lastPolicyRefusalAt: iso(h?.last_policy_refusal_at ?? null),
          lastPolicyRefusal: h?.last_policy_refusal ?? null,
          previousSecretExpiresAt:
            w.previousSecret && Date.parse(w.previousSecret.expiresAt) > Date.now() ? new Date(w.previousSecret.expiresAt).toISOString() : null,
        };
      });
    },

    async listDeliveries(
      organizationId: string,
      endpointId: string,
      query: { status?: string; limit: number; cursor?: string },
    ): Promise<Page<DeliveryView>> {
      await requireEndpoint(organizationId, endpointId);
      const after = decodeCursorOrThrow(query.cursor);
      const rows = await listEndpointDeliveries(db, organizationId, endpointId, { status: query.status, limit: query.limit, after });
      const page = toPage(rows, query.limit, (r) => ({ sort: new Date(r.created_at).toISOString(), id: r.id }));
      return { data: page.data.map((r) => serializeDelivery(r)), nextCursor: page.nextCursor };
    },

    async getDelivery(organizationId: string, endpointId: string, deliveryId: string) {
      await requireEndpoint(organizationId, endpointId);
      if (!isUuid(deliveryId)) throw notFound('delivery');
      const row = await getEndpointDelivery(db, organizationId, endpointId, deliveryId);
      if (!row) throw notFound('delivery');
      return serializeDelivery(row, true);
    },

    /** Events set aside after their last dispatch attempt (and those replayed since), newest first. */
    async listQuarantine(
      organizationId: string,
      query: { status?: 'quarantined' | 'replayed'; type?: string; limit: number; cursor?: string },
    ): Promise<Page<QuarantinedEventView>> {
      const after = decodeCursorOrThrow(query.cursor);
      const rows = await listQuarantinedEvents(db, organizationId, { status: query.status, type: query.type, limit: query.limit, after });
      const page = toPage(rows, query.limit, (r) => ({ sort: new Date(r.created_at).toISOString(), id: r.id }));
      return { data: page.data.map(serializeQuarantinedEvent), nextCursor: page.nextCursor };
    },

    /**
     * Makes a quarantined event dispatchable again, with a fresh count of attempts: the dispatcher picks it up
     * within EVENTS_DISPATCH_INTERVAL, and quarantines it again if it still fails. Runs and deliveries it had
     * already started are not started twice (their ids derive from the event).
     */
    async replayQuarantined(organizationId: string, eventId: string): Promise<QuarantinedEventView> {
      if (!isUuid(eventId)) throw notFound('quarantined event');
      const row = await replayQuarantinedEvent(db, organizationId, eventId);
      if (!row) {
        if (await getQuarantinedEvent(db, organizationId, eventId)) throw new AppError('INVALID_STATE', 'the event is not quarantined (replayed already)');
        throw notFound('quarantined event');
      }
      await ensureDispatcher().catch((err: unknown) => deps.logger.warn({ err }, 'could not ensure the event dispatcher'));
      return serializeQuarantinedEvent(row);
    },

    /** Drops a quarantined event for good: it is never dispatched. */
    async discardQuarantined(organizationId: string, eventId: string): Promise<void> {
      if (!isUuid(eventId)) throw notFound('quarantined event');
      if (await deleteQuarantinedEvent(db, organizationId, eventId)) return;
      if (await getQuarantinedEvent(db, organizationId, eventId)) throw new AppError('INVALID_STATE', 'the event is not quarantined (replayed already)');
      throw notFound('quarantined event');
    },

    /** A new delivery of the same event (same body and webhook-id) to the endpoint's current URL. */
    async redeliver(org: OrganizationContext, actor: Actor | null, endpointId: string, deliveryId: string) {
      const endpoint = await requireEndpoint(org.organizationId, endpointId);
      if (!endpoint.enabled) throw new AppError('INVALID_STATE', 'the endpoint is disabled; enable it in the integration settings first');
      if (!isUuid(deliveryId)) throw notFound('delivery');
      const original = await getEndpointDelivery(db, org.organizationId, endpointId, deliveryId);
      if (!original) throw notFound('delivery');
      const id = randomUUID();
      await db.transaction(async (trx) => {
        await insertDelivery(trx, {
          id,
          organization_id: org.organizationId,
          endpoint_id: endpointId,
          event_id: original.event_id,
          event_type: original.event_type,
          url: endpoint.url,
          body: original.body,
          redelivery_of: original.redelivery_of ?? original.id,
        });
        if (actor) {
          await recordAudit(trx, {
            organizationId: org.organizationId,
            actor,
            action: 'webhook.redelivered',
            target: { type: 'webhook', id: endpointId },
            after: { deliveryId: id, of: original.id, eventId: original.event_id },
          });
        }
      });
      try {
        await startDelivery(deps.temporal, config.temporal.taskQueue, org.organizationId, deliveryInput(config, id));
      } catch (err) {
        deps.logger.error({ err, deliveryId: id }, 'starting a redelivery failed');
        await failUnstartedDelivery(db, id, 'the workflow engine was unavailable');
        throw new AppError('SERVICE_UNAVAILABLE', 'the workflow engine is unavailable; the redelivery was not started');
      }
      return serializeDelivery((await getDelivery(db, id))!);
    },
  };
}

export type EventsService = ReturnType<typeof createEventsService>;
