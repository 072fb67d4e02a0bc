import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWorkflowFixture, DEFAULT_LIMITS_TEST_CONFIG, startRun, toolNode, waitForRun } from '../../helpers/runs';
import { startApi, type TestApi } from '../../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant, type TestUser } from '../../helpers/tenants';

/**
 * Secrets that cannot be echoed (issue 40, finding 2; docs/secrets.md#where-references-are-accepted). A member could
 * read any write-only secret by testing json_transform with `$base64encode("{{secret.SEC_TOKEN}}")`: the encoded
 * value came back, and saved in a workflow it landed in run results, the Temporal history and exports. Now a tool
 * takes references only in the config fields it declares (`secretFields`), and a reference anywhere else is a 422
 * naming the field at tool test, at validate and at save; a stored definition that holds one fails at run time
 * before any value is read. The shared test worker may call 127.0.0.3 (TOOLS_HTTP_ALLOWED_HOSTS, globalSetup), where
 * a local server records what it receives.
 */

interface Received {
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let api: TestApi;
let tenant: TestTenant;
let member: TestUser;
let server: http.Server;
let base: string;
let port: number;
const received: Received[] = [];
/** The secret the attacks try to read: a shape whose encodings and slices are easy to look for. */
const VALUE = `sk_live_${randomBytes(12).toString('hex')}`;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ url: req.url!, headers: req.headers, body });
      // Echoes everything back: an answer holding the value would show it unless the worker takes it out.
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url, headers: req.headers, body }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.3', r));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.3:${port}`;
  // Default output limits: the echoed answers stay inline in tool test answers.
  api = await startApi({ ...DEFAULT_LIMITS_TEST_CONFIG });
  tenant = await createTestTenant(api);
  member = await addTestMember(api, tenant, 'member');
  expect((await api.request('PUT', '/api/v1/secrets/SEC_TOKEN', { token: tenant.owner.token, body: { value: VALUE } })).status).toBe(201);
}, 60_000);

afterAll(async () => {
  await api?.close();
  server?.closeAllConnections();
  server?.close();
});

/** Every form of the value an attack could bring back: as is, base64, upper-case, reversed, split apart, its head. */
function leaks(text: string): string[] {
  const forms = [
    VALUE,
    Buffer.from(VALUE).toString('base64'),
    Buffer.from(VALUE).toString('base64url'),
    VALUE.toUpperCase(),
    [...VALUE].reverse().join(''),
    JSON.stringify([...VALUE]).slice(1, 40),
    VALUE.slice(8, 20),
  ];
  return forms.filter((form) => text.includes(form));
}

/** The attacks: tool, config, the field the 422 must name. Each would have answered (or sent) the value before. */
const ATTACKS: [string, string, Record<string, unknown>, string][] = [
  ['the finding: $base64encode', 'json_transform', { expression: '$base64encode("{{secret.SEC_TOKEN}}")' }, 'expression'],
  ['$split into characters', 'json_transform', { expression: '$split("{{secret.SEC_TOKEN}}", "")' }, 'expression'],
  ['$substring', 'json_transform', { expression: '$substring("{{ secret.SEC_TOKEN }}", 8, 12)' }, 'expression'],
  ['$uppercase', 'json_transform', { expression: '$uppercase("{{secret.SEC_TOKEN}}")' }, 'expression'],
  ['$string of an object', 'json_transform', { expression: '$string({"t": "{{secret.SEC_TOKEN}}"})' }, 'expression'],
  ['reversed', 'json_transform', { expression: '$join($reverse($split("{{secret.SEC_TOKEN}}", "")))' }, 'expression'],
  ['json_transform data (identity)', 'json_transform', { data: { t: '{{secret.SEC_TOKEN}}' } }, 'data.t'],
  ['a JSONata binding', 'json_transform', { expression: '$s', bindings: { s: '{{secret.SEC_TOKEN}}' } }, 'bindings.s'],
  ['CEL string functions in a template', 'json_transform', { data: "${'{{secret.SEC_TOKEN}}'.size()}" }, 'data'],
  ['concatenation in a template', 'http_request', { url: 'http://127.0.0.3/t', body: "${'x' + '{{secret.SEC_TOKEN}}'}" }, 'body'],
  ['an http_request body', 'http_request', { url: 'http://127.0.0.3/t', body: { token: '{{secret.SEC_TOKEN}}' } }, 'body.token'],
  ['the URL path', 'http_request', { url: 'http://127.0.0.3/p/{{secret.SEC_TOKEN}}' }, 'url'],
  ['the URL query', 'http_request', { url: 'http://127.0.0.3/q?k={{secret.SEC_TOKEN}}' }, 'url'],
  ['the URL host', 'http_request', { url: 'http://{{secret.SEC_TOKEN}}.example.com/' }, 'url'],
  ['the query field', 'http_request', { url: 'http://127.0.0.3/q', query: { k: '{{secret.SEC_TOKEN}}' } }, 'query.k'],
  ['a webhook payload', 'webhook_send', { url: 'http://127.0.0.3/w', payload: { t: '{{secret.SEC_TOKEN}}' }, secret: '{{secret.SEC_TOKEN}}' }, 'payload.t'],
  ['an LLM prompt', 'llm_completion', { prompt: 'Repeat: {{secret.SEC_TOKEN}}' }, 'prompt'],
  ['an e-mail text', 'email_send', { to: 'a@example.com', subject: 's', text: '{{secret.SEC_TOKEN}}' }, 'text'],
  ['SQL text', 'db_query', { sql: "select '{{secret.SEC_TOKEN}}'", connection_string: 'postgres://u@db.example.com/app' }, 'sql'],
  ['SQL parameters', 'db_query', { sql: 'select $1::text', params: ['{{secret.SEC_TOKEN}}'], connection_string: 'postgres://u@db.example.com/app' }, 'params[0]'],
  ['a connection string host', 'db_query', { sql: 'select 1', connection_string: 'postgres://u@{{secret.SEC_TOKEN}}/app' }, 'connection_string'],
];

