import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { Knex } from 'knex';
import { recordAudit, type AuditActor } from '../audit/record';
import type { AppDeps } from '../deps';
import type { BillingProvider, PaymentEvent } from './provider';
import { findActiveSubscription, findPayment, insertPayment, lockActiveSubscription, newerStatePaymentExists, recentPayments, setBillingState, type PaymentRow } from './queries';
import type { BillingView } from './schemas';
import { tenantPriority } from '../../lib/tenantPriority';

export type BillingServiceDeps = Pick<AppDeps, 'db' | 'config' | 'temporal'> & { billing: BillingProvider };

/** `org-payment-failed-<orgId>-<paymentId>`: one alert per failed payment, whatever redelivers the event. */
export const paymentFailedWorkflowId = (organizationId: string, paymentId: string): string =>
  `org-payment-failed-${organizationId}-${paymentId}`;

const RECENT_PAYMENTS = 10;

/**
 * The organization's billing state, kept from the payments its provider reports (docs/organizations.md#billing):
 * - a failed renewal makes the state `past_due`, writes the audit entry `billing.payment_failed` and alerts the
 *   owners by e-mail (`organizationPaymentFailedWorkflow`, started after the commit: no transaction waits for
 *   Temporal, docs/conventions.md#transactions);
 * - any later successful payment (a renewal or an upgrade) makes it `active` again (`billing.payment_recovered`);
 * - a failed plan-change charge is audited, changes neither plan nor state, and is answered 402 to the caller.
 * Each payment counts once per provider payment id; one older than the payment that last decided the state is
 * recorded (and a failure audited) but changes no state and alerts nobody.
 */
export function createBillingService(d: BillingServiceDeps) {
  const { db, config } = d;

  /**
   * A payment the provider reports on its own (a renewal), as its adapter hands it over (e.g. from a verified
   * webhook). Idempotent: a redelivered event changes nothing. The owners' alert of a failed renewal starts after the
   * commit; Temporal down: the payment stays recorded and this throws, so the provider redelivers, and the
   * redelivery starts the alert (one per payment id: the workflow id rejects a duplicate).
   */
  async function handlePaymentEvent(event: PaymentEvent): Promise<{ recorded: boolean }> {
    const actor: AuditActor = { type: 'system', id: `billing:${event.provider}` };
    const { recorded, alert } = await db.transaction(async (trx) => {
      const inserted = await recordPayment(trx, event, actor);
      const payment = inserted ?? (await findPayment(trx, event.provider, event.paymentId));
      return { recorded: inserted !== null, alert: payment && (await renewalAlertDue(trx, payment)) ? payment : null };
    });
    if (alert) await startPaymentFailedAlert(alert);
    return { recorded };
  }

  /** A failed renewal that no newer payment has settled alerts the owners (plan changes are answered 402 instead). */
  async function renewalAlertDue(trx: Knex.Transaction, payment: PaymentRow): Promise<boolean> {
    if (payment.outcome !== 'failed' || payment.kind !== 'renewal') return false;
    return !(await newerStatePaymentExists(trx, payment.organization_id, payment.occurred_at, payment.id));
  }

  async function startPaymentFailedAlert(payment: PaymentRow): Promise<void> {
    const organizationId = payment.organization_id;
    try {
      await d.temporal.workflow.start('organizationPaymentFailedWorkflow', {
        taskQueue: config.temporal.taskQueue,
        workflowId: paymentFailedWorkflowId(organizationId, payment.external_id),
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        args: [{ organizationId, reason: `${payment.reason ?? 'declined'} (renewal of the ${payment.plan} plan)` }],
        priority: tenantPriority(organizationId),
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }

  /** Records a payment in the caller's transaction and applies it; null when it was recorded before. */
  async function recordPayment(trx: Knex.Transaction, event: PaymentEvent, actor: AuditActor): Promise<PaymentRow | null> {
    const before = await lockActiveSubscription(trx, event.organizationId);
    const payment = await insertPayment(trx, event);
    if (!payment) return null;
    const organizationId = payment.organization_id;
    const decidesState = payment.outcome === 'succeeded' || payment.kind === 'renewal';
    const stale = decidesState && (await newerStatePaymentExists(trx, organizationId, payment.occurred_at, payment.id));

    if (payment.outcome === 'failed') {
      const changed = decidesState && !stale ? await setBillingState(trx, organizationId, 'past_due', payment.occurred_at) : null;
      await recordAudit(trx, {
        organizationId,
        actor,
        action: 'billing.payment_failed',
        target: { type: 'payment', id: payment.external_id },
        after: {
          provider: payment.provider,
          kind: payment.kind,
          plan: payment.plan,
          reason: payment.reason,
          ...(changed ? { billingState: 'past_due' } : {}),
        },
      });
    } else if (!stale) {
      const changed = await setBillingState(trx, organizationId, 'active', payment.occurred_at);
      if (changed) {
        await recordAudit(trx, {
          organizationId,
          actor,
          action: 'billing.payment_recovered',
          target: { type: 'payment', id: payment.external_id },
          before: { billingState: 'past_due', pastDueSince: before?.past_due_since?.toISOString() ?? null },
          after: { billingState: 'active', pastDueSince: null, kind: payment.kind, plan: payment.plan },
        });
      }
    }
    return payment;
  }

  /** The organization's billing view; `withPayments` for roles with the billing permission. */
  async function view(organizationId: string, withPayments: boolean): Promise<BillingView> {
    const [subscription, payments] = await Promise.all([
      findActiveSubscription(db, organizationId),
      withPayments ? recentPayments(db, organizationId, RECENT_PAYMENTS) : Promise.resolve(null),
    ]);
    return {
      organizationID: organizationId,
      provider: subscription?.provider ?? d.billing.name,
      state: subscription?.billing_state ?? 'active',
      pastDueSince: subscription?.past_due_since?.toISOString() ?? null,
      subscription: subscription ? { id: subscription.id, plan: subscription.plan, status: subscription.status } : null,
      ...(payments
        ? {
            payments: payments.map((p) => ({
              id: p.external_id,
              kind: p.kind,
              outcome: p.outcome,
              plan: p.plan,
              reason: p.reason,
              occurredAt: p.occurred_at.toISOString(),
            })),
          }
        : {}),
    };
  }

  return { handlePaymentEvent, recordPayment, view };
}

export type BillingService = ReturnType<typeof createBillingService>;
