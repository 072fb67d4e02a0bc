/**
 * Billing goes through this interface so a real payment provider can replace the built-in local one without
 * touching the organization code. Every call is idempotent: workflows retry them.
 */
export type BillingPlan = 'free' | 'pro' | 'enterprise';

export interface Subscription {
  id: string;
  provider: string;
  externalId: string;
  plan: BillingPlan;
  status: 'active' | 'cancelled';
}

export interface BillingProvider {
  readonly name: string;
  /** Creates the organization's subscription, or returns the live one. */
  initialise(organizationId: string, plan: BillingPlan): Promise<Subscription>;
  changePlan(organizationId: string, plan: BillingPlan): Promise<Subscription>;
  /** Cancels every live subscription of the organization; returns how many were cancelled. */
  cancelAll(organizationId: string): Promise<number>;
}
