import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/knex';
import { subscriptionBook } from './localProvider';
import type { BillingPlan, BillingProvider, PaymentEvent } from './provider';
import { findActiveSubscription } from './queries';

/**
 * `SERVICE_BILLING_PROVIDER=test` (refused when NODE_ENV=production): keeps subscriptions like the local provider
 * and simulates a card processor whose payments fail on demand, so tests can reach the payment-failure path.
 *
 * It charges on an upgrade (free < pro < enterprise; downgrades and same-plan changes charge nothing) and on
 * `renew()`, which simulates the charge a real provider makes at the end of a period and answers with the event
 * its webhook would deliver. Whether a charge fails is decided by a per-organization switch held in the memory of
 * the process (`testBillingSwitch`): tests that run the API in-process (test/helpers/stack.ts) flip it.
 */

const failures = new Map<string, string>();

export const testBillingSwitch = {
  /** From now on every charge of the organization fails with `reason`. */
  failPayments(organizationId: string, reason = 'card_declined'): void {
    failures.set(organizationId, reason);
  },
  /** Charges of the organization succeed again (the default). */
  acceptPayments(organizationId: string): void {
    failures.delete(organizationId);
  },
};

const RANK: Record<BillingPlan, number> = { free: 0, pro: 1, enterprise: 2 };

export interface TestBillingProvider extends BillingProvider {
  /**
   * Charges the organization's current plan as a renewal and answers with the resulting payment event, to be handed
   * to the billing service as a real provider's webhook would; null when there is nothing to charge (free plan).
   */
  renew(organizationId: string): Promise<PaymentEvent | null>;
}

export function createTestBillingProvider(db: Db): TestBillingProvider {
  const name = 'test';
  const book = subscriptionBook(db, name);

  function charge(organizationId: string, kind: PaymentEvent['kind'], plan: BillingPlan): PaymentEvent {
    const reason = failures.get(organizationId) ?? null;
    return {
      provider: name,
      paymentId: `test_pay_${randomUUID()}`,
      organizationId,
      kind,
      outcome: reason === null ? 'succeeded' : 'failed',
      plan,
      reason,
      occurredAt: new Date(),
    };
  }

  return {
    name,
    initialise: book.initialise,
    async changePlan(organizationId, plan, currentPlan) {
      const current = await book.initialise(organizationId, currentPlan);
      if (RANK[plan] <= RANK[current.plan]) return { ok: true, subscription: await book.setPlan(current, plan), payment: null };
      const payment = charge(organizationId, 'plan_change', plan);
      if (payment.outcome === 'failed') return { ok: false, payment };
      return { ok: true, subscription: await book.setPlan(current, plan), payment };
    },
    cancelAll: book.cancelAll,
    async renew(organizationId) {
      const current = await findActiveSubscription(db, organizationId);
      if (!current || current.plan === 'free') return null;
      return charge(organizationId, 'renewal', current.plan);
    },
  };
}
