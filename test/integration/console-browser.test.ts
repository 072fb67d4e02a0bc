import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { describeWithBrowser, launchBrowser, screenshotPath, type TestBrowser } from '../helpers/browser';
import { FAST_RETRY, RUN_TEST_CONFIG, runToEnd, startRun, toolNode, waitForRun } from '../helpers/runs';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';
import { Secret, TOTP } from 'otpauth';
import { REPO_ROOT } from '../setup/state';

/**
 * The web console (docs/console.md) in real Chromium against the real stack: sign in, find a run by filter and by
 * parameter, open it, approve a run waiting for people, replay a dead letter, read a workflow's versions as a diff,
 * the triggers and the charts. Every page passes axe-core with no serious or critical violation, under the page's
 * own Content-Security-Policy (no CSP report, no script error). The screenshots are those of docs/console.md.
 */

const PASSWORD = 'Corr3ct-Horse-Battery';
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const DOCS_IMAGES = path.join(REPO_ROOT, 'docs', 'console');

let api: TestApi;
let tenant: TestTenant;
let browser: TestBrowser | undefined;
let admin: { email: string; userId: string };
const ids: { report: string; approval: string; letters: string; schedule: string; acmeRun: string; failedRun: string } = {
  report: '',
  approval: '',
  letters: '',
  schedule: '',
  acmeRun: '',
  failedRun: '',
};

async function person(role: 'admin' | 'member' | 'viewer'): Promise<{ email: string; userId: string }> {
  const email = `console-${role}-${randomUUID().slice(0, 8)}@example.com`;
  const res = await api.request('POST', '/api/auth/register', { body: { email, password: PASSWORD, name: `Console ${role}` } });
  expect(res.status).toBe(201);
  await api.deps.db('memberships').insert({ organization_id: tenant.organizationId, user_id: res.body.user.id, role });
  return { email, userId: res.body.user.id };
}

