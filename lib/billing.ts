import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';

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

interface SubscriptionRow {
  id: string;
  provider: string;
  external_id: string;
  plan: BillingPlan;
  status: 'active' | 'cancelled';
}

const toSubscription = (r: SubscriptionRow): Subscription => ({
  id: r.id,
  provider: r.provider,
  externalId: r.external_id,
  plan: r.plan,
  status: r.status,
});

/** Records subscriptions in PostgreSQL and charges nobody: the default in development, tests and self-hosting. */
export function createLocalBillingProvider(db: Knex): BillingProvider {
  const name = 'local';
  const live = async (organizationId: string): Promise<SubscriptionRow | undefined> =>
    db('billing_subscriptions').where({ organization_id: organizationId, status: 'active' }).first();
  return {
    name,
    async initialise(organizationId, plan) {
      const existing = await live(organizationId);
      if (existing) return toSubscription(existing);
      const rows = await db('billing_subscriptions')
        .insert({ organization_id: organizationId, provider: name, external_id: `local_${randomUUID()}`, plan })
        .onConflict(db.raw("(organization_id) WHERE status = 'active'"))
        .ignore()
        .returning('*');
      const row = (rows[0] as SubscriptionRow | undefined) ?? (await live(organizationId));
      if (!row) throw new Error('subscription vanished while being created');
      return toSubscription(row);
    },
    async changePlan(organizationId, plan) {
      const current = await this.initialise(organizationId, plan);
      if (current.plan === plan) return current;
      const [row] = await db('billing_subscriptions')
        .where({ id: current.id })
        .update({ plan, updated_at: db.fn.now() })
        .returning('*');
      return toSubscription(row as SubscriptionRow);
    },
    async cancelAll(organizationId) {
      return db('billing_subscriptions')
        .where({ organization_id: organizationId, status: 'active' })
        .update({ status: 'cancelled', cancelled_at: db.fn.now(), updated_at: db.fn.now() });
    },
  };
}
