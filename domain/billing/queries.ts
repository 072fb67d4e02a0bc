import type { Db } from '../../db/knex';
import type { BillingPlan, PaymentEvent } from './provider';

/**
 * SQL of `billing_subscriptions` and `billing_payments` (migration 1010): the one module that writes them. An
 * organization has at most one active subscription; its `billing_state` says whether its payments are up to date.
 */

export type BillingState = 'active' | 'past_due';

export interface SubscriptionRow {
  id: string;
  organization_id: string;
  provider: string;
  external_id: string;
  plan: BillingPlan;
  status: 'active' | 'cancelled';
  billing_state: BillingState;
  past_due_since: Date | null;
}

export interface PaymentRow {
  id: string;
  organization_id: string;
  provider: string;
  external_id: string;
  kind: PaymentEvent['kind'];
  outcome: PaymentEvent['outcome'];
  plan: BillingPlan;
  reason: string | null;
  occurred_at: Date;
  created_at: Date;
}

export async function findActiveSubscription(db: Db, organizationId: string): Promise<SubscriptionRow | null> {
  const row = await db<SubscriptionRow>('billing_subscriptions').where({ organization_id: organizationId, status: 'active' }).first();
  return row ?? null;
}

/** The active subscription, locked until the transaction ends: payments of one organization apply one at a time. */
export async function lockActiveSubscription(trx: Db, organizationId: string): Promise<SubscriptionRow | null> {
  const row = await trx<SubscriptionRow>('billing_subscriptions').where({ organization_id: organizationId, status: 'active' }).forUpdate().first();
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

/**
 * Moves the active subscription to `state`; the row when it changed, null when it already was there (or the
 * organization has no active subscription). `past_due_since` keeps the first failure of a streak.
 */
export async function setBillingState(db: Db, organizationId: string, state: BillingState, at: Date): Promise<SubscriptionRow | null> {
  const [row] = (await db('billing_subscriptions')
    .where({ organization_id: organizationId, status: 'active' })
    .whereNot('billing_state', state)
    .update({ billing_state: state, past_due_since: state === 'past_due' ? at : null, updated_at: db.fn.now() })
    .returning('*')) as SubscriptionRow[];
  return row ?? null;
}

/** Records a payment once per provider and payment id; null when it was already recorded (a redelivery). */
export async function insertPayment(db: Db, event: PaymentEvent): Promise<PaymentRow | null> {
  const rows = (await db('billing_payments')
    .insert({
      organization_id: event.organizationId,
      provider: event.provider,
      external_id: event.paymentId,
      kind: event.kind,
      outcome: event.outcome,
      plan: event.plan,
      reason: event.reason,
      occurred_at: event.occurredAt,
    })
    .onConflict(['provider', 'external_id'])
    .ignore()
    .returning('*')) as PaymentRow[];
  return rows[0] ?? null;
}

/** A payment recorded before (a redelivered event finds its row). */
export async function findPayment(db: Db, provider: string, externalId: string): Promise<PaymentRow | null> {
  const row = (await db('billing_payments').where({ provider, external_id: externalId }).first()) as PaymentRow | undefined;
  return row ?? null;
}

/**
 * Whether a payment that decides the billing state (any success, a failed renewal) happened after `at`: an event
 * that arrives late must not undo what a newer one decided.
 */
export async function newerStatePaymentExists(db: Db, organizationId: string, at: Date, exceptId: string): Promise<boolean> {
  const row = await db('billing_payments')
    .where('organization_id', organizationId)
    .andWhere('occurred_at', '>', at)
    .andWhereNot('id', exceptId)
    .andWhere((q) => q.where('outcome', 'succeeded').orWhere('kind', 'renewal'))
    .first('id');
  return Boolean(row);
}

/** The organization's most recent payments, newest first. */
export async function recentPayments(db: Db, organizationId: string, limit: number): Promise<PaymentRow[]> {
  return db<PaymentRow>('billing_payments')
    .where('organization_id', organizationId)
    .orderBy([{ column: 'occurred_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(limit);
}