async function createWorkflow(body: Record<string, unknown>): Promise<string> {
  const res = await api.request('POST', '/api/v1/workflows', { token: tenant.owner.token, body });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

beforeAll(async () => {
  api = await startApi(RUN_TEST_CONFIG);
  tenant = await createTestTenant(api);
  admin = await person('admin');

  // A report with two versions and runs for two customers, one of them failed.
  ids.report = await createWorkflow({
    name: 'Customer report',
    parameters: [{ name: 'customer', type: 'string', required: true }],
    dag: { nodes: [toolNode('build', 'json_transform', { expression: '$', data: { customer: '${params.customer}' } })], edges: [] },
  });
  const v2 = await api.request('PUT', `/api/v1/workflows/${ids.report}`, {
    token: tenant.owner.token,
    body: {
      dag: {
        nodes: [
          toolNode('build', 'json_transform', { expression: '$', data: { customer: '${params.customer}' } }),
          toolNode('summarise', 'json_transform', { expression: '$', data: { seen: '${nodes.build.result.customer}' } }),
        ],
        edges: [{ from: 'build', to: 'summarise' }],
      },
    },
  });
  expect(v2.status).toBe(200);
  ids.acmeRun = (await runToEnd(api, tenant.owner.token, ids.report, { customer: 'acme' })).id;
  await runToEnd(api, tenant.owner.token, ids.report, { customer: 'globex' });

  // A dead letter: an always-failing node under the dead_letter_queue strategy.
  ids.letters = await createWorkflow({
    name: 'Partner delivery',
    dag: { nodes: [toolNode('deliver', 'fail', { mode: 'always', message: 'receiver down' })], edges: [] },
    error_handling: { retry_config: FAST_RETRY, node_overrides: { deliver: { strategy: 'dead_letter_queue', dead_letter_queue: { queue: 'deliveries' } } } },
  });
  const lettered = await runToEnd(api, tenant.owner.token, ids.letters);
  expect(lettered.node_states.deliver).toMatchObject({ via: 'dead_letter' });

  // A failed run.
  const failing = await createWorkflow({ name: 'Flaky import', dag: { nodes: [toolNode('fetch', 'fail', { mode: 'always', message: 'source offline' })], edges: [] }, error_handling: { retry_config: { max_attempts: 1 } } });
  ids.failedRun = (await runToEnd(api, tenant.owner.token, failing)).id;

  // A scheduled workflow, active, so that its schedule has next fire times.
  ids.schedule = await createWorkflow({
    name: 'Nightly digest',
    triggers: [{ id: 'nightly', type: 'schedule', config: { cron: '30 2 * * *', timezone: 'UTC' } }],
    dag: { nodes: [toolNode('digest', 'json_transform', { expression: '$', data: { ok: true } })], edges: [] },
  });
  const activated = await api.request('POST', `/api/v1/workflows/${ids.schedule}/activate`, { token: tenant.owner.token });
  expect(activated.status).toBe(200);

  // A run waiting for an admin's approval, started by the owner.
  ids.approval = await createWorkflow({
    name: 'Refund approval',
    parameters: [{ name: 'order', type: 'string', required: true }],
    dag: {
      nodes: [
        { id: 'review', type: 'approval', config: { approvers: { role: 'admin' }, message: 'Refund order ${params.order}?' } },
        toolNode('refund', 'json_transform', { expression: '$', data: { by: '${nodes.review.comment}' } }),
      ],
      edges: [{ from: 'review', to: 'refund' }],
    },
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
});

interface Watched {
  context: BrowserContext;
  page: Page;
  /** Script errors and CSP reports seen so far. */
  problems: string[];
}

async function openConsole(): Promise<Watched> {
  const context = await browser!.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`error: ${err.message}`));
  page.on('console', (message) => {
    // Failed requests are reported with their address below; the API's 4xx answers are the page's to show.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console: ${message.text()}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`${res.status()} ${res.url()}`);
  });
  await page.goto(`${api.baseUrl}/console`);
  return { context, page, problems };
}

async function signIn(page: Page, email: string): Promise<void> {
  await page.waitForSelector('h1:has-text("Sign in to Loom")');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForSelector('h1#page-title');
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core on the page as it stands: no serious or critical violation. */
async function accessible(page: Page, name: string): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  // A string, run in the page: this file is compiled without the DOM's types.
  const violations = (await page.evaluate(`(async () => {
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })) }));
  })()`)) as AxeViolation[];
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect({ page: name, serious }).toEqual({ page: name, serious: [] });
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: screenshotPath(`console-${name}.png`), fullPage: true });
  if (process.env.LOOM_UPDATE_CONSOLE_SCREENSHOTS === '1') await page.screenshot({ path: path.join(DOCS_IMAGES, `${name}.png`), fullPage: true });
}

const rows = (page: Page) => page.locator('table.list tbody tr');

