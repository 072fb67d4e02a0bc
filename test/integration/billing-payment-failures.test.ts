import { createBillingService, paymentFailedWorkflowId, type BillingService } from '../../domain/billing/service';
import { createTestBillingProvider, testBillingSwitch, type TestBillingProvider } from '../../domain/billing/testProvider';
import { loadConfig } from '../../lib/config';
import { mailsTo, waitForMail } from '../helpers/mail';
import { startApi, type TestApi } from '../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant } from '../helpers/tenants';

/**
 * Payment failures end to end (issue 22): the API runs with SERVICE_BILLING_PROVIDER=test, whose charges fail while
 * `testBillingSwitch.failPayments` is on for the organization. Renewals are what a real provider reports by
 * webhook: the test charges one with the provider's `renew()` and hands the event to the billing service, as the
 * provider's adapter would. PostgreSQL, Temporal (the alert workflow on the run's worker) and the mail catcher are real.
 */

let api: TestApi;
let provider: TestBillingProvider;
let billing: BillingService;

beforeAll(async () => {
  api = await startApi({ SERVICE_BILLING_PROVIDER: 'test' });
  provider = createTestBillingProvider(api.deps.db);
  billing = createBillingService({ ...api.deps, billing: provider });
});
afterAll(async () => {
  await api.close();
});

const changePlan = (t: TestTenant, plan: string) =>
  api.request('PUT', `/api/v1/organizations/${t.organizationId}/plan`, { token: t.owner.token, body: { plan } });
const billingView = (t: TestTenant, token = t.owner.token) =>
  api.request('GET', `/api/v1/organizations/${t.organizationId}/billing`, { token });
const auditOf = async (t: TestTenant, action: string) =>
  (await api.request('GET', `/api/v1/organizations/${t.organizationId}/audit-logs?action=${action}`, { token: t.owner.token })).body.data as {
    actor: { type: string; id: string | null };
    target: { type: string; id: string } | null;
    changes: { before: Record<string, unknown> | null; after: Record<string, unknown> | null } | null;
  }[];

/** A free tenant upgraded to pro with a successful charge: it has a subscription at the test provider. */
async function proTenant(): Promise<TestTenant> {
  const t = await createTestTenant(api, 'free');
  const up = await changePlan(t, 'pro');
  expect(up.status).toBe(200);
  return t;
}

async function failedRenewal(t: TestTenant, reason: string) {
  testBillingSwitch.failPayments(t.organizationId, reason);
  const event = await provider.renew(t.organizationId);
  expect(event).toMatchObject({ kind: 'renewal', outcome: 'failed', reason, plan: 'pro' });
  expect(await billing.handlePaymentEvent(event!)).toEqual({ recorded: true });
  return event!;
}

describe('plan change', () => {
  test('an upgrade whose charge fails is refused with 402 PAYMENT_FAILED and changes nothing', async () => {
    const t = await createTestTenant(api, 'free');
    testBillingSwitch.failPayments(t.organizationId, 'card_declined');

    const res = await changePlan(t, 'pro');
    expect(res.status).toBe(402);
    expect(res.body.error.code).toBe('PAYMENT_FAILED');
    expect(res.body.error.message).toMatch(/card_declined.*stays on the free plan/);

    expect((await api.request('GET', `/api/v1/organizations/${t.organizationId}`, { token: t.owner.token })).body.plan).toBe('free');
    const view = await billingView(t);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ provider: 'test', state: 'active', pastDueSince: null, subscription: { plan: 'free', status: 'active' } });
    expect(view.body.payments).toEqual([expect.objectContaining({ kind: 'plan_change', outcome: 'failed', plan: 'pro', reason: 'card_declined' })]);

    const [entry] = await auditOf(t, 'billing.payment_failed');
    expect(entry).toMatchObject({ actor: { type: 'user', id: t.owner.userId }, target: { type: 'payment' } });
    expect(entry!.changes!.after).toMatchObject({ kind: 'plan_change', plan: 'pro', reason: 'card_declined' });
    expect(await auditOf(t, 'organization.plan_changed')).toHaveLength(0);

    // A failed upgrade is answered to the owner who asked; nobody is mailed and the state stays active.
    expect(await mailsTo(t.owner.email)).toHaveLength(0);

    // Once the card works the same upgrade goes through; a downgrade never charges.
    testBillingSwitch.acceptPayments(t.organizationId);
    expect((await changePlan(t, 'pro')).body.plan).toBe('pro');
    testBillingSwitch.failPayments(t.organizationId);
    expect((await changePlan(t, 'free')).status).toBe(200);
  });

  test('the local provider never charges: upgrades go through', async () => {
    const local = await startApi();
    try {
      const t = await createTestTenant(local, 'free');
      testBillingSwitch.failPayments(t.organizationId);
      const res = await local.request('PUT', `/api/v1/organizations/${t.organizationId}/plan`, { token: t.owner.token, body: { plan: 'pro' } });
      expect(res.status).toBe(200);
      const view = await local.request('GET', `/api/v1/organizations/${t.organizationId}/billing`, { token: t.owner.token });
      expect(view.body).toMatchObject({ provider: 'local', state: 'active', payments: [] });
    } finally {
      await local.close();
    }
  });
});

