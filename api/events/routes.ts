import { z } from 'zod';
import { pageSchema } from '../../lib/pagination';
import { defineRoute, type RouteDef } from '../http/route';
import { idempotencyKeyOf, requestFingerprint } from '../middleware/idempotency';
import { deliverySchema, listQuarantinedEventsQuery, quarantinedEventSchema } from '../../domain/events/schemas';
import type { EventsService } from '../../domain/events/service';

/** Routes of events and outgoing webhooks (docs/events.md, docs/triggers.md#outgoing-webhooks). */

const endpointParams = z.object({ endpoint_id: z.string().max(100).describe('webhook endpoint id (integration settings)') });
const deliveryParams = endpointParams.extend({ delivery_id: z.string().max(100).describe('delivery id') });
const quarantineParams = z.object({ event_id: z.string().max(100).describe('event id') });

export function eventRoutes(service: EventsService): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/events',
      operationId: 'publishEvent',
      summary: 'Publish a custom event to the organization',
      description:
        'Names must be `custom.<word>(.<word>)*`. The event goes through the outbox like every event: it starts ' +
        'the runs of active workflows with a matching event trigger (`source: custom`, `event: <rest of the name>`) ' +
        'and is delivered to subscribed webhook endpoints. `data` at most 64 KiB.',
      tags: ['events'],
      auth: 'org',
      permission: 'events:publish',
      idempotent: true,
      body: z.strictObject({
        type: z.string().max(100).describe('custom.<name>(.<name>)*, at most 100 characters'),
        data: z.record(z.string(), z.unknown()).optional().default({}),
      }),
      responses: {
        202: {
          description: 'recorded; dispatched asynchronously',
          schema: z.object({ id: z.uuid(), type: z.string(), organizationID: z.uuid(), data: z.record(z.string(), z.unknown()) }),
        },
      },
      errors: ['PAYLOAD_TOO_LARGE', 'RATE_LIMITED'],
      handler: async ({ organization, actor, body, ctx }) => {
        const key = idempotencyKeyOf(ctx);
        return { status: 202, body: await service.publish(organization, actor, body, key ? `${key}:${requestFingerprint(ctx, body)}` : null) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/events/catalog',
      operationId: 'getEventCatalog',
      summary: 'The events the service emits, with payload JSON Schemas',
      tags: ['events'],
      auth: 'org',
      permission: 'workflow:read',
      responses: {
        200: {
          description: 'the catalog (custom.* events carry any object)',
          schema: z.object({ data: z.array(z.object({ type: z.string(), description: z.string(), payloadSchema: z.unknown() })) }),
        },
      },
      handler: async () => ({ body: { data: service.catalog() } }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/events/quarantine',
      operationId: 'listQuarantinedEvents',
      summary: 'List the events quarantined after their last dispatch attempt, newest first',
      description:
        'An event whose dispatch (starting the runs of event triggers, creating webhook deliveries) keeps failing is ' +
        'retried with a doubling backoff and set aside after EVENTS_DISPATCH_MAX_ATTEMPTS attempts (default 8), so it ' +
        'no longer holds anything up. Each entry has the payload, the attempts and the last error. Replayed entries ' +
        'stay listed (`status: replayed`, `dispatchedAt` once dispatched).',
      tags: ['events'],
      auth: 'org',
      permission: 'operations:manage',
      query: listQuarantinedEventsQuery,
      responses: { 200: { description: 'a page of quarantined events', schema: pageSchema(quarantinedEventSchema) } },
      handler: async ({ organization, query }) => ({ body: await service.listQuarantine(organization.organizationId, query) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/events/quarantine/{event_id}/replay',
      operationId: 'replayQuarantinedEvent',
      summary: 'Replay a quarantined event',
      description:
        'After fixing the cause: the event becomes dispatchable again with a fresh count of attempts; the dispatcher ' +
        'picks it up within EVENTS_DISPATCH_INTERVAL. Runs and webhook deliveries it had already started are not ' +
        'started twice. If it still fails it is quarantined again. 409 when the event is not quarantined.',
      tags: ['events'],
      auth: 'org',
      permission: 'operations:manage',
      params: quarantineParams,
      responses: { 202: { description: 'the event, `replayed`; dispatched asynchronously', schema: quarantinedEventSchema } },
      errors: ['INVALID_STATE'],
      handler: async ({ organization, params }) => ({
        status: 202,
        body: await service.replayQuarantined(organization.organizationId, params.event_id),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/events/quarantine/{event_id}',
      operationId: 'discardQuarantinedEvent',
      summary: 'Discard a quarantined event (it is never dispatched)',
      tags: ['events'],
      auth: 'org',
      permission: 'operations:manage',
      params: quarantineParams,
      responses: { 204: { description: 'discarded' } },
      errors: ['INVALID_STATE'],
      handler: async ({ organization, params }) => {
        await service.discardQuarantined(organization.organizationId, params.event_id);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/webhooks',
      operationId: 'listWebhookEndpoints',
      summary: "The organization's outgoing webhook endpoints with their delivery health",
      description:
        'Endpoints are configured in the integration settings; an endpoint is disabled automatically after WEBHOOKS_DISABLE_AFTER_FAILURES failed deliveries in a row ' +
        '(deliveries the outbound policy refused are counted apart, in policyRefusals, and never disable it).',
      tags: ['webhooks'],
      auth: 'org',
      permission: 'integrations:manage',
      responses: {
        200: {
          description: 'the endpoints',
          schema: z.object({
            data: z.array(
              z.object({
                id: z.uuid(),
                url: z.string(),
                events: z.array(z.string()),
                enabled: z.boolean(),
                consecutiveFailures: z.number().int(),
                lastSuccessAt: z.string().nullable(),
                lastFailureAt: z.string().nullable(),
                autoDisabledAt: z.string().nullable(),
                failedAttempts: z.number().int().describe('failed attempts, also those inside a delivery that later succeeded'),
                lastAttemptFailedAt: z.string().nullable(),
                lastAttemptError: z.string().nullable(),
                policyRefusals: z.number().int().describe('deliveries the outbound policy refused (not counted toward auto-disable)'),
                lastPolicyRefusalAt: z.string().nullable(),
                lastPolicyRefusal: z.string().nullable().describe('names the operator setting that would allow the destination'),
                previousSecretExpiresAt: z.string().nullable().describe('during a secret rotation: deliveries carry a second signature with the previous secret until then'),
              }),
            ),
          }),
        },
      },
      handler: async ({ organization }) => ({ body: { data: await service.listEndpoints(organization.organizationId) } }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/webhooks/{endpoint_id}/deliveries',
      operationId: 'listWebhookDeliveries',
      summary: "An endpoint's delivery log, newest first",
      tags: ['webhooks'],
      auth: 'org',
      permission: 'integrations:manage',
      params: endpointParams,
      query: z.object({
        status: z.enum(['pending', 'succeeded', 'failed']).optional(),
        limit: z.coerce.number().int().min(1).max(100).optional().default(20),
        cursor: z.string().max(500).optional(),
      }),
      responses: { 200: { description: 'a page of deliveries', schema: pageSchema(deliverySchema) } },
      handler: async ({ organization, params, query }) => ({
        body: await service.listDeliveries(organization.organizationId, params.endpoint_id, query),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/webhooks/{endpoint_id}/deliveries/{delivery_id}',
      operationId: 'getWebhookDelivery',
      summary: 'One delivery with every attempt and the signed body',
      tags: ['webhooks'],
      auth: 'org',
      permission: 'integrations:manage',
      params: deliveryParams,
      responses: { 200: { description: 'the delivery', schema: deliverySchema } },
      handler: async ({ organization, params }) => ({
        body: await service.getDelivery(organization.organizationId, params.endpoint_id, params.delivery_id),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/webhooks/{endpoint_id}/deliveries/{delivery_id}/redeliver',
      operationId: 'redeliverWebhook',
      summary: 'Deliver the same event again (a new delivery in the log)',
      description: 'Same body and webhook-id (receivers deduplicate on it), fresh signature, the endpoint\'s current URL and secret.',
      tags: ['webhooks'],
      auth: 'org',
      permission: 'integrations:manage',
      params: deliveryParams,
      responses: { 202: { description: 'the new delivery (pending)', schema: deliverySchema } },
      errors: ['INVALID_STATE'],
      handler: async ({ organization, actor, params }) => ({
        status: 202,
        body: await service.redeliver(organization, actor, params.endpoint_id, params.delivery_id),
      }),
    }),
  ];
}
