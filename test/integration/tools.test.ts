import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { getTool } from '../../activities/tools/registry';
import type { ToolContext } from '../../activities/tools/types';
import { signStandardWebhook } from '../../activities/tools/webhook_send';
import { createSecretBox } from '../../lib/secrets';
import os from 'node:os';
import path from 'node:path';
import { startPrivatePostgres, type PrivatePostgres } from '../helpers/faults';
import { waitForMail } from '../helpers/mail';
import { toolContext } from '../helpers/tools';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';

/**
 * The tools that need a service, run against real PostgreSQL, MinIO and the SMTP catcher, and a small local HTTP
 * server standing in for external SaaS (an OpenAI-compatible LLM, a chat webhook, a webhook receiver).
 */

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let api: TestApi;
let unconfigured: TestApi;
let tenant: TestTenant;
let server: http.Server;
let base: string;
const received: Received[] = [];

const ctxFor = (a: TestApi, organizationId = tenant.organizationId, attempt = 1): ToolContext => toolContext(a, organizationId, { attempt });

const run = (id: string, input: Record<string, unknown>, ctx: ToolContext = ctxFor(api)) => getTool(id)!.execute(input, ctx);

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (req.url === '/v1/chat/completions') {
        const payload = JSON.parse(body) as { model: string; messages: { role: string; content: string }[] };
        const last = payload.messages[payload.messages.length - 1]!.content;
        const system = payload.messages.find((m) => m.role === 'system')?.content ?? '';
        const content = system.startsWith('You are a classifier') ? (last.includes('refund') ? ' "Billing". ' : 'weather') : `echo: ${last}`;
        return json(200, { model: payload.model, choices: [{ message: { role: 'assistant', content }, finish_reason: 'stop' }], usage: { total_tokens: 3 } });
      }
      if (req.url === '/v1/embeddings') {
        const payload = JSON.parse(body) as { input: string[]; model: string };
        return json(200, { model: payload.model, data: payload.input.map((t, i) => ({ index: i, embedding: [t.length, i, 0.5] })).reverse() });
      }
      if (req.url === '/status/500') return json(500, { error: 'down' });
      if (req.url === '/status/404') return json(404, { error: 'nope' });
      if (req.url === '/redirect-private') return res.writeHead(302, { location: 'http://10.0.0.1/' }).end();
      if (req.url?.startsWith('/text')) return res.writeHead(200, { 'content-type': 'text/plain' }).end('plain');
      return json(200, { ok: true, method: req.method, url: req.url, body });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  api = await startApi({ TOOLS_HTTP_ALLOWED_HOSTS: '127.0.0.1', SERVICE_LLM_BASE_URL: `${base}/v1`, SERVICE_LLM_MODEL: 'stub-chat', SERVICE_LLM_EMBEDDING_MODEL: 'stub-embed' });
  unconfigured = await startApi({ SERVICE_LLM_BASE_URL: '', TOOLS_HTTP_ALLOWED_HOSTS: '' });
  tenant = await createTestTenant(api);
});

afterAll(async () => {
  await api.close();
  await unconfigured.close();
  server.closeAllConnections();
  server.close();
});

