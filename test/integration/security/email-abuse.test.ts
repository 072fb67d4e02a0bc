import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getTool } from '../../../activities/tools/registry';
import type { ToolContext } from '../../../activities/tools/types';
import { senderAddress } from '../../../lib/mailer';
import { mailsTo, waitForMail } from '../../helpers/mail';
import { createWorkflowFixture, runToEnd, toolNode, type RunBody } from '../../helpers/runs';
import { startApi, type TestApi } from '../../helpers/stack';
import { toolContext } from '../../helpers/tools';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';

/**
 * The platform's own mail cannot be used for phishing (issue 18). Runs of the real worker send through the real
 * SMTP catcher: From carries the organization's (sanitised) name, never the platform's alone; the text ends with a
 * footer naming the organization; headers identify organization and run; HTML is refused unless the operator
 * enabled it; each organization has a budget of recipients per rolling day (the test worker's
 * TOOLS_EMAIL_DAILY_RECIPIENTS is 5, test/setup/globalSetup.ts). Chat webhooks (allowlisted local receiver):
 * failures never repeat the answer's body or the address a host name resolved to.
 */

let api: TestApi;

beforeAll(async () => {
  api = await startApi();
});

afterAll(async () => {
  await api?.close();
});

async function tenantNamed(name: string): Promise<TestTenant> {
  const tenant = await createTestTenant(api);
  await api.deps.db('organizations').where({ id: tenant.organizationId }).update({ name });
  return tenant;
}

async function runNode(tenant: TestTenant, tool: string, config: Record<string, unknown>): Promise<RunBody> {
  const workflowId = await createWorkflowFixture(api, tenant, { status: 'active', nodes: [toolNode('send', tool, config)] });
  return runToEnd(api, tenant.owner.token, workflowId);
}

const address = (tag: string) => `${tag}-${randomUUID()}@example.com`;

describe('tenant mail says who sent it', () => {
  test('From is "<organization> via Loom" at the platform address; footer and abuse headers; no header injection', async () => {
    const tenant = await tenantNamed('Acme Ops');
    const to = address('phish-target');
    const victim = address('bcc-victim');
    const run = await runNode(tenant, 'email_send', {
      to,
      subject: `Password reset\r\nBcc: ${victim}`,
      text: 'Click here to reset your password.',
      reply_to: 'help@acme.example',
    });
    expect(run.status).toBe('completed');

    const mail = await waitForMail(to, /Password reset/);
    // `from` of the catcher is the envelope sender; the From header is what a reader sees.
    expect(mail.from).toBe(senderAddress(api.config.mail.from));
    expect(mail.headers.from).toBe(`Acme Ops via Loom <${senderAddress(api.config.mail.from)}>`);
    expect(mail.text).toContain('Click here to reset your password.');
    expect(mail.text).toContain('Sent by Acme Ops through Loom workflow automation.');
    expect(mail.headers['x-loom-organization']).toBe(tenant.organizationId);
    expect(mail.headers['x-loom-run']).toBe(run.id);
    expect(mail.headers['reply-to']).toContain('help@acme.example');
    expect(mail.headers.bcc).toBeUndefined();
    // The message above was the whole SMTP transaction: an injected Bcc would have been delivered with it.
    expect(await mailsTo(victim)).toEqual([]);
  }, 60_000);

  test.each([
    ['Loom', 'the platform name alone'],
    ['L00m Security Team', 'a look-alike of it'],
    ['Loom" <security@loom.local>\r\nBcc: x@example.com', 'quotes, brackets and CR/LF'],
  ])('an organization named %j (%s) is shown by its id, not as the platform', async (name) => {
    const tenant = await tenantNamed(name);
    const to = address('lookalike');
    const run = await runNode(tenant, 'email_send', { to, subject: 'Account notice', text: 'Hello' });
    expect(run.status).toBe('completed');
    const mail = await waitForMail(to, /Account notice/);
    const label = `Organization ${tenant.organizationId.slice(0, 8)}`;
    expect(mail.headers.from).toBe(`${label} via Loom <${senderAddress(api.config.mail.from)}>`);
    expect(mail.text).toContain(`Sent by ${label} through Loom workflow automation.`);
  }, 60_000);
});

describe('plain text by default', () => {
  test('an html body fails the node with EMAIL_HTML_DISABLED and nothing is sent', async () => {
    expect(api.config.tools.email.allowHtml).toBe(false);
    const tenant = await tenantNamed('Html Tester');
    const to = address('html');
    const run = await runNode(tenant, 'email_send', {
      to,
      subject: 'Your account',
      text: 'Reset your password',
      html: '<a href="https://evil.example/reset">Reset your Loom password</a>',
    });
    expect(run.status).toBe('failed');
    expect(run.node_states.send.error.code).toBe('EMAIL_HTML_DISABLED');
    expect(await mailsTo(to)).toEqual([]);
  }, 60_000);
});

