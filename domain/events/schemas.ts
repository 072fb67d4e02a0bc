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
