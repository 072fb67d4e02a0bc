import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describeWithBrowser, launchBrowser, screenshotPath, type TestBrowser } from '../helpers/browser';
import { waitForMail } from '../helpers/mail';
import { startRun, toolNode, waitForRun } from '../helpers/runs';
import type { TestApi } from '../helpers/stack';
import { startApiWithTenant, type TestTenant } from '../helpers/tenants';

/**
 * The page an approval mail links to (docs/runs.md#approval): in real Chromium, an approver follows the mailed link,
 * signs in, sees what the run asks, fills in the form and decides; the run goes on with the values. The page
 * refuses people who may not decide, with the reason.
 */

const PASSWORD = 'Corr3ct-Horse-Battery';
let api: TestApi;
let tenant: TestTenant;
let browser: TestBrowser | undefined;

beforeAll(async () => {
  ({ api, tenant } = await startApiWithTenant());
});
afterAll(async () => {
  await browser?.close();
  await api.close();
});

/** A person with a password, member of the tenant with `role`. */
async function person(role: 'admin' | 'member'): Promise<{ email: string; userId: string }> {
  const email = `approver-${randomUUID().slice(0, 8)}@example.com`;
  const res = await api.request('POST', '/api/auth/register', { body: { email, password: PASSWORD, name: 'Approver' } });
  expect(res.status).toBe(201);
  await api.deps.db('memberships').insert({ organization_id: tenant.organizationId, user_id: res.body.user.id, role });
  return { email, userId: res.body.user.id };
}

async function awaitingRun(): Promise<{ workflowId: string; runId: string; approvalId: string }> {
  const saved = await api.request('POST', '/api/v1/workflows', {
    token: tenant.owner.token,
    body: {
      name: 'Refund <b>order</b>',
      parameters: [{ name: 'order', type: 'string', required: true }],
      dag: {
        nodes: [
          {
            id: 'review',
            type: 'approval',
            config: {
              approvers: { role: 'admin' },
              message: 'Refund order ${params.order}?',
              form: [
                { name: 'amount', label: 'Refund amount', type: 'number', required: true },
                { name: 'reason', type: 'choice', options: ['damaged', 'late'], required: true },
                { name: 'notify', type: 'boolean' },
              ],
            },
          },
          toolNode('refund', 'json_transform', { expression: '$', data: { amount: '${nodes.review.form.amount}', reason: '${nodes.review.form.reason}', notify: '${nodes.review.form.notify}', by: '${nodes.review.comment}' } }),
        ],
        edges: [{ from: 'review', to: 'refund' }],
      },
    },
  });
  expect(saved.status).toBe(201);
  const run = await startRun(api, tenant.owner.token, saved.body.id, { order: 'A-17' });
  const waiting = await waitForRun(api, tenant.owner.token, saved.body.id, run.id, (r) => Boolean(r.node_states?.review?.approval_id), 30_000);
  return { workflowId: saved.body.id, runId: run.id, approvalId: waiting.node_states.review.approval_id };
}

/** The mailed link, as this test's in-process API serves it (mails carry SERVICE_PUBLIC_URL). */
function served(text: string | null): string {
  const link = /(https?:\/\/\S+\/approvals\/decide\?\S+)/.exec(text ?? '')?.[1];
  if (!link) throw new Error(`no approval link in the mail:\n${text}`);
  const url = new URL(link);
  return `${api.baseUrl}${url.pathname}${url.search}`;
}

async function state(page: Page, view: string): Promise<void> {
  try {
    await page.waitForSelector(`body[data-state="${view}"]`, { timeout: 15_000 });
  } catch (err) {
    const shown = { state: await page.getAttribute('body', 'data-state'), message: await page.locator('#message').innerText() };
    throw new Error(`expected "${view}", the page shows ${JSON.stringify(shown)}: ${(err as Error).message}`);
  }
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.fill('#sign-in-form input[name=email]', email);
  await page.fill('#sign-in-form input[name=password]', PASSWORD);
  await page.click('#sign-in-form button[type=submit]');
}

describeWithBrowser('deciding in the browser', () => {
  beforeAll(async () => {
    browser = await launchBrowser();
  });

  test('mail → link → sign in → the approval with its form → approve; the run goes on with the values', async () => {
    const approver = await person('admin');
    const { workflowId, runId, approvalId } = await awaitingRun();
    const mail = await waitForMail(approver.email, /waiting for your approval/);
    const context = await browser!.browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    await page.goto(served(mail.text));
    await state(page, 'sign-in');
    await signIn(page, approver.email);
    await state(page, 'ready');
    await page.screenshot({ path: screenshotPath('approval-ready.png') });
    const ready = (await page.locator('[data-view="ready"]').innerText()).replace(/\s+/g, ' ');
    expect(ready).toContain('Refund <b>order</b>');
    expect(ready).toContain('Refund order A-17?');
    expect(ready).toContain('0 of 1');
    // The workflow's name is text, not markup.
    expect(await page.locator('[data-view="ready"] b').count()).toBe(0);

    // A required field missing: the API's problem is shown, nothing is decided.
    await page.fill('[data-form-field="amount"]', '25.5');
    await page.click('button[value="approve"]');
    await page.waitForSelector('#message:not([hidden])');
    expect(await page.locator('#message').innerText()).toContain('values.reason');

    await page.selectOption('[data-form-field="reason"]', 'damaged');
    await page.check('[data-form-field="notify"]');
    await page.fill('#decision-form textarea[name=comment]', 'box was crushed');
    await page.keyboard.press('Tab');
    await page.click('button[value="approve"]');
    await state(page, 'done');
    expect(await page.locator('[data-field="status"]').first().innerText()).toBe('approved');
    await page.screenshot({ path: screenshotPath('approval-decided.png') });
    await context.close();
    expect(problems).toEqual([]);

    const done = await waitForRun(api, tenant.owner.token, workflowId, runId);
    expect(done.status).toBe('completed');
    expect(done.node_states.refund.output).toEqual({ result: { amount: 25.5, reason: 'damaged', notify: true, by: 'box was crushed' } });
    const view = await api.request('GET', `/api/v1/approvals/${approvalId}`, { token: tenant.owner.token });
    expect(view.body.decisions).toEqual([expect.objectContaining({ user_id: approver.userId, decision: 'approved' })]);
  });

  test('a member below the role is told why they cannot decide; a malformed link says it is not valid', async () => {
    const outsider = await person('member');
    const { approvalId } = await awaitingRun();
    const context = await browser!.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${api.baseUrl}/approvals/decide?organization=${tenant.organizationId}&approval=${approvalId}`);
    await state(page, 'sign-in');
    await signIn(page, outsider.email);
    await state(page, 'closed');
    expect(await page.locator('[data-view="closed"]').innerText()).toContain('not among its approvers');
    await page.screenshot({ path: screenshotPath('approval-closed.png') });

    await page.goto(`${api.baseUrl}/approvals/decide?organization=nope&approval=${approvalId}`);
    await state(page, 'invalid');
    await context.close();
  });
});
