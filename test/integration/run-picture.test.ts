import { describeWithBrowser, launchBrowser, screenshotPath, type TestBrowser } from '../helpers/browser';
import { createWorkflowFixture, RUN_TEST_CONFIG, runToEnd, startRun, toolNode, waitForRun } from '../helpers/runs';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';
import { STATUS_COLOURS } from '../../lib/picture/runSvg';

let api: TestApi;
let tenant: TestTenant;
let finished: { workflowId: string; runId: string };
/** Parallel branches, loops, long and stored outputs and hostile texts: one failed run. */
let shapes: { workflowId: string; runId: string };

/** Output and error texts that would run script if a page ever put them in as markup. */
const XSS_OUTPUT = '<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2"></pre>';
const XSS_ERROR = '<img src=x onerror="window.__xss = 3"><b>bold</b>';

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

  const loop = (id: string, expression: string) => ({
    id,
    type: 'loop',
    config: {
      items: 'params.list',
      iterator: 'n',
      concurrency: 1,
      template: { type: 'tool', config: { tool: 'json_transform', config: { expression, data: '${n}' } } },
    },
  });
  const shapesId = await createWorkflowFixture(api, tenant, {
    name: 'Shapes <script>window.__xss = 4</script>',
    parameters: [{ name: 'list', type: 'array', required: true }],
    nodes: [
      { id: 'fan', type: 'parallel', config: { branches: [{ id: 'left', nodes: ['a'] }, { id: 'right', nodes: ['b1', 'b2'] }] } },
      transform('a', '"A"'),
      transform('b1', '"B1"'),
      transform('b2', '"B2"'),
      loop('ok_loop', '$ * 10'),
      loop('bad_loop', '$ = 2 ? $error("two is not welcome") : $'),
      transform('long', '[1..300]'),
      transform('big', '[1..1000]'),
      transform('xss', JSON.stringify(XSS_OUTPUT)),
      transform('xss_fail', `$error(${JSON.stringify(XSS_ERROR)})`),
    ],
    edges: [
      { from: 'b1', to: 'b2' },
      { from: 'fan', to: 'ok_loop' },
      { from: 'ok_loop', to: 'bad_loop' },
    ],
  });
  const shapesRun = await runToEnd(api, tenant.owner.token, shapesId, { list: [1, 2, 3] });
  expect(shapesRun.status).toBe('failed');
  expect(shapesRun.node_states.ok_loop.status).toBe('completed');
  expect(shapesRun.node_states.bad_loop.error.message).toMatch(/^item 1: /);
  expect(shapesRun.node_states.xss_fail.error.message).toContain(XSS_ERROR);
  expect(shapesRun.node_states.big.output.$ref).toBeDefined();
  shapes = { workflowId: shapesId, runId: shapesRun.id };
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

const jsonPath = (workflowId: string, runId: string) => `/api/v1/workflows/${workflowId}/runs/${runId}/picture.json`;