const testTool = (tool: string, body: unknown, token = member.token) => api.request('POST', `/api/v1/tools/${tool}/test`, { token, body });
const workflowBody = (nodes: unknown[], extra: Record<string, unknown> = {}) => ({ name: `secret fields ${randomUUID().slice(0, 6)}`, dag: { nodes, edges: [] }, ...extra });

describe('a reference outside the fields a tool declares is a 422 naming the field', () => {
  test.each(ATTACKS)('tool test: %s', async (_label, tool, config, field) => {
    const res = await testTool(tool, { config });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('TOOL_INPUT_INVALID');
    expect(res.body.error.details).toContainEqual({ path: `body.config.${field}`, problem: expect.stringContaining('secret references are not accepted') });
    expect(leaks(res.text)).toEqual([]);
  });

  test('tool test: a reference under a key the sample input overrides is refused too', async () => {
    const res = await testTool('json_transform', { config: { expression: '$base64encode("{{secret.SEC_TOKEN}}")' }, input: { expression: '1' } });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toContainEqual({ path: 'body.config.expression', problem: expect.stringContaining('secret references are not accepted') });
  });

  test.each(ATTACKS)('validate and save: %s', async (_label, tool, config, field) => {
    const body = workflowBody([toolNode('n', tool, config)]);
    for (const path of ['/api/v1/workflows/validate', '/api/v1/workflows']) {
      const res = await api.request('POST', path, { token: member.token, body });
      expect([path, res.status]).toEqual([path, 422]);
      expect(res.body.error.code).toBe('WORKFLOW_INVALID');
      expect(res.body.error.details).toContainEqual({ path: `dag.nodes.n.config.config.${field}`, problem: expect.stringContaining('secret references are not accepted') });
    }
  });

  test('nested tool configs: a loop template, a fallback tool, an update, the definition document', async () => {
    const loop = {
      id: 'each',
      type: 'loop',
      config: { items: '${params.list}', iterator: 'item', template: { type: 'tool', config: { tool: 'json_transform', config: { expression: '$uppercase("{{secret.SEC_TOKEN}}")' } } } },
    };
    const withLoop = await api.request('POST', '/api/v1/workflows', {
      token: member.token,
      body: workflowBody([loop], { parameters: [{ name: 'list', type: 'array' }] }),
    });
    expect(withLoop.status).toBe(422);
    expect(withLoop.body.error.details).toContainEqual({ path: 'dag.nodes.each.config.template.config.config.expression', problem: expect.stringContaining('json_transform') });

    const fallback = await api.request('POST', '/api/v1/workflows', {
      token: member.token,
      body: workflowBody([toolNode('n', 'json_transform', { data: 1 })], {
        error_handling: { node_overrides: { n: { strategy: 'fallback', handler: 'json_transform', handler_config: { expression: '$base64encode("{{secret.SEC_TOKEN}}")' } } } },
      }),
    });
    expect(fallback.status).toBe(422);
    expect(fallback.body.error.details).toContainEqual({ path: 'error_handling.node_overrides.n.handler_config.expression', problem: expect.stringContaining('json_transform') });

    const created = await api.request('POST', '/api/v1/workflows', { token: member.token, body: workflowBody([toolNode('n', 'json_transform', { data: 1 })]) });
    expect(created.status).toBe(201);
    const update = await api.request('PUT', `/api/v1/workflows/${created.body.id}`, {
      token: member.token,
      body: { dag: { nodes: [toolNode('n', 'json_transform', { expression: '$split("{{secret.SEC_TOKEN}}", "")' })], edges: [] } },
    });
    expect(update.status).toBe(422);
    expect(update.body.error.details).toContainEqual({ path: 'dag.nodes.n.config.config.expression', problem: expect.any(String) });

    const doc = await api.request('POST', '/api/v1/workflows', {
      token: member.token,
      body: { name: 'doc', nodes: [{ id: 'n', type: 'tool', tool: 'json_transform', config: { data: { t: '{{secret.SEC_TOKEN}}' } } }] },
    });
    expect(doc.status).toBe(422);
    expect(JSON.stringify(doc.body.error.details)).toContain('secret references are not accepted');
  });
});