describe('renewal', () => {
  test('a failed renewal: past_due, the owners alerted by e-mail, an audit entry; a later payment recovers', async () => {
    const t = await proTenant();
    const admin = await addTestMember(api, t, 'admin');
    const viewer = await addTestMember(api, t, 'viewer');

    const event = await failedRenewal(t, 'insufficient_funds');

    // The state, for every member; the payments only for the billing role.
    const view = await billingView(t);
    expect(view.body).toMatchObject({ state: 'past_due', subscription: { plan: 'pro' } });
    expect(Date.parse(view.body.pastDueSince)).toBe(event.occurredAt.getTime());
    expect(view.body.payments[0]).toMatchObject({ id: event.paymentId, kind: 'renewal', outcome: 'failed', reason: 'insufficient_funds' });
    const seenByViewer = await billingView(t, viewer.token);
    expect(seenByViewer.status).toBe(200);
    expect(seenByViewer.body.state).toBe('past_due');
    expect(seenByViewer.body).not.toHaveProperty('payments');

    // The alert: the owners (the role with the billing permission), once per payment.
    const mail = await waitForMail(t.owner.email, /Payment failed for/, 30_000);
    expect(mail.text).toContain('insufficient_funds (renewal of the pro plan)');
    const handle = api.deps.temporal.workflow.getHandle(paymentFailedWorkflowId(t.organizationId, event.paymentId));
    expect(await handle.result()).toEqual({ notified: 1 });
    expect(await mailsTo(admin.email)).toHaveLength(0);

    const [entry] = await auditOf(t, 'billing.payment_failed');
    expect(entry).toMatchObject({ actor: { type: 'system', id: 'billing:test' }, target: { type: 'payment', id: event.paymentId } });
    expect(entry!.changes!.after).toMatchObject({ kind: 'renewal', plan: 'pro', reason: 'insufficient_funds', billingState: 'past_due' });

    // The provider redelivers the same event: nothing more happens.
    expect(await billing.handlePaymentEvent(event)).toEqual({ recorded: false });
    expect(await auditOf(t, 'billing.payment_failed')).toHaveLength(1);

    // A second failure keeps the streak's start and alerts again.
    const second = await failedRenewal(t, 'card_expired');
    expect((await billingView(t)).body.pastDueSince).toBe(view.body.pastDueSince);
    await waitForMail(t.owner.email, /Payment failed for/, 30_000);
    await api.deps.temporal.workflow.getHandle(paymentFailedWorkflowId(t.organizationId, second.paymentId)).result();
    expect((await mailsTo(t.owner.email)).filter((m) => /Payment failed/.test(m.subject))).toHaveLength(2);

    // Recovery: the next renewal succeeds.
    testBillingSwitch.acceptPayments(t.organizationId);
    const paid = await provider.renew(t.organizationId);
    expect(paid).toMatchObject({ outcome: 'succeeded', reason: null });
    await billing.handlePaymentEvent(paid!);
    expect((await billingView(t)).body).toMatchObject({ state: 'active', pastDueSince: null });
    const [recovered] = await auditOf(t, 'billing.payment_recovered');
    expect(recovered).toMatchObject({ actor: { type: 'system', id: 'billing:test' }, target: { type: 'payment', id: paid!.paymentId } });
    expect(recovered!.changes).toMatchObject({ before: { billingState: 'past_due' }, after: { billingState: 'active', kind: 'renewal' } });
  });

  test('a successful upgrade also ends a past-due streak', async () => {
    const t = await proTenant();
    await failedRenewal(t, 'card_declined');
    expect((await billingView(t)).body.state).toBe('past_due');

    testBillingSwitch.acceptPayments(t.organizationId);
    expect((await changePlan(t, 'enterprise')).status).toBe(200);
    expect((await billingView(t)).body).toMatchObject({ state: 'active', subscription: { plan: 'enterprise' } });
    const [recovered] = await auditOf(t, 'billing.payment_recovered');
    expect(recovered).toMatchObject({ actor: { type: 'user', id: t.owner.userId } });
  });

  test('a failed renewal delivered after a newer success is recorded but does not make the organization past due', async () => {
    const t = await proTenant();
    testBillingSwitch.failPayments(t.organizationId, 'card_declined');
    const late = (await provider.renew(t.organizationId))!;
    testBillingSwitch.acceptPayments(t.organizationId);
    const newer = (await provider.renew(t.organizationId))!;
    newer.occurredAt = new Date(late.occurredAt.getTime() + 1000);

    await billing.handlePaymentEvent(newer);
    expect(await billing.handlePaymentEvent(late)).toEqual({ recorded: true });
    const view = await billingView(t);
    expect(view.body.state).toBe('active');
    expect(view.body.payments.map((p: { id: string }) => p.id)).toEqual([newer.paymentId, late.paymentId, expect.any(String)]);
    expect(await auditOf(t, 'billing.payment_failed')).toHaveLength(1);
  });
});

describe('tenancy and configuration', () => {
  test("another organization's billing answers 404", async () => {
    const mine = await createTestTenant(api);
    const theirs = await proTenant();
    const res = await api.request('GET', `/api/v1/organizations/${theirs.organizationId}/billing`, { token: mine.owner.token });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  test('the test provider is refused in production', () => {
    const production = {
      SERVICE_JWT_SECRET: 'x'.repeat(40),
      NODE_ENV: 'production',
      SERVICE_ENCRYPTION_KEY: 'k'.repeat(32),
      MINIO_ACCESS_KEY: 'a-real-key',
      MINIO_SECRET_KEY: 'a-real-secret',
    };
    expect(() => loadConfig({ ...production, SERVICE_BILLING_PROVIDER: 'test' })).toThrow(/SERVICE_BILLING_PROVIDER: the test provider/);
    expect(loadConfig(production).organizations.billingProvider).toBe('local');
    expect(() => loadConfig({ ...production, SERVICE_BILLING_PROVIDER: 'stripe' })).toThrow(/SERVICE_BILLING_PROVIDER/);
  });
});