describe('http_request', () => {
  test('GET with query, JSON parsed; POST carries an Idempotency-Key', async () => {
    const got = (await run('http_request', { url: `${base}/x`, query: { a: 1 } })) as { status: number; body: { url: string } };
    expect(got.status).toBe(200);
    expect(got.body.url).toBe('/x?a=1');
    const ctx = ctxFor(api);
    await run('http_request', { url: `${base}/post`, body: { hello: 'world' } }, ctx);
    const last = received[received.length - 1]!;
    expect(last.method).toBe('POST');
    expect(JSON.parse(last.body)).toEqual({ hello: 'world' });
    expect(last.headers['idempotency-key']).toBe(ctx.idempotencyKey);
    expect(((await run('http_request', { url: `${base}/text` })) as { body: string }).body).toBe('plain');
  });

  test('status handling: 5xx retryable, 4xx not, or returned when asked', async () => {
    await expect(run('http_request', { url: `${base}/status/500` })).rejects.toMatchObject({ code: 'HTTP_500' });
    await expect(run('http_request', { url: `${base}/status/404` })).rejects.toMatchObject({ name: 'NonRetryableToolError', code: 'HTTP_404' });
    expect(await run('http_request', { url: `${base}/status/404`, fail_on_error_status: false })).toMatchObject({ status: 404 });
  });

  test('private addresses are refused (and redirects re-checked) without the allowlist', async () => {
    await expect(run('http_request', { url: `${base}/x` }, ctxFor(unconfigured))).rejects.toMatchObject({ code: 'URL_REFUSED' });
    await expect(run('http_request', { url: 'http://169.254.169.254/latest/meta-data/' })).rejects.toMatchObject({ code: 'URL_REFUSED' });
    await expect(run('http_request', { url: `${base}/redirect-private` })).rejects.toMatchObject({ code: 'URL_REFUSED' });
    await expect(run('http_request', { url: 'ftp://example.com/' })).rejects.toMatchObject({ code: 'URL_REFUSED' });
  });
});

describe('LLM tools (OpenAI-compatible stub)', () => {
  test('llm_completion', async () => {
    const out = await run('llm_completion', { prompt: 'hi', system: 'be brief' });
    expect(out).toMatchObject({ text: 'echo: hi', model: 'stub-chat', finish_reason: 'stop' });
  });
  test('embedding_generate keeps input order', async () => {
    const out = await run('embedding_generate', { input: ['a', 'bbb'] });
    expect(out).toEqual({ embeddings: [[1, 0, 0.5], [3, 1, 0.5]], model: 'stub-embed', dimensions: 3 });
  });
  test('classify answers one of the labels', async () => {
    expect(await run('classify', { text: 'I want a refund', labels: ['Billing', 'Support'] })).toMatchObject({ label: 'Billing' });
    await expect(run('classify', { text: 'sunny', labels: ['Billing', 'Support'] })).rejects.toMatchObject({ code: 'LLM_BAD_RESPONSE' });
  });
  test('LLM_NOT_CONFIGURED when no endpoint is set', async () => {
    await expect(run('llm_completion', { prompt: 'x' }, ctxFor(unconfigured))).rejects.toMatchObject({ name: 'NonRetryableToolError', code: 'LLM_NOT_CONFIGURED' });
  });
  test("an organization's own endpoint (integration llm) wins over the global one", async () => {
    const t = await createTestTenant(api);
    const box = createSecretBox({ encryptionKey: api.config.organizations.encryptionKey, jwtSecret: api.config.jwt.secret });
    const settings = { integration: { thirdParty: { llm: { enabled: true, config: { baseUrl: `${base}/v1`, model: 'org-model' }, secrets: { apiKey: box.seal('org-secret-key-123456') } } } } };
    await api.deps.db('organizations').where({ id: t.organizationId }).update({ settings: JSON.stringify(settings) });
    const out = await run('llm_completion', { prompt: 'yo' }, ctxFor(api, t.organizationId));
    expect(out).toMatchObject({ model: 'org-model' });
    expect(received[received.length - 1]!.headers.authorization).toBe('Bearer org-secret-key-123456');
  });
});

describe('content_read / content_write', () => {
  test('round trip under the organization prefix, json and base64', async () => {
    const written = await run('content_write', { path: 'reports/r1.json', content: { a: [1, 2] } });
    expect(written).toMatchObject({ path: 'reports/r1.json', key: `org/${tenant.organizationId}/workflow-files/reports/r1.json`, bytes: 11 });
    expect(await run('content_read', { path: 'reports/r1.json', encoding: 'json' })).toMatchObject({ content: { a: [1, 2] }, content_type: 'application/json' });
    await run('content_write', { path: 'bin/x', content: Buffer.from('hey').toString('base64'), encoding: 'base64' });
    expect(await run('content_read', { path: 'bin/x' })).toMatchObject({ content: 'hey', bytes: 3 });
  });
  test('another organization cannot read it; missing files and bad paths fail without retry', async () => {
    const other = await createTestTenant(api);
    await run('content_write', { path: 'secret.txt', content: 'mine' });
    await expect(run('content_read', { path: 'secret.txt' }, ctxFor(api, other.organizationId))).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
    await expect(run('content_read', { path: '../secret.txt' })).rejects.toMatchObject({ code: 'INVALID_PATH' });
  });
});

