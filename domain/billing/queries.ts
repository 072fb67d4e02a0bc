import type { Db } from '../../db/knex';
import type { BillingPlan } from './provider';

/** SQL of `billing_subscriptions`: the one module that writes it. An organization has at most one active row. */

export interface SubscriptionRow {
  id: string;
  organization_id: string;
  provider: string;
  external_id: string;
  plan: BillingPlan;
  status: 'active' | 'cancelled';
}

export async function findActiveSubscription(db: Db, organizationId: string): Promise<SubscriptionRow | null> {
  const row = await db<SubscriptionRow>('billing_subscriptions').where({ organization_id: organizationId, status: 'active' }).first();
  return row ?? null;
}

/**
 * Inserts the organization's active subscription unless one exists (the partial unique index on active rows
 * arbitrates concurrent calls); null when another call got there first.
 */
export async function insertActiveSubscription(
  db: Db,
  values: { organizationId: string; provider: string; externalId: string; plan: BillingPlan },
): Promise<SubscriptionRow | null> {
  const rows = (await db('billing_subscriptions')
    .insert({ organization_id: values.organizationId, provider: values.provider, external_id: values.externalId, plan: values.plan })
    .onConflict(db.raw("(organization_id) WHERE status = 'active'"))
    .ignore()
    .returning('*')) as SubscriptionRow[];
  return rows[0] ?? null;
}

export async function updateSubscriptionPlan(db: Db, subscriptionId: string, plan: BillingPlan): Promise<SubscriptionRow> {
  const [row] = (await db('billing_subscriptions')
    .where({ id: subscriptionId })
    .update({ plan, updated_at: db.fn.now() })
    .returning('*')) as SubscriptionRow[];
  return row!;
}

/** Cancels every active subscription of the organization; returns how many. */
export async function cancelActiveSubscriptions(db: Db, organizationId: string): Promise<number> {
  return db('billing_subscriptions')
    .where({ organization_id: organizationId, status: 'active' })
    .update({ status: 'cancelled', cancelled_at: db.fn.now(), updated_at: db.fn.now() });
}