/** Polls from the test (the page's CSP refuses the eval that waitForFunction would need). */
async function until(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const listed = (page: Page, count: number, text: string) => async () =>
  (await rows(page).count()) === count && (await page.locator('table.list tbody').innerText()).includes(text);

describeWithBrowser('the web console', () => {
  beforeAll(async () => {
    browser = await launchBrowser();
  });

  test('served under a strict CSP with hashed, cacheable, compressed files', async () => {
    const page = await fetch(`${api.baseUrl}/console`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("require-trusted-types-for 'script'");
    expect(csp).not.toContain('unsafe');
    const html = await page.text();
    const script = /src="(\/console\/assets\/console\.[0-9a-f]{16}\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${api.baseUrl}${script}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(asset.headers.get('content-encoding')).toBe('gzip');
    expect((await fetch(`${api.baseUrl}/console/assets/nope.js`)).status).toBe(404);
  });

  test('sign in; runs with filters, search by parameter and by id; a run with its nodes; reload keeps the session', async () => {
    const { context, page, problems } = await openConsole();
    await signIn(page, admin.email);
    expect(page.url()).toContain('#/runs');
    await page.waitForSelector('table.list tbody tr a.mono');
    await accessible(page, 'runs');
    await shoot(page, 'runs');

    // Filters: failed runs only.
    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('button', { name: 'Apply' }).click();
    await until('the failed run alone', listed(page, 1, 'Flaky import'));
    expect(page.url()).toContain('status=failed');

    // Search by parameter value: only acme's run.
    await page.goto(`${api.baseUrl}/console#/runs`);
    await page.getByLabel('Run id or parameter=value').fill('customer=acme');
    await page.getByRole('button', { name: 'Apply' }).click();
    await until("acme's run alone", listed(page, 1, ids.acmeRun.slice(0, 8)));

    // Search by run id, then open it.
    await page.getByLabel('Run id or parameter=value').fill(ids.acmeRun);
    await page.getByRole('button', { name: 'Apply' }).click();
    await until('the run by its id', listed(page, 1, ids.acmeRun.slice(0, 8)));
    await page.getByRole('link', { name: ids.acmeRun.slice(0, 8) }).click();
    await page.waitForSelector(`h1:has-text("Run ${ids.acmeRun.slice(0, 8)}")`);
    await page.waitForSelector('img.picture');
    const picture = (await page.evaluate(`(() => { const img = document.querySelector('img.picture'); return { src: img.src, width: img.naturalWidth }; })()`)) as { src: string; width: number };
    expect(picture.src.startsWith('blob:')).toBe(true);
    expect(picture.width).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Details of summarise' }).click();
    const details = await page.locator('tr.details').innerText();
    expect(details).toContain('Output');
    expect(details).toMatch(/Output[\s\S]*"seen": "acme"/);
    await accessible(page, 'run');
    await shoot(page, 'run');

    // A reload signs in again from the HttpOnly cookie: no token in the address, in storage, or readable as a cookie.
    await page.reload();
    await page.waitForSelector(`h1:has-text("Run ${ids.acmeRun.slice(0, 8)}")`);
    const exposed = (await page.evaluate(`({ local: localStorage.length, session: sessionStorage.length, cookies: document.cookie, url: location.href })`)) as {
      local: number;
      session: number;
      cookies: string;
      url: string;
    };
    expect(exposed.local).toBe(0);
    expect(exposed.session).toBe(0);
    expect(exposed.cookies).not.toContain('loom_refresh');
    expect(exposed.url).not.toMatch(/token|eyJ/);

    // Sign out: back to sign-in, and a reload stays signed out.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForSelector('h1:has-text("Sign in to Loom")');
    await page.reload();
    await page.waitForSelector('h1:has-text("Sign in to Loom")');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('an admin approves a run from "awaiting me"; the run goes on with the comment', async () => {
    const run = await startRun(api, tenant.owner.token, ids.approval, { order: 'A-17' });
    await waitForRun(api, tenant.owner.token, ids.approval, run.id, (r) => Boolean(r.node_states?.review?.approval_id), 30_000);
    const { context, page, problems } = await openConsole();
    await signIn(page, admin.email);
    await page.getByRole('link', { name: 'Approvals' }).click();
    await page.waitForSelector('text=Refund order A-17?');
    await accessible(page, 'approvals');
    await shoot(page, 'approvals');
    const card = page.locator('section.approval', { hasText: 'Refund order A-17?' });
    await card.getByLabel('Comment').fill('customer called');
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.waitForSelector('text=Nothing awaits your decision.');
    const done = await waitForRun(api, tenant.owner.token, ids.approval, run.id);
    expect(done.status).toBe('completed');
    expect(done.node_states.refund.output).toEqual({ result: { by: 'customer called' } });
    expect(problems).toEqual([]);
    await context.close();
  });

  test('a dead letter is inspected and replayed as a new run', async () => {
    const { context, page, problems } = await openConsole();
    await signIn(page, admin.email);
    await page.getByRole('link', { name: 'Dead letters' }).click();
    await page.getByRole('button', { name: 'Inspect dead letter of deliver' }).first().click();
    expect(await page.locator('tr.details').innerText()).toContain('receiver down');
    await accessible(page, 'dead-letters');
    await shoot(page, 'dead-letters');
    await page.getByRole('button', { name: 'Replay' }).click();
    await page.getByRole('button', { name: 'Yes, replay' }).click();
    await page.waitForSelector('h1:has-text("Run ")');
    const replayRunId = /#\/runs\/[^/]+\/([0-9a-f-]{36})/.exec(page.url())?.[1];
    expect(replayRunId).toBeDefined();
    const letters = await api.request('GET', `/api/v1/dead-letters?workflow_id=${ids.letters}&status=replayed`, { token: tenant.owner.token });
    expect(letters.body.data.map((l: { replay_run_id: string }) => l.replay_run_id)).toContain(replayRunId);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('workflows with a diff of two versions, pause; triggers with next fire times; charts', async () => {
    const { context, page, problems } = await openConsole();
    await signIn(page, admin.email);
    await page.getByRole('link', { name: 'Workflows' }).click();
    await page.getByRole('link', { name: 'Customer report', exact: true }).click();
    await page.waitForSelector('.diff');
    const diff = await page.locator('.diff').innerText();
    expect(diff).toMatch(/\d+ line\(s\) added, \d+ removed/);
    expect(diff).toContain('+ ');
    expect(diff).toContain('summarise');
    await accessible(page, 'workflow');
    await shoot(page, 'workflow');

    await page.goto(`${api.baseUrl}/console#/workflows/${ids.schedule}`);
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('button', { name: 'Yes, pause' }).click();
    await page.waitForSelector('.facts .status-paused');
    const paused = await api.request('GET', `/api/v1/workflows/${ids.schedule}`, { token: tenant.owner.token });
    expect(paused.body.status).toBe('paused');
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.waitForSelector('.facts .status-active');

    await page.getByRole('link', { name: 'Triggers' }).click();
    await page.waitForSelector('text=Nightly digest');
    const row = await page.locator('tr', { hasText: 'Nightly digest' }).innerText();
    expect(row).toContain('30 2 * * *');
    expect(row).not.toContain('—');
    await accessible(page, 'triggers');
    await shoot(page, 'triggers');

    await page.getByRole('link', { name: 'Charts' }).click();
    await page.waitForSelector('svg.chart');
    const caption = await page.locator('#per-day-caption').innerText();
    const total = Number(/(\d+) runs in 7 days/.exec(caption)?.[1]);
    expect(total).toBeGreaterThanOrEqual(5);
    expect(await page.locator('tr', { hasText: 'Customer report' }).innerText()).toMatch(/Customer report\s+2\s+2\s+0/);
    await accessible(page, 'charts');
    await shoot(page, 'charts');
    expect(problems).toEqual([]);
    await context.close();
  });

  test('keyboard only: sign in, move to a section and open a run', async () => {
    const { context, page, problems } = await openConsole();
    await page.waitForSelector('h1:has-text("Sign in to Loom")');
    await accessible(page, 'sign-in');
    await shoot(page, 'sign-in');
    await page.getByLabel('E-mail').focus();
    await page.keyboard.type(admin.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForSelector('h1#page-title:has-text("Runs")');
    // The skip link is the first stop; then the sections.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Approvals');
    await page.keyboard.press('Enter');
    await page.waitForSelector('h1#page-title:has-text("Approvals")');
    // Back on the runs, the first run link is reachable by Tab and opens with Enter.
    await page.goto(`${api.baseUrl}/console#/runs?status=failed`);
    await page.waitForSelector('table.list tbody tr a.mono');
    await page.locator('table.list tbody tr a.mono').first().focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector(`h1:has-text("Run ${ids.failedRun.slice(0, 8)}")`);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('two-factor sign-in; switching organization; rerun from a node; discarding a dead letter', async () => {
    const member = await person('member');
    const login = await api.request('POST', '/api/auth/login', { body: { email: member.email, password: PASSWORD } });
    const token = login.body.tokens.accessToken as string;
    // Before the enrolment, which ends the member's other sessions, this one included.
    const second = await api.request('POST', '/api/v1/organizations', { token, body: { name: `Side project ${randomUUID().slice(0, 6)}` } });
    expect(second.status).toBe(201);
    const started = await api.request('POST', '/api/auth/2fa/enrolment', { token });
    const confirmed = await api.request('POST', '/api/auth/2fa/enrolment/confirm', {
      token,
      body: { code: new TOTP({ secret: Secret.fromBase32(started.body.secret) }).generate() },
    });
    expect(confirmed.status).toBe(200);
    const parked = await runToEnd(api, tenant.owner.token, ids.letters);
    const letter = (await api.request('GET', `/api/v1/dead-letters?run_id=${parked.id}`, { token: tenant.owner.token })).body.data[0];

    const { context, page, problems } = await openConsole();
    await page.waitForSelector('h1:has-text("Sign in to Loom")');
    await page.getByLabel('E-mail').fill(member.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForSelector('h2:has-text("Second step")');
    await accessible(page, 'two-factor');
    await page.getByLabel('Code').fill(confirmed.body.recoveryCodes[0]);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForSelector('h1#page-title:has-text("Runs")');

    // The other organization has no runs; back to the first one, whose runs show again.
    const organization = page.getByLabel('Organization');
    const first = await organization.inputValue();
    await organization.selectOption(second.body.id);
    await page.waitForSelector('text=No runs match.');
    await organization.selectOption(first);
    await page.waitForSelector('table.list tbody tr a.mono');

    // Rerun from the second node: the first is reused.
    await page.goto(`${api.baseUrl}/console#/runs/${ids.report}/${ids.acmeRun}`);
    await page.getByLabel('Rerun from').selectOption('summarise');
    await page.getByRole('button', { name: 'Rerun' }).click();
    await until('the rerun page', async () => /#\/runs\/[^/]+\/[0-9a-f-]{36}$/.test(page.url()) && !page.url().endsWith(ids.acmeRun));
    const rerunId = page.url().split('/').pop()!;
    const rerun = await waitForRun(api, tenant.owner.token, ids.report, rerunId);
    expect(rerun).toMatchObject({ status: 'completed', retry_of: ids.acmeRun });
    expect(rerun.node_states.build.via).toBe('reused');

    // Discard the new dead letter: asked once more, then gone.
    await page.goto(`${api.baseUrl}/console#/dead-letters`);
    await page.getByRole('button', { name: 'Inspect dead letter of deliver' }).first().click();
    await page.getByRole('button', { name: 'Discard' }).click();
    await page.getByRole('button', { name: 'Yes, discard' }).click();
    await until('the letter to go', async () => (await api.request('GET', `/api/v1/dead-letters/${letter.id}`, { token: tenant.owner.token })).status === 404);
    expect(problems).toEqual([]);
    await context.close();
  });

  test('a viewer sees runs without the actions only members may take', async () => {
    const viewer = await person('viewer');
    const { context, page, problems } = await openConsole();
    await signIn(page, viewer.email);
    await page.goto(`${api.baseUrl}/console#/runs/${ids.report}/${ids.acmeRun}`);
    await page.waitForSelector(`h1:has-text("Run ${ids.acmeRun.slice(0, 8)}")`);
    expect(await page.getByRole('button', { name: 'Rerun' }).count()).toBe(0);
    await page.goto(`${api.baseUrl}/console#/dead-letters`);
    await page.waitForSelector('h1#page-title:has-text("Dead letters")');
    expect(await page.getByRole('button', { name: 'Replay' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