describe('db_query', () => {
  // A tenant's own database: a private PostgreSQL (the platform's database is never reachable from tools).
  let tenantDb: PrivatePostgres;
  const connection = () => tenantDb.url;
  beforeAll(async () => {
    tenantDb = await startPrivatePostgres(path.join(process.env.LOOM_TEST_DIR ?? os.tmpdir(), `tools-pg-${randomUUID().slice(0, 8)}`));
  }, 120_000);
  afterAll(async () => {
    await tenantDb?.exit();
  });

  test('parameterised, read-only by default, row cap', async () => {
    const out = await run('db_query', { connection_string: connection(), sql: 'SELECT g AS n, $1::text AS tag FROM generate_series(1, 5) g', params: ['x'], max_rows: 3 });
    expect(out).toMatchObject({ rows: [{ n: 1, tag: 'x' }, { n: 2, tag: 'x' }, { n: 3, tag: 'x' }], truncated: true, fields: ['n', 'tag'] });
    await expect(run('db_query', { connection_string: connection(), sql: 'CREATE TABLE tool_should_not_create (x int)' })).rejects.toMatchObject({ code: 'DB_READ_ONLY' });
    await expect(run('db_query', { connection_string: connection(), sql: 'SELECT 1; SELECT 2' })).rejects.toMatchObject({ code: 'DB_QUERY_FAILED' });
  });

  test('a huge result is fetched only up to the caps: the server never produces the rest', async () => {
    // nextval() counts the rows the server produced. Before, all 1,000,000 were produced and sent for 10 kept.
    const sequence = `rows_made_${randomUUID().slice(0, 8)}`;
    await run('db_query', { connection_string: connection(), sql: `CREATE SEQUENCE ${sequence}`, read_only: false });
    const capped = (await run('db_query', {
      connection_string: connection(),
      sql: `SELECT nextval('${sequence}') AS n FROM generate_series(1, 1000000)`,
      read_only: false,
      max_rows: 10,
    })) as { rows: unknown[]; row_count: number; truncated: boolean };
    expect(capped).toMatchObject({ row_count: 10, truncated: true });
    expect(capped.rows).toHaveLength(10);
    const made = (await run('db_query', { connection_string: connection(), sql: `SELECT last_value FROM ${sequence}` })) as { rows: { last_value: string }[] };
    expect(Number(made.rows[0]!.last_value)).toBe(11);

    // 2,000 rows of 100 kB (200 MB) against the default 5 MiB: ~50 rows come back. Before: 1,000 rows, 100 MB.
    const wide = (await run('db_query', {
      connection_string: connection(),
      sql: "SELECT g, repeat('x', 100000) AS body FROM generate_series(1, 2000) g",
    })) as { rows: unknown[]; truncated: boolean };
    expect(wide.truncated).toBe(true);
    expect(wide.rows.length).toBeGreaterThan(20);
    expect(wide.rows.length).toBeLessThanOrEqual(105);
  });

  test('writes: row_count of a write without RETURNING; a capped RETURNING still commits every row', async () => {
    const table = `tool_writes_${randomUUID().slice(0, 8)}`;
    const write = (sql: string, extra: Record<string, unknown> = {}) =>
      run('db_query', { connection_string: connection(), sql, read_only: false, ...extra }) as Promise<{ rows: unknown[]; row_count: number; truncated: boolean }>;
    await write(`CREATE TABLE ${table} (n int)`);
    expect(await write(`INSERT INTO ${table} SELECT generate_series(1, 5)`)).toMatchObject({ rows: [], row_count: 5, truncated: false });
    expect(await write(`UPDATE ${table} SET n = n + 10 RETURNING n`, { max_rows: 2 })).toMatchObject({ rows: [{ n: 11 }, { n: 12 }], row_count: 2, truncated: true });
    expect(await run('db_query', { connection_string: connection(), sql: `SELECT count(*)::int AS c FROM ${table} WHERE n > 10` })).toMatchObject({ rows: [{ c: 5 }] });
    expect(await run('db_query', { connection_string: connection(), sql: `SELECT n FROM ${table} WHERE n > 100` })).toMatchObject({ rows: [], row_count: 0, truncated: false });
  });

  test('COPY is refused with DB_UNREADABLE_RESULT, in both directions, and the worker goes on', async () => {
    await expect(run('db_query', { connection_string: connection(), sql: 'COPY (SELECT 1) TO STDOUT' })).rejects.toMatchObject({ code: 'DB_UNREADABLE_RESULT' });
    const table = `copy_in_${randomUUID().slice(0, 8)}`;
    await run('db_query', { connection_string: connection(), sql: `CREATE TABLE ${table} (n int)`, read_only: false });
    await expect(run('db_query', { connection_string: connection(), sql: `COPY ${table} FROM STDIN`, read_only: false })).rejects.toMatchObject({
      code: 'DB_UNREADABLE_RESULT',
    });
    expect(await run('db_query', { connection_string: connection(), sql: `SELECT count(*)::int AS c FROM ${table}` })).toMatchObject({ rows: [{ c: 0 }] });
  });

  test('statement timeout is retryable; a blocked host is refused; integration settings supply the connection', async () => {
    await expect(run('db_query', { connection_string: connection(), sql: 'SELECT pg_sleep(2)', timeout_ms: 200 })).rejects.toMatchObject({ code: 'DB_57014' });
    await expect(run('db_query', { connection_string: connection(), sql: 'SELECT 1' }, ctxFor(unconfigured))).rejects.toMatchObject({ code: 'URL_REFUSED' });
    await expect(run('db_query', { sql: 'SELECT 1' })).rejects.toMatchObject({ code: 'DB_NOT_CONFIGURED' });
    const t = await createTestTenant(api);
    const box = createSecretBox({ encryptionKey: api.config.organizations.encryptionKey, jwtSecret: api.config.jwt.secret });
    const settings = { integration: { thirdParty: { warehouse: { enabled: true, config: {}, secrets: { connectionString: box.seal(connection()) } } } } };
    await api.deps.db('organizations').where({ id: t.organizationId }).update({ settings: JSON.stringify(settings) });
    expect(await run('db_query', { integration: 'warehouse', sql: 'SELECT 42 AS answer' }, ctxFor(api, t.organizationId))).toMatchObject({ rows: [{ answer: 42 }] });
  });
});

