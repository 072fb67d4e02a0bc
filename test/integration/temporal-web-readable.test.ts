import { randomUUID } from 'node:crypto';
import type { WorkflowExecutionDescription } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { Page } from 'playwright-core';
import { describeWithBrowser, launchBrowser, screenshotPath, type TestBrowser } from '../helpers/browser';
import { createWorkflowFixture, RUN_TEST_CONFIG, toolNode, waitForRun, type RunBody } from '../helpers/runs';
import type { TestApi } from '../helpers/stack';
import { startApiWithTenant, type TestTenant } from '../helpers/tenants';

/**
 * Temporal Web shows a run by what it is (docs/operating.md#temporal-web): the execution starts with a summary
 * `<workflow name> v<version> · <trigger>`, markdown details, a memo with the names behind the ids and the request
 * that started it, the LoomWorkflowName search attribute; each tool activity names its node (activity id and
 * summary; local activities, whose ids are the SDK's, by summary), so two json_transform nodes are told apart.
 * The screenshot is of Temporal Web's own page for the run, in real Chromium.
 */

let api: TestApi;
let tenant: TestTenant;
let token: string;
let run: RunBody;
let description: WorkflowExecutionDescription;
let organizationName: string;
const workflowName = `Invoice sync ${randomUUID().slice(0, 8)}`;
const requestId = `tw-readable-${randomUUID()}`;

const transform = (id: string, expression: string, extra: Record<string, unknown> = {}) =>
  toolNode(id, 'json_transform', { expression, data: null }, extra);

beforeAll(async () => {
  ({ api, tenant, token } = await startApiWithTenant(RUN_TEST_CONFIG));
  organizationName = (await api.deps.db('organizations').where({ id: tenant.organizationId }).first('name')).name;
  const workflowId = await createWorkflowFixture(api, tenant, {
    name: workflowName,
    nodes: [
      transform('load_invoices', '[1, 2, 3]'),
      toolNode('reshape', 'json_transform', { expression: '$sum($)' }, { inputs: [{ name: 'data', from: 'load_invoices.result' }] }),
      toolNode('pause', 'delay', { ms: 5, value: 'ok' }),
    ],
    edges: [
      { from: 'load_invoices', to: 'reshape' },
      { from: 'reshape', to: 'pause' },
    ],
  });
  const started = await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, {
    token,
    body: { parameters: {} },
    headers: { 'x-request-id': requestId },
  });
  expect(started.status).toBe(201);
  run = await waitForRun(api, token, workflowId, started.body.id);
  expect(run.status).toBe('completed');
  description = await api.deps.temporal.workflow.getHandle(run.id).describe();
}, 120_000);

afterAll(() => api.close());

test('the execution starts with a summary, details, a memo of names and the LoomWorkflowName attribute', async () => {
  expect(await description.staticSummary()).toBe(`${workflowName} v1 · manual`);
  const details = await description.staticDetails();
  expect(details).toContain(`**Run** \`${run.id}\``);
  expect(details).toContain(`**Organization** ${organizationName} (\`${tenant.organizationId}\`)`);
  expect(details).toContain(`**Request** \`${requestId}\``);
  expect(description.memo).toEqual({
    organizationId: tenant.organizationId,
    organizationName,
    workflowId: run.workflow_id,
    workflowName,
    workflowVersion: 1,
    trigger: 'manual',
    requestId,
  });
  expect(description.searchAttributes.LoomWorkflowName).toEqual([workflowName]);
  // and it can be searched by it
  const listed = [];
  for await (const execution of api.deps.temporal.workflow.list({ query: `LoomWorkflowName = '${workflowName}'` })) listed.push(execution.workflowId);
  expect(listed).toEqual([run.id]);
});

test('activities name their node: activity id and summary, local activities by summary', async () => {
  const history = await api.deps.temporal.workflow.getHandle(run.id).fetchHistory();
  const summaryOf = (event: { userMetadata?: { summary?: unknown } | null }): unknown =>
    event.userMetadata?.summary ? defaultPayloadConverter.fromPayload(event.userMetadata.summary as never) : undefined;
  const scheduled = (history.events ?? [])
    .filter((e) => e.activityTaskScheduledEventAttributes)
    .map((e) => ({
      type: e.activityTaskScheduledEventAttributes!.activityType?.name,
      id: e.activityTaskScheduledEventAttributes!.activityId,
      summary: summaryOf(e),
    }));
  expect(scheduled).toContainEqual({ type: 'delay', id: 'pause', summary: 'pause · delay' });
  // json_transform runs as a local activity: a marker per call, told apart by its summary
  const localSummaries = (history.events ?? [])
    .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity')
    .map(summaryOf)
    .filter((s) => typeof s === 'string' && s.includes('json_transform'));
  expect(localSummaries).toEqual(['load_invoices · json_transform', 'reshape · json_transform']);
});

test("a node's attempts, one after another, share its activity id", async () => {
  // Temporal refuses a second pending activity with an id in use; attempts are sequential, so the node id holds.
  const workflowId = await createWorkflowFixture(api, tenant, {
    nodes: [toolNode('flaky', 'fail', { mode: 'times', times: 2 })],
    errorHandling: { retry_config: { max_attempts: 3, backoff: 'linear', initial_delay: 50 } },
  });
  const started = await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, { token, body: { parameters: {} } });
  const flaky = await waitForRun(api, token, workflowId, started.body.id);
  expect(flaky.node_states.flaky).toMatchObject({ status: 'completed', attempts: 3 });
  const history = await api.deps.temporal.workflow.getHandle(flaky.id).fetchHistory();
  const ids = (history.events ?? []).flatMap((e) => (e.activityTaskScheduledEventAttributes?.activityType?.name === 'fail' ? [e.activityTaskScheduledEventAttributes.activityId] : []));
  expect(ids).toEqual(['flaky', 'flaky', 'flaky']);
}, 60_000);

describeWithBrowser('Temporal Web in Chromium', () => {
  let browser: TestBrowser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Temporal Web renders summary and details (markdown) each in its own iframe: waits for one showing `text`. */
  async function frameShowing(page: Page, text: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      for (const frame of page.frames()) {
        const shown = await frame.evaluate<string>("document.body ? document.body.innerText : ''").catch(() => '');
        if (shown.includes(text)) return;
      }
      if (Date.now() > deadline) throw new Error(`no frame of the page shows ${JSON.stringify(text)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  test("the run's page shows its summary, details, node summaries and memo (screenshots)", async () => {
    const page = await browser.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    try {
      await page.goto(run.links.temporal, { waitUntil: 'domcontentloaded' });
      // Temporal Web 2.42's "User Metadata" tab: the summary, the details, and the events that carry a summary
      await page.getByRole('tab', { name: 'User Metadata' }).click();
      await frameShowing(page, `${workflowName} v1 · manual`);
      await frameShowing(page, `Request ${requestId}`);
      await frameShowing(page, `Organization ${organizationName}`);
      const main = page.locator('main');
      for (const text of ['load_invoices · json_transform', 'reshape · json_transform', 'pause · delay']) {
        await main.getByText(text).first().waitFor({ state: 'visible', timeout: 15_000 });
      }
      await page.screenshot({ path: screenshotPath('temporal-web-run.png') });
      await page.getByRole('tab', { name: 'Memo' }).click();
      await main.getByText(requestId).first().waitFor({ state: 'visible', timeout: 15_000 });
      await page.screenshot({ path: screenshotPath('temporal-web-memo.png') });
    } finally {
      await page.close();
    }
  }, 60_000);
});
