/**
 * Billing goes through this interface so a real payment provider can replace the built-in local one without
 * touching the organization code. Every call is idempotent: workflows retry them.
 *
 * Payments reach the platform two ways: synchronously, as the answer to a charge the platform asks for (a plan
 * change), and asynchronously, as events the provider reports on its own (a renewal charged at the end of a
 * period). A provider's adapter turns the latter (e.g. a verified webhook) into a `PaymentEvent` and hands it to the
 * billing service (domain/billing/service.ts#handlePaymentEvent), which keeps the organization's billing state.
 */
export type BillingPlan = 'free' | 'pro' | 'enterprise';

export interface Subscription {
  id: string;
  provider: string;
  externalId: string;
  plan: BillingPlan;
  status: 'active' | 'cancelled';
}

/** One charge attempt as the provider reports it. */
export interface PaymentEvent {
  provider: string;
  /** The provider's id of the payment: a redelivered event with the same id changes nothing. */
  paymentId: string;
  organizationId: string;
  /** `plan_change`: charged when the owner changes the plan; `renewal`: charged by the provider each period. */
  kind: 'plan_change' | 'renewal';
  outcome: 'succeeded' | 'failed';
  /** The plan the payment is for. */
  plan: BillingPlan;
  /** Why it failed, in words the provider allows showing to the customer (e.g. `card_declined`); null on success. */
  reason: string | null;
  occurredAt: Date;
}

/**
 * The answer to a plan change: either the subscription on its new plan (with the payment, when the change charged
 * one) or the failed payment, in which case the provider left the subscription on its old plan.
 */
export type PlanChangeResult =
  | { ok: true; subscription: Subscription; payment: PaymentEvent | null }
  | { ok: false; payment: PaymentEvent };

export interface BillingProvider {
  readonly name: string;
  /** Creates the organization's subscription, or returns the live one. */
  initialise(organizationId: string, plan: BillingPlan): Promise<Subscription>;
  /**
   * Moves the subscription to `plan`, charging what the provider charges for it (an upgrade); may fail to pay.
   * `currentPlan` is the organization's plan, for a subscription the provider has yet to create.
   */
  changePlan(organizationId: string, plan: BillingPlan, currentPlan: BillingPlan): Promise<PlanChangeResult>;
  /** Cancels every live subscription of the organization; returns how many were cancelled. */
  cancelAll(organizationId: string): Promise<number>;
}
