import { describeWithBrowser, launchBrowser, screenshotPath, type TestBrowser } from '../helpers/browser';
import { createWorkflowFixture, RUN_TEST_CONFIG, runToEnd, startRun, toolNode, waitForRun } from '../helpers/runs';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';
import { STATUS_COLOURS } from '../../lib/picture/runSvg';

let api: TestApi;
let tenant: TestTenant;
let finished: { workflowId: string; runId: string };

const transform = (id: string, expression: string) => toolNode(id, 'json_transform', { expression, data: null });

beforeAll(async () => {
  api = await startApi(RUN_TEST_CONFIG);
  tenant = await createTestTenant(api);
  // start -> check -> yes (taken) | no (skipped); yes -> broken (fails: invalid JSONata, not retryable)
  const workflowId = await createWorkflowFixture(api, tenant, {
    name: 'Picture fixture',
    nodes: [
      transform('start', '1'),
      { id: 'check', type: 'condition', config: { expression: 'true', trueBranch: 'yes', falseBranch: 'no' } },
      transform('yes', '2'),
      transform('no', '3'),
      transform('broken', '$string('),
    ],
    edges: [
      { from: 'start', to: 'check' },
      { from: 'yes', to: 'broken' },
    ],
  });
  const run = await runToEnd(api, tenant.owner.token, workflowId);
  expect(run.status).toBe('failed');
  finished = { workflowId, runId: run.id };
});

afterAll(async () => {
  await api.close();
});

const svgPath = (workflowId: string, runId: string) => `/api/v1/workflows/${workflowId}/runs/${runId}/picture.svg`;

describe('GET .../picture.svg', () => {
  it('draws every node with its state, attempts and the run status', async () => {
    const res = await api.request('GET', svgPath(finished.workflowId, finished.runId), { token: tenant.owner.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get('x-run-status')).toBe('failed');
    expect(res.headers.get('x-temporal-url')).toContain(finished.runId);
    const nodes = [...res.text.matchAll(/data-node-id="([^"]+)" data-status="([^"]+)"/g)].map((m) => [m[1], m[2]]);
    expect(Object.fromEntries(nodes)).toEqual({
      start: 'completed',
      check: 'completed',
      yes: 'completed',
      no: 'skipped',
      broken: 'failed',
    });
    expect(res.text).toContain('json_transform');
    expect(res.text.match(/class="edge"/g)).toHaveLength(4);
  });

  it('answers 404 for a run of another organization and 401 without a token', async () => {
    const other = await createTestTenant(api);
    const res = await api.request('GET', svgPath(finished.workflowId, finished.runId), { token: other.owner.token });
    expect(res.status).toBe(404);
    expect((await api.request('GET', svgPath(finished.workflowId, finished.runId))).status).toBe(401);
  });

  it('refuses ids that are not UUIDs', async () => {
    const res = await api.request('GET', svgPath('nope', finished.runId), { token: tenant.owner.token });
    expect(res.status).toBe(400);
  });
});

describeWithBrowser('run picture page in headless Chromium', () => {
  let browser: TestBrowser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  const pageUrl = (workflowId: string, runId: string, token: string) =>
    `${api.baseUrl}/ui/workflows/${workflowId}/runs/${runId}/picture#token=${encodeURIComponent(token)}`;

  it('shows a finished run with each node coloured by its state', async () => {
    const page = await browser.browser.newPage({ viewport: { width: 1400, height: 700 } });
    await page.goto(pageUrl(finished.workflowId, finished.runId, tenant.owner.token));
    await page.waitForSelector('body[data-run-status="failed"]');
    const nodes = await page.$$eval('#picture g.node', (els) =>
      els.map((g) => ({
        id: g.getAttribute('data-node-id'),
        status: g.getAttribute('data-status'),
        fill: g.querySelector('rect')?.getAttribute('fill'),
      })),
    );
    expect(nodes).toHaveLength(5);
    for (const node of nodes) expect(node.fill).toBe(STATUS_COLOURS[node.status!]!.fill);
    expect(nodes.find((n) => n.id === 'broken')?.status).toBe('failed');
    expect(nodes.find((n) => n.id === 'no')?.status).toBe('skipped');
    // The token left the address bar once read.
    expect(page.url()).not.toContain('token=');
    expect(await page.textContent('#status')).toBe('failed');
    await page.screenshot({ path: screenshotPath('run-picture.png') });
    await page.close();
  });

  it('refreshes a live run until it ends', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      name: 'Live picture',
      nodes: [transform('first', '1'), toolNode('wait', 'delay', { ms: 120_000 }), transform('after', '2')],
      edges: [
        { from: 'first', to: 'wait' },
        { from: 'wait', to: 'after' },
      ],
    });
    const token = tenant.owner.token;
    const run = await startRun(api, token, workflowId);
    await waitForRun(api, token, workflowId, run.id, (r) => r.node_states?.wait?.status === 'running');

    const page = await browser.browser.newPage({ viewport: { width: 1200, height: 500 } });
    await page.goto(pageUrl(workflowId, run.id, token));
    await page.waitForSelector('#picture g.node[data-node-id="wait"][data-status="running"]');
    expect(await page.getAttribute('#picture g.node[data-node-id="wait"] rect', 'fill')).toBe(STATUS_COLOURS.running!.fill);
    await page.screenshot({ path: screenshotPath('run-picture-live.png') });

    const cancelled = await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${run.id}/cancel`, { token });
    expect(cancelled.status).toBe(200);
    await page.waitForSelector('body[data-run-status="cancelled"]', { timeout: 30_000 });
    expect(await page.getAttribute('#picture g.node[data-node-id="wait"]', 'data-status')).toBe('cancelled');
    await page.close();
  });

  it('asks for a token when none is given', async () => {
    const page = await browser.browser.newPage();
    await page.goto(`${api.baseUrl}/ui/workflows/${finished.workflowId}/runs/${finished.runId}/picture`);
    await page.waitForSelector('#token-form.shown');
    expect(await page.textContent('#message')).toMatch(/token/);
    await page.close();
  });
});
