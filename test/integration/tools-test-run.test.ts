import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { RUN_TEST_CONFIG } from '../helpers/runs';
import { startApi, type TestApi } from '../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant, type TestUser } from '../helpers/tenants';

/**
 * POST /api/v1/tools/{tool}/test (docs/workflows.md#test-a-tool): one tool run as a real activity through Temporal,
 * by the run's worker, with sample input; templates, secrets, the outbound policy and the schema checks as in a run.
 */

let api: TestApi;
let tenant: TestTenant;
let other: TestTenant;
let viewer: TestUser;
let member: TestUser;
let server: http.Server;
let allowed: string;
let refused: string;
const received: { url: string; authorization?: string }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    received.push({ url: req.url!, authorization: req.headers.authorization });
    res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ url: req.url, authorization: req.headers.authorization ?? null }));
  });
  // 127.0.0.3 is the one private address the test worker's tools may reach (TOOLS_HTTP_ALLOWED_HOSTS, globalSetup);
  // the same server on 127.0.0.1 is refused by the outbound policy.
  await new Promise<void>((r) => server.listen(0, '127.0.0.3', r));
  const port = (server.address() as AddressInfo).port;
  allowed = `http://127.0.0.3:${port}`;
  refused = `http://127.0.0.1:${port}`;
  api = await startApi({ ...RUN_TEST_CONFIG });
  tenant = await createTestTenant(api);
  other = await createTestTenant(api);
  viewer = await addTestMember(api, tenant, 'viewer');
  member = await addTestMember(api, tenant, 'member');
}, 60_000);

afterAll(async () => {
  await api.close();
  server.closeAllConnections();
  server.close();
});

const test_ = (tool: string, body: unknown, token = tenant.owner.token, target = api) =>
  target.request('POST', `/api/v1/tools/${tool}/test`, { token, body });

