import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/knex';
import type { BillingPlan, BillingProvider, Subscription } from './provider';
import {
  cancelActiveSubscriptions,
  findActiveSubscription,
  insertActiveSubscription,
  updateSubscriptionPlan,
  type SubscriptionRow,
} from './queries';

const toSubscription = (r: SubscriptionRow): Subscription => ({
  id: r.id,
  provider: r.provider,
  externalId: r.external_id,
  plan: r.plan,
  status: r.status,
});

/** The subscription records both built-in providers keep in PostgreSQL, under the provider's name. */
export function subscriptionBook(db: Db, providerName: string) {
  async function initialise(organizationId: string, plan: BillingPlan): Promise<Subscription> {
    const existing = await findActiveSubscription(db, organizationId);
    if (existing) return toSubscription(existing);
    const row =
      (await insertActiveSubscription(db, { organizationId, provider: providerName, externalId: `${providerName}_${randomUUID()}`, plan })) ??
      (await findActiveSubscription(db, organizationId));
    if (!row) throw new Error('subscription vanished while being created');
    return toSubscription(row);
  }
  return {
    initialise,
    async setPlan(subscription: Subscription, plan: BillingPlan): Promise<Subscription> {
      if (subscription.plan === plan) return subscription;
      return toSubscription(await updateSubscriptionPlan(db, subscription.id, plan));
    },
    cancelAll: (organizationId: string) => cancelActiveSubscriptions(db, organizationId),
  };
}

/** Records subscriptions in PostgreSQL and charges nobody: the default in development, tests and self-hosting. */
export function createLocalBillingProvider(db: Db): BillingProvider {
  const book = subscriptionBook(db, 'local');
  return {
    name: 'local',
    initialise: book.initialise,
    async changePlan(organizationId, plan, currentPlan) {
      const current = await book.initialise(organizationId, currentPlan);
      return { ok: true, subscription: await book.setPlan(current, plan), payment: null };
    },
    cancelAll: book.cancelAll,
  };
}