describe('per-organization budget of recipients per rolling day', () => {
  test('sends up to the budget, then fails with EMAIL_BUDGET_EXCEEDED naming the limit; other organizations unaffected', async () => {
    const limit = api.config.tools.email.dailyRecipients;
    expect(limit).toBe(5); // test/setup/globalSetup.ts gives the worker (and this process) the same value
    const tenant = await tenantNamed('Budget Tester');
    const batch = (n: number, tag: string) => Array.from({ length: n }, () => address(tag));

    const first = batch(limit - 1, 'budget-a');
    expect((await runNode(tenant, 'email_send', { to: first, subject: 'Batch A', text: 'a' })).status).toBe('completed');

    const over = batch(2, 'budget-b');
    const refused = await runNode(tenant, 'email_send', { to: over, subject: 'Batch B', text: 'b' });
    expect(refused.status).toBe('failed');
    expect(refused.node_states.send.error.code).toBe('EMAIL_BUDGET_EXCEEDED');
    expect(refused.node_states.send.error.message).toContain(`at most ${limit} recipients per rolling 24 hours`);
    for (const to of over) expect(await mailsTo(to)).toEqual([]);

    const last = address('budget-c');
    expect((await runNode(tenant, 'email_send', { to: last, subject: 'Batch C', text: 'c' })).status).toBe('completed');
    await waitForMail(last, /Batch C/);
    const after = address('budget-d');
    expect((await runNode(tenant, 'email_send', { to: after, subject: 'Batch D', text: 'd' })).node_states.send.error.code).toBe(
      'EMAIL_BUDGET_EXCEEDED',
    );

    // The same address twice counts (and arrives) once; another organization has its own budget.
    const other = await tenantNamed('Other Org');
    const twice = address('dedupe');
    const run = await runNode(other, 'email_send', { to: [twice, twice.toUpperCase()], subject: 'Once', text: 'x' });
    expect(run.status).toBe('completed');
    expect(run.node_states.send.output.recipients).toEqual([twice]);
    const rows = await api.deps.db('email_sends').where({ organization_id: other.organizationId }).select('recipients');
    expect(rows).toEqual([{ recipients: 1 }]);
  }, 120_000);

  test('one message with more recipients than the budget is refused whole', async () => {
    const tenant = await tenantNamed('Big Batch');
    const to = Array.from({ length: api.config.tools.email.dailyRecipients + 1 }, () => address('big'));
    const run = await runNode(tenant, 'email_send', { to, subject: 'Everyone', text: 'x' });
    expect(run.node_states.send.error.code).toBe('EMAIL_BUDGET_EXCEEDED');
    expect(await mailsTo(to[0]!)).toEqual([]);
  }, 60_000);
});

describe('chat webhooks: errors repeat neither the answer nor an internal address', () => {
  let server: http.Server;
  let base: string;
  let toolsApi: TestApi;
  let tenant: TestTenant;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      res.writeHead(req.url === '/hooks/down' ? 503 : 404, { 'content-type': 'text/plain' });
      res.end('internal detail: db at 10.20.30.40:5432 password=hunter2');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    toolsApi = await startApi({ TOOLS_HTTP_ALLOWED_HOSTS: '127.0.0.1,localhost' });
    tenant = await createTestTenant(toolsApi);
  });

  afterAll(async () => {
    await toolsApi?.close();
    await new Promise((r) => server.close(r));
  });

  const ctx = (): ToolContext => toolContext(toolsApi, tenant.organizationId, { nodeId: 'chat' });

  test.each([
    ['/hooks/missing', 'HTTP_404'],
    ['/hooks/down', 'HTTP_503'],
  ])('%s fails with %s and a fixed message', async (path, code) => {
    const failure = await getTool('chat_message')!.execute({ webhook_url: `${base}${path}`, text: 'deployed' }, ctx()).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code });
    expect((failure as Error).message).not.toMatch(/10\.20\.30\.40|hunter2|internal detail/);
  });

  test('an unreachable host fails HTTP_CONNECTION_FAILED without the address its name resolved to', async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const failure = await getTool('chat_message')!
      .execute({ webhook_url: `http://localhost:${port}/hooks/x`, text: 'hi' }, ctx())
      .catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'HTTP_CONNECTION_FAILED' });
    expect((failure as Error).message).not.toMatch(/127\.0\.0\.1|::1|ECONNREFUSED/);
  });
});
