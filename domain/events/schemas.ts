import { z } from 'zod';

/** One attempt of an outgoing webhook delivery, as activities/webhooks appends it to `attempt_log`. */
export const deliveryAttemptSchema = z.object({
  attempt: z.number(),
  at: z.string(),
  responseCode: z.number().nullable(),
  latencyMs: z.number(),
  error: z.string().nullable(),
  refusedByPolicy: z.boolean().optional().describe('true: the outbound policy refused the destination (nothing was sent)'),
});

export const deliverySchema = z.object({
  id: z.uuid(),
  endpointId: z.uuid(),
  eventId: z.uuid(),
  eventType: z.string(),
  url: z.string(),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number().int(),
  responseCode: z.number().int().nullable().describe('HTTP status of the last attempt (null: no answer)'),
  latencyMs: z.number().int().nullable().describe('duration of the last attempt'),
  lastError: z.string().nullable(),
  redeliveryOf: z.uuid().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  attemptLog: z.array(deliveryAttemptSchema).optional().describe('single delivery only'),
  body: z.unknown().optional().describe('single delivery only: the signed body'),
});

export type DeliveryAttemptView = z.infer<typeof deliveryAttemptSchema>;
export type DeliveryView = z.infer<typeof deliverySchema>;

/** An event the dispatcher set aside after its last attempt (docs/events.md#quarantine). */
export const quarantinedEventSchema = z.object({
  id: z.uuid(),
  type: z.string(),
  organizationID: z.uuid(),
  data: z.unknown().describe('the payload'),
  createdAt: z.string(),
  status: z
    .enum(['quarantined', 'replayed'])
    .describe('`quarantined`: no longer dispatched; `replayed`: made dispatchable again (see `dispatchedAt`)'),
  attempts: z.number().int().describe('failed dispatch attempts since the event was written or last replayed'),
  lastError: z.string().nullable().describe('why the last attempt failed'),
  quarantinedAt: z.string().nullable(),
  replayedAt: z.string().nullable(),
  dispatchedAt: z.string().nullable().describe('set once a replay was dispatched'),
});

export const listQuarantinedEventsQuery = z.object({
  status: z.enum(['quarantined', 'replayed']).optional(),
  type: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).optional().default(20),
  cursor: z.string().max(500).optional(),
});

export type QuarantinedEventView = z.infer<typeof quarantinedEventSchema>;