describe('notifications', () => {
  test('email_send through the SMTP catcher', async () => {
    const to = `wf-${randomUUID()}@example.com`;
    await run('email_send', { to, subject: 'Report ready', text: 'see attachment' });
    const mail = await waitForMail(to, /Report ready/);
    expect(mail.text).toContain('see attachment');
  });

  test('chat_message posts a Slack-compatible body', async () => {
    expect(await run('chat_message', { webhook_url: `${base}/hooks/chat`, text: 'deployed', username: 'loom' })).toMatchObject({ status: 200 });
    const last = received[received.length - 1]!;
    expect(JSON.parse(last.body)).toEqual({ text: 'deployed', username: 'loom' });
  });

  test('webhook_send signs per Standard Webhooks with a webhook-id stable across retries', async () => {
    const secret = `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}`;
    const ctx = ctxFor(api);
    const first = (await run('webhook_send', { url: `${base}/hooks/in`, payload: { id: 7 }, secret, event: 'order.created' }, ctx)) as { webhook_id: string };
    const req = received[received.length - 1]!;
    const id = req.headers['webhook-id'] as string;
    const ts = Number(req.headers['webhook-timestamp']);
    expect(id).toBe(first.webhook_id);
    expect(req.headers['webhook-signature']).toBe(signStandardWebhook(secret, id, ts, req.body));
    expect(JSON.parse(req.body)).toEqual({ type: 'order.created', data: { id: 7 } });
    const again = (await run('webhook_send', { url: `${base}/hooks/in`, payload: { id: 7 }, secret }, { ...ctx, attempt: 2 })) as { webhook_id: string };
    expect(again.webhook_id).toBe(first.webhook_id);
  });
});