describe('a test run answers the tool output', () => {
  test('json_transform with config, sample input and templates over parameters and earlier nodes', async () => {
    const res = await test_('json_transform', {
      config: { expression: '$sum(items) * factor', bindings: { unused: '${params.label}' } },
      input: { data: { items: [1, 2, 3], factor: 2 } },
      parameters: { label: 'x' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ tool: 'json_transform', status: 'completed', output: { result: 12 }, attempts: 1 });
    expect(res.body.duration_ms).toBeGreaterThanOrEqual(0);

    const templated = await test_('json_transform', { config: { data: '${fetch.status} for ${params.who}' }, parameters: { who: 'ada' }, nodes: { fetch: { status: 200 } } });
    expect(templated.body).toMatchObject({ status: 'completed', output: { result: '200 for ada' } });
  });

  test('a member may test; a large output is answered as a stored value with a link, as in runs', async () => {
    const res = await test_('json_transform', { input: { data: 'x'.repeat(5000) } }, member.token);
    expect(res.status).toBe(200);
    expect(res.body.output).toMatchObject({ $ref: expect.stringContaining(`/org/${tenant.organizationId}/runs/tooltest-`), bytes: expect.any(Number) });
    const stored = await fetch(res.body.output.download_url);
    expect(await stored.json()).toEqual({ result: 'x'.repeat(5000) });
  });

  test('secrets are resolved in the worker and kept out of the answer; the outbound policy applies', async () => {
    expect((await api.request('PUT', '/api/v1/secrets/PROBE_TOKEN', { token: tenant.owner.token, body: { value: 'tok-3f9a1c77e2' } })).status).toBe(201);
    const res = await test_('http_request', { config: { url: `${allowed}/items`, headers: { authorization: 'Bearer {{secret.PROBE_TOKEN}}' } } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    expect(received.at(-1)).toEqual({ url: '/items', authorization: 'Bearer tok-3f9a1c77e2' });
    expect(JSON.stringify(res.body)).not.toContain('tok-3f9a1c77e2');

    const blocked = await test_('http_request', { config: { url: `${refused}/items` } });
    expect(blocked.status).toBe(200);
    expect(blocked.body).toMatchObject({ status: 'failed', error: { code: 'URL_REFUSED' }, attempts: 1 });

    const notFound = await test_('http_request', { config: { url: `${allowed}/missing` } });
    expect(notFound.body).toMatchObject({ status: 'failed', error: { code: 'HTTP_404' }, attempts: 1 });
  });

  test("the tool's error and the attempts made; retries up to max_attempts", async () => {
    const once = await test_('fail', { config: { mode: 'non_retryable', code: 'PROBE_BROKEN', message: 'broken on purpose' }, max_attempts: 3 });
    expect(once.body).toMatchObject({ status: 'failed', error: { code: 'PROBE_BROKEN', message: 'broken on purpose' }, attempts: 1 });

    const third = await test_('fail', { config: { mode: 'times', times: 2, value: 'ok' }, max_attempts: 3 });
    expect(third.body).toMatchObject({ status: 'completed', output: { attempt: 3, value: 'ok' }, attempts: 3 });

    const exhausted = await test_('fail', { config: { mode: 'always', code: 'PROBE_DOWN' }, max_attempts: 2 });
    expect(exhausted.body).toMatchObject({ status: 'failed', error: { code: 'PROBE_DOWN' }, attempts: 2 });
  });

  test('bounded by timeout_ms: a tool still running then answers TIMEOUT', async () => {
    const started = Date.now();
    const res = await test_('delay', { config: { ms: 20_000 }, timeout_ms: 1500 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'failed', error: { code: 'TIMEOUT' }, attempts: 1 });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test('audited as tool.tested with the outcome', async () => {
    const res = await api.request('GET', `/api/v1/organizations/${tenant.organizationId}/audit-logs?action=tool.tested&limit=100`, { token: tenant.owner.token });
    expect(res.status).toBe(200);
    const entry = res.body.data.find((e: { target: { id: string } }) => e.target.id === 'fail');
    expect(entry).toMatchObject({ action: 'tool.tested', actor: { type: 'user', id: tenant.owner.userId }, target: { type: 'tool', id: 'fail' } });
    expect(entry.changes.after).toMatchObject({ status: expect.stringMatching(/completed|failed/), attempts: expect.any(Number) });
  });
});

describe('what a workflow save would refuse is a 4xx before anything runs', () => {
  test('an unknown tool: 404 with the closest name', async () => {
    const res = await test_('json_tranform', { config: {} });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'tool "json_tranform" not found (did you mean "json_transform"?)' });
  });

  test('config and sample input against the input schema: 422 TOOL_INPUT_INVALID naming the field', async () => {
    const res = await test_('http_request', { config: { method: 'FETCH' }, input: { timeout_ms: 'soon', colour: 'red' } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('TOOL_INPUT_INVALID');
    const paths = res.body.error.details.map((d: { path: string }) => d.path).sort();
    expect(paths).toEqual(['body.config.method', 'body.config.url', 'body.input.colour', 'body.input.timeout_ms']);
  });

  test('template fields are checked when they are rendered, in the worker', async () => {
    const res = await test_('http_request', { config: { url: '${params.target}' }, parameters: { target: 5 } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'failed', error: { code: 'INVALID_INPUT' } });
  });

  test('literal credentials and secrets of another organization are refused as at save', async () => {
    const literal = await test_('http_request', { config: { url: `${allowed}/x`, headers: { authorization: 'Bearer abcdefghijklmnop' } } });
    expect(literal.status).toBe(422);
    expect(literal.body.error).toMatchObject({ code: 'INLINE_CREDENTIAL', details: [{ path: 'body.config.headers.authorization' }] });

    // PROBE_TOKEN belongs to `tenant`: for `other` it does not exist.
    const foreign = await test_('http_request', { config: { url: `${allowed}/x`, headers: { authorization: 'Bearer {{secret.PROBE_TOKEN}}' } } }, other.owner.token);
    expect(foreign.status).toBe(422);
    expect(foreign.body.error).toMatchObject({ code: 'UNKNOWN_SECRET', details: [{ path: 'body.config.headers.authorization' }] });
  });

  test('body shape, timeout above the maximum, and roles', async () => {
    expect((await test_('json_transform', { config: {}, extra: 1 })).status).toBe(400);
    expect((await test_('json_transform', { input: { 'not a name': 1 } })).status).toBe(400);
    expect((await test_('json_transform', { max_attempts: 9 })).status).toBe(400);
    const long = await test_('json_transform', { timeout_ms: 61_000 });
    expect(long.status).toBe(400);
    expect(long.body.error.details).toEqual([{ path: 'body.timeout_ms', problem: 'at most 60000 (TOOLS_TEST_RUN_MAX_TIMEOUT)' }]);
    const forbidden = await test_('json_transform', { config: {} }, viewer.token);
    expect(forbidden.status).toBe(403);
    expect((await api.request('POST', '/api/v1/tools/json_transform/test', { body: {} })).status).toBe(401);
  });
});

test('rate limited per organization', async () => {
  const limited = await startApi({ ...RUN_TEST_CONFIG, TOOLS_TEST_RUN_RATE_LIMIT: '2/1h' });
  try {
    const t = await createTestTenant(limited);
    for (let i = 0; i < 2; i++) expect((await test_('json_transform', {}, t.owner.token, limited)).status).toBe(200);
    const third = await test_('json_transform', {}, t.owner.token, limited);
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('RATE_LIMITED');
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    // another organization has its own budget
    expect((await test_('json_transform', {}, (await createTestTenant(limited)).owner.token, limited)).status).toBe(200);
  } finally {
    await limited.close();
  }
}, 60_000);

test('no worker on the task queue: 503 once the time limit and a grace period are over', async () => {
  const lonely = await startApi({ ...RUN_TEST_CONFIG, TEMPORAL_TASK_QUEUE: `${process.env.TEMPORAL_TASK_QUEUE}-nobody` });
  try {
    const t = await createTestTenant(lonely);
    const started = Date.now();
    const res = await test_('json_transform', { timeout_ms: 200 }, t.owner.token, lonely);
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(Date.now() - started).toBeLessThan(20_000);
  } finally {
    await lonely.close();
  }
}, 60_000);
