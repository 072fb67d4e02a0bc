import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/knex';
import type { BillingProvider, Subscription } from './provider';
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

/** Records subscriptions in PostgreSQL and charges nobody: the default in development, tests and self-hosting. */
export function createLocalBillingProvider(db: Db): BillingProvider {
  const name = 'local';
  return {
    name,
    async initialise(organizationId, plan) {
      const existing = await findActiveSubscription(db, organizationId);
      if (existing) return toSubscription(existing);
      const row =
        (await insertActiveSubscription(db, { organizationId, provider: name, externalId: `local_${randomUUID()}`, plan })) ??
        (await findActiveSubscription(db, organizationId));
      if (!row) throw new Error('subscription vanished while being created');
      return toSubscription(row);
    },
    async changePlan(organizationId, plan) {
      const current = await this.initialise(organizationId, plan);
      if (current.plan === plan) return current;
      return toSubscription(await updateSubscriptionPlan(db, current.id, plan));
    },
    async cancelAll(organizationId) {
      return cancelActiveSubscriptions(db, organizationId);
    },
  };
}