describe('GET .../picture.json', () => {
  it('gives each node its input, output, error and attempts, and 304 while nothing moved', async () => {
    const token = tenant.owner.token;
    const res = await api.request('GET', jsonPath(finished.workflowId, finished.runId), { token });
    expect(res.status).toBe(200);
    expect(res.body.run).toMatchObject({ id: finished.runId, status: 'failed', parent: null });
    expect(res.body.svg).toContain('data-node-id="broken"');
    expect(res.body.nodes.broken).toMatchObject({ status: 'failed', attempts: 1, error: { code: 'EXPRESSION_INVALID' }, output: null });
    expect(res.body.nodes.yes.output).toMatchObject({ text: '{\n  "result": 2\n}', truncated: false });
    expect(JSON.parse(res.body.nodes.yes.input.text)).toEqual({ expression: '2', data: null });
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^W\/"/);

    const again = await api.request('GET', jsonPath(finished.workflowId, finished.runId), { token, headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    const other = await api.request('GET', jsonPath(shapes.workflowId, shapes.runId), { token, headers: { 'if-none-match': etag! } });
    expect(other.status).toBe(200);
  });

  it('shows loop progress, parallel branches and cuts long values with a note', async () => {
    const res = await api.request('GET', jsonPath(shapes.workflowId, shapes.runId), { token: tenant.owner.token });
    expect(res.status).toBe(200);
    const { nodes } = res.body;
    expect(nodes.ok_loop.loop).toEqual({ total: 3, done: 3, failedItems: [], text: '3 of 3 items' });
    // One item at a time: item 0 finished before item 1 failed (the node state's live count, kept after the failure).
    expect(nodes.bad_loop.loop).toEqual({ total: 3, done: 1, failedItems: [1], text: 'item [1] failed · 3 items' });
    expect(nodes.fan.parallel.branches).toEqual([{ id: 'left', nodes: ['a'] }, { id: 'right', nodes: ['b1', 'b2'] }]);
    expect(nodes.b2.branchOf).toEqual({ parallel: 'fan', branch: 'right' });
    expect(nodes.long.output.truncated).toBe(true);
    expect(nodes.long.output.text).toHaveLength(2000);
    expect(nodes.long.output.totalChars).toBeGreaterThan(2000);
    expect(nodes.big.output.downloadUrl).toMatch(/^http/);
    expect(res.body.svg.match(/class="branch-group"/g)).toHaveLength(2);
    expect(res.body.svg).not.toContain('<script>');
  });

  it('answers 404 for a run of another organization', async () => {
    const other = await createTestTenant(api);
    const res = await api.request('GET', jsonPath(finished.workflowId, finished.runId), { token: other.owner.token });
    expect(res.status).toBe(404);
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

  it("shows a failed node's error text without hovering", async () => {
    const page = await browser.browser.newPage({ viewport: { width: 1400, height: 700 } });
    await page.goto(pageUrl(finished.workflowId, finished.runId, tenant.owner.token));
    await page.waitForSelector('body[data-run-status="failed"]');
    const error = page.locator('#picture g.node[data-node-id="broken"] text.error');
    expect(await error.isVisible()).toBe(true);
    expect(await error.textContent()).toMatch(/^EXPRESSION_INVALID: JSONata/);
    // Drawn as text in the node, not a tooltip: it takes room on the screen.
    const box = await error.boundingBox();
    expect(box!.width).toBeGreaterThan(50);
    await page.close();
  });

  it("opens a node's input, output and attempts on click, and by keyboard", async () => {
    const page = await browser.browser.newPage({ viewport: { width: 1600, height: 800 } });
    await page.goto(pageUrl(finished.workflowId, finished.runId, tenant.owner.token));
    await page.waitForSelector('body[data-run-status="failed"]');
    expect(await page.isVisible('#panel')).toBe(false);
    await page.click('#picture g.node[data-node-id="yes"]');
    await page.waitForSelector('#panel[data-node-id="yes"]');
    expect(await page.textContent('#panel-title')).toBe('yes');
    expect(JSON.parse((await page.textContent('#panel-output'))!)).toEqual({ result: 2 });
    expect(JSON.parse((await page.textContent('#panel-input'))!)).toEqual({ expression: '2', data: null });
    const facts = await page.textContent('#panel-facts');
    expect(facts).toContain('attempts1');
    expect(facts).toContain('statuscompleted');
    expect(await page.isVisible('#panel-error')).toBe(false);
    expect(await page.getAttribute('#picture g.node[data-node-id="yes"]', 'class')).toContain('selected');

    // Keyboard: focus the failed node, Enter opens it; Escape closes the panel.
    await page.focus('#picture g.node[data-node-id="broken"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('#panel[data-node-id="broken"]');
    expect(await page.textContent('#panel-error-code')).toBe('EXPRESSION_INVALID');
    expect(await page.textContent('#panel-output-note')).toBe('no output: the node failed');
    await page.screenshot({ path: screenshotPath('run-picture-panel.png') });
    await page.keyboard.press('Escape');
    expect(await page.isVisible('#panel')).toBe(false);
    await page.close();
  });

  it('shows loop progress, parallel branches as groups and a truncated output with its note', async () => {
    const page = await browser.browser.newPage({ viewport: { width: 1800, height: 1000 } });
    await page.goto(pageUrl(shapes.workflowId, shapes.runId, tenant.owner.token));
    await page.waitForSelector('body[data-run-status="failed"]');
    expect(await page.textContent('#picture g.node[data-node-id="ok_loop"] text.loop-progress')).toBe('3 of 3 items');
    expect(await page.textContent('#picture g.node[data-node-id="bad_loop"] text.loop-progress')).toBe('item [1] failed · 3 items');
    expect(await page.locator('#picture g.node[data-node-id="bad_loop"] rect.progress-failed').count()).toBe(1);
    const groups = await page.$$eval('#picture g.branch-group', (els) => els.map((g) => g.getAttribute('data-branch')));
    expect(groups.sort()).toEqual(['left', 'right']);
    // The right branch's box holds both of its nodes.
    const group = (await page.locator('#picture g.branch-group[data-branch="right"] rect').boundingBox())!;
    const inside = await Promise.all(
      ['b1', 'b2'].map(async (id) => {
        const r = (await page.locator(`#picture g.node[data-node-id="${id}"] rect.box`).boundingBox())!;
        return r.x >= group.x && r.x + r.width <= group.x + group.width && r.y >= group.y && r.y + r.height <= group.y + group.height;
      }),
    );
    expect(inside).toEqual([true, true]);

    await page.click('#picture g.node[data-node-id="bad_loop"]');
    await page.waitForSelector('#panel[data-node-id="bad_loop"]');
    expect(await page.textContent('#panel-loop-text')).toBe('item [1] failed · 3 items — failed items: 1');
    await page.click('#picture g.node[data-node-id="long"]');
    await page.waitForSelector('#panel[data-node-id="long"]');
    expect(await page.textContent('#panel-output-note')).toMatch(/^truncated: the first 2,000 of [\d,]+ characters$/);
    await page.click('#picture g.node[data-node-id="big"]');
    await page.waitForSelector('#panel[data-node-id="big"]');
    expect(await page.getAttribute('#panel-output-download', 'href')).toMatch(/^http/);
    await page.screenshot({ path: screenshotPath('run-picture-shapes.png') });
    await page.close();
  });

  it('keeps outputs, error texts and names that hold markup as text', async () => {
    const page = await browser.browser.newPage({ viewport: { width: 1800, height: 1000 } });
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(pageUrl(shapes.workflowId, shapes.runId, tenant.owner.token));
    await page.waitForSelector('body[data-run-status="failed"]');
    expect(await page.textContent('#picture g.node[data-node-id="xss_fail"] text.error')).toContain('<img src=x');

    await page.click('#picture g.node[data-node-id="xss"]');
    await page.waitForSelector('#panel[data-node-id="xss"]');
    expect(JSON.parse((await page.textContent('#panel-output'))!)).toEqual({ result: XSS_OUTPUT });
    await page.click('#picture g.node[data-node-id="xss_fail"]');
    await page.waitForSelector('#panel[data-node-id="xss_fail"]');
    expect(await page.textContent('#panel-error-message')).toContain(XSS_ERROR);

    const planted = {
      xss: await page.evaluate('window.__xss ?? null'),
      scripts: await page.locator('script').count(),
      images: await page.locator('img').count(),
      bold: await page.locator('b').count(),
    };
    expect(planted).toEqual({ xss: null, scripts: 1, images: 0, bold: 0 });
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it('follows a running run to completed without reloading, asking with If-None-Match', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      name: 'Live to the end',
      nodes: [transform('first', '1'), toolNode('wait', 'delay', { ms: 8000 }), transform('after', '"done"')],
      edges: [
        { from: 'first', to: 'wait' },
        { from: 'wait', to: 'after' },
      ],
    });
    const token = tenant.owner.token;
    const page = await browser.browser.newPage({ viewport: { width: 1400, height: 600 } });
    const run = await startRun(api, token, workflowId);
    const answers: number[] = [];
    page.on('response', (res) => {
      if (res.url().endsWith('/picture.json')) answers.push(res.status());
    });
    let navigations = 0;
    page.on('framenavigated', () => navigations++);
    await page.goto(pageUrl(workflowId, run.id, token));
    await page.waitForSelector('#picture g.node[data-node-id="wait"][data-status="running"]');
    const loadsAfterOpening = navigations;
    // The running node's duration counts on in the page.
    const facts = '#picture g.node[data-node-id="wait"] text.facts';
    const before = await page.textContent(facts);
    for (const deadline = Date.now() + 5000; (await page.textContent(facts)) === before && Date.now() < deadline; ) {
      await page.waitForTimeout(200);
    }
    expect(await page.textContent(facts)).not.toBe(before);
    await page.click('#picture g.node[data-node-id="after"]');
    await page.waitForSelector('#panel[data-node-id="after"]');
    expect(await page.textContent('#panel-output-note')).toBe('no output yet');

    await page.waitForSelector('body[data-run-status="completed"]', { timeout: 30_000 });
    expect(await page.getAttribute('#picture g.node[data-node-id="after"]', 'data-status')).toBe('completed');
    // The open panel followed the node to its output.
    expect(JSON.parse((await page.textContent('#panel-output'))!)).toEqual({ result: 'done' });
    expect(navigations).toBe(loadsAfterOpening);
    expect(answers[0]).toBe(200);
    expect(answers).toContain(304);
    // Polling stopped with the run.
    const count = answers.length;
    await page.waitForTimeout(2500);
    expect(answers.length).toBe(count);
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
