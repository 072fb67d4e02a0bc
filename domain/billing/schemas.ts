import { z } from 'zod';

export const billingStateSchema = z.enum(['active', 'past_due']).describe('`active`: payments are up to date; `past_due`: a renewal failed and no payment has succeeded since');

export const paymentSchema = z.object({
  id: z.string().describe("the provider's payment id"),
  kind: z.enum(['plan_change', 'renewal']),
  outcome: z.enum(['succeeded', 'failed']),
  plan: z.enum(['free', 'pro', 'enterprise']),
  reason: z.string().nullable().describe('why the payment failed, as the provider reports it; null on success'),
  occurredAt: z.string(),
});

export const billingSchema = z.object({
  organizationID: z.uuid(),
  provider: z.string().describe('the billing provider keeping the subscription (`local`, `test`)'),
  state: billingStateSchema,
  pastDueSince: z.string().nullable().describe('when the first failed renewal of the current streak happened'),
  subscription: z
    .object({ id: z.uuid(), plan: z.enum(['free', 'pro', 'enterprise']), status: z.enum(['active', 'cancelled']) })
    .nullable()
    .describe('the live subscription; null until the creation workflow has initialised billing'),
  payments: z
    .array(paymentSchema)
    .optional()
    .describe('the 10 most recent payments, newest first; only for roles with the billing permission (owner)'),
});

export type BillingView = z.infer<typeof billingSchema>;