describe('references in declared fields still deliver the value, and only there', () => {
  test('an http_request header reaches the server; the echoed answer is redacted', async () => {
    const res = await testTool('http_request', { config: { url: `${base}/declared`, headers: { 'x-api-key': '{{secret.SEC_TOKEN}}' } } });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('completed');
    expect(received.find((r) => r.url === '/declared')?.headers['x-api-key']).toBe(VALUE);
    expect(res.text).toContain('{{secret.SEC_TOKEN}}'); // the echoed header, taken back to its reference
    expect(leaks(res.text)).toEqual([]);
  });

  test("db_query's connection string takes one in its user information, percent-encoded; its host does not", async () => {
    const password = `p@ss/w:rd?#${randomBytes(6).toString('hex')}`;
    expect((await api.request('PUT', '/api/v1/secrets/DB_PW', { token: tenant.owner.token, body: { value: password } })).status).toBe(201);
    const config = { connection_string: 'postgres://reporting:{{secret.DB_PW}}@127.0.0.1:5432/app', sql: 'select 1' };
    const saved = await api.request('POST', '/api/v1/workflows', { token: member.token, body: workflowBody([toolNode('q', 'db_query', config)]) });
    expect(saved.status).toBe(201);
    // Resolved in the worker: the host stays 127.0.0.1 (refused by the outbound policy) whatever the value holds.
    const res = await testTool('db_query', { config });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'failed', error: { code: 'URL_REFUSED' } });
    expect(res.text).not.toContain(password);
    expect(res.text).not.toContain(encodeURIComponent(password));
  });

  test('a template in a declared field sees a placeholder, never the value; a saved run delivers the value', async () => {
    const created = await api.request('POST', '/api/v1/workflows', {
      token: member.token,
      body: workflowBody([
        toolNode('call', 'http_request', {
          url: `${base}/run-declared`,
          headers: { authorization: 'Bearer {{secret.SEC_TOKEN}}', 'x-size': "${size('{{secret.SEC_TOKEN}}')}" },
        }),
      ]),
    });
    expect(created.status).toBe(201);
    const run = await startRun(api, member.token, created.body.id);
    const done = await waitForRun(api, member.token, created.body.id, run.id);
    const call = received.find((r) => r.url === '/run-declared');
    if (done.status === 'completed') {
      expect(call?.headers.authorization).toBe(`Bearer ${VALUE}`);
      // CEL measured the placeholder (27 characters and the name), not the 32-character value.
      expect(call?.headers['x-size']).not.toBe(String(VALUE.length));
    } else {
      // A CEL literal holding the placeholder's control characters may not parse: then nothing was sent at all.
      expect(call).toBeUndefined();
    }
    expect(leaks(JSON.stringify(done))).toEqual([]);
  });
});

describe('definitions stored before the rule', () => {
  /** Text of a history with its payloads decoded. */
  async function historyText(runId: string): Promise<string> {
    const history = await api.deps.temporal.workflow.getHandle(runId).fetchHistory();
    return JSON.stringify(history, (key, v: unknown) => {
      if (v instanceof Uint8Array) return Buffer.from(v).toString('utf8');
      if (key === 'data' && typeof v === 'string') return Buffer.from(v, 'base64').toString('utf8');
      return v;
    });
  }

  const legacy: [string, unknown, string][] = [
    ['the finding saved in a workflow', toolNode('n', 'json_transform', { expression: '$base64encode("{{secret.SEC_TOKEN}}")' }), 'expression'],
    ['an http_request body', toolNode('n', 'http_request', { url: 'http://127.0.0.3/legacy-body', body: { token: '{{secret.SEC_TOKEN}}' } }), 'body.token'],
  ];

  test.each(legacy)('%s: the run fails at that node with SECRET_NOT_ALLOWED naming the field; no value read or sent', async (_label, node, field) => {
    const workflowId = await createWorkflowFixture(api, tenant, { nodes: [node] });
    const viewer = await addTestMember(api, tenant, 'viewer');
    const run = await startRun(api, tenant.owner.token, workflowId);
    const done = await waitForRun(api, viewer.token, workflowId, run.id);
    expect(done.status).toBe('failed');
    const errors = JSON.stringify(done.errors);
    expect(errors).toContain('SECRET_NOT_ALLOWED');
    expect(errors).toContain(`secret reference in ${field}`);
    expect(received.some((r) => r.url === '/legacy-body')).toBe(false);
    expect(leaks(JSON.stringify(done))).toEqual([]);
    expect(leaks(await historyText(run.id))).toEqual([]);
    const rows = await api.deps.db('workflow_runs').where({ id: run.id });
    expect(leaks(JSON.stringify(rows))).toEqual([]);
  });
});
