import { randomBytes, randomUUID } from 'node:crypto';
import { sign, signatureHeaders } from '../../../lib/triggers/standardWebhooks';
import { isEnvelope, streamPost, type StreamOutcome } from '../../helpers/security';
import { startApi, type TestApi, type TestResponse } from '../../helpers/stack';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';

/** An answer's body, its request id (different on every request, like the X-Request-Id header) left out. */
const answerOf = (res: { text: string }): string => res.text.replace(/"request_id":"[^"]*"/, '"request_id":"<id>"');

/**
 * Attacks on inbound webhook triggers (`/api/hooks/{organization}/{path}`, Standard Webhooks HMAC or bearer),
 * black-box over HTTP. Every refusal is proven side-effect free by counting the workflow's runs and the delivery
 * receipts in PostgreSQL.
 */

const MAX_BODY = 64 * 1024;
const TOLERANCE_MS = 5 * 60_000;

let api: TestApi;
let tenant: TestTenant;
let other: TestTenant;
let slug: string;
let signedWorkflow: string;
let secret: string;
let siblingSecret: string;
let bearerSecret: string;
let otherWorkflow: string;
let bearerWorkflow: string;

const echo = { id: 'echo', type: 'tool', config: { tool: 'json_transform', config: { expression: '$' } } };

async function activeWorkflow(t: TestTenant, trigger: Record<string, unknown>): Promise<string> {
  const created = await api.request('POST', '/api/v1/workflows', {
    token: t.owner.token,
    body: { name: `hook ${randomUUID().slice(0, 6)}`, dag: { nodes: [echo] }, triggers: [trigger], parameters: [{ name: 'n', type: 'integer' }] },
  });
  if (created.status !== 201) throw new Error(`workflow: ${created.status} ${created.text}`);
  const activated = await api.request('POST', `/api/v1/workflows/${created.body.id}/activate`, { token: t.owner.token });
  if (activated.status !== 200) throw new Error(`activate: ${activated.status} ${activated.text}`);
  return created.body.id as string;
}

async function rotate(t: TestTenant, workflowId: string, key: string): Promise<string> {
  const res = await api.request('POST', `/api/v1/workflows/${workflowId}/triggers/${key}/secret`, { token: t.owner.token });
  if (res.status !== 201) throw new Error(`secret: ${res.status} ${res.text}`);
  return res.body.secret as string;
}

beforeAll(async () => {
  api = await startApi({ TRIGGERS_WEBHOOK_MAX_BODY_BYTES: String(MAX_BODY), TRIGGERS_WEBHOOK_TOLERANCE: '5m' });
  [tenant, other] = await Promise.all([createTestTenant(api), createTestTenant(api)]);
  slug = (await api.deps.db('organizations').where({ id: tenant.organizationId }).first('slug')).slug as string;
  // High per-trigger limits: this file sends many refused calls to one trigger and must not meet the 429 first.
  signedWorkflow = await activeWorkflow(tenant, { id: 'signed', type: 'webhook', config: { path: 'signed', authentication: 'hmac', rateLimit: '1000/1m' } });
  const sibling = await activeWorkflow(tenant, { id: 'sibling', type: 'webhook', config: { path: 'sibling', authentication: 'hmac', rateLimit: '1000/1m' } });
  bearerWorkflow = await activeWorkflow(tenant, { id: 'bearer', type: 'webhook', config: { path: 'bearer', authentication: 'bearer', rateLimit: '1000/1m' } });
  otherWorkflow = await activeWorkflow(other, { id: 'theirs', type: 'webhook', config: { path: 'theirs', authentication: 'hmac', rateLimit: '1000/1m' } });
  [secret, siblingSecret, bearerSecret] = await Promise.all([
    rotate(tenant, signedWorkflow, 'signed'),
    rotate(tenant, sibling, 'sibling'),
    rotate(tenant, bearerWorkflow, 'bearer'),
    rotate(other, otherWorkflow, 'theirs'),
  ]);
});

afterAll(async () => {
  await api?.close();
});

const hook = (path: string, orgRef = slug) => `/api/hooks/${orgRef}/${path}`;

async function sideEffects(workflowId = signedWorkflow): Promise<{ runs: number; receipts: number }> {
  const db = api.deps.db;
  const [{ runs }] = await db('workflow_runs').where({ workflow_id: workflowId }).count<{ runs: string }[]>('* as runs');
  const [{ receipts }] = await db('webhook_receipts').where({ workflow_id: workflowId }).count<{ receipts: string }[]>('* as receipts');
  return { runs: Number(runs), receipts: Number(receipts) };
}

const send = (body: string | Buffer, headers: Record<string, string>, path = hook('signed')): Promise<TestResponse> =>
  api.request('POST', path, { rawBody: body, headers: { 'content-type': 'application/json', ...headers } });

const msgId = () => `msg_${randomUUID()}`;

describe('signatures', () => {
  test('forged, foreign, tampered and incomplete signatures: refused like an unknown hook, no run, no receipt', async () => {
    const unknown = await send('{}', {}, hook('no-such-hook'));
    const before = await sideEffects();
    const body = '{"n":1}';
    const good = signatureHeaders(secret, msgId(), body);
    const ts = Number(good['webhook-timestamp']);
    const macOnly = good['webhook-signature']!.slice(3);
    const cases: [string, string, Record<string, string>][] = [
      ['random signature', body, { ...good, 'webhook-signature': `v1,${randomBytes(32).toString('base64')}` }],
      ['empty signature', body, { ...good, 'webhook-signature': '' }],
      ['signature without version', body, { ...good, 'webhook-signature': macOnly }],
      ['right MAC under another version (v2)', body, { ...good, 'webhook-signature': `v2,${macOnly}` }],
      ['right MAC truncated', body, { ...good, 'webhook-signature': `v1,${Buffer.from(macOnly, 'base64').subarray(0, 16).toString('base64')}` }],
      ['signed with another trigger of the same organization', body, signatureHeaders(siblingSecret, msgId(), body)],
      ['signed with the text of the secret instead of its decoded key', body, { ...good, 'webhook-signature': sign(secret.slice('whsec_'.length), good['webhook-id']!, ts, body) }],
      ['valid signature over another body', '{"n":2}', good],
      ['valid signature, body with a trailing space', `${body} `, good],
      ['valid signature, another webhook-id', body, { ...good, 'webhook-id': msgId() }],
      ['valid signature, timestamp moved by one second', body, { ...good, 'webhook-timestamp': String(ts + 1) }],
      ['no webhook-signature', body, { 'webhook-id': good['webhook-id']!, 'webhook-timestamp': good['webhook-timestamp']! }],
      ['no webhook-id', body, { 'webhook-timestamp': good['webhook-timestamp']!, 'webhook-signature': good['webhook-signature']! }],
      ['no webhook-timestamp', body, { 'webhook-id': good['webhook-id']!, 'webhook-signature': good['webhook-signature']! }],
      ['no headers at all', body, {}],
      ['a bearer token instead of a signature', body, { authorization: `Bearer ${secret}` }],
    ];
    const failures: string[] = [];
    for (const [name, b, headers] of cases) {
      const res = await send(b, headers);
      if (res.status !== 404 || answerOf(res) !== answerOf(unknown)) failures.push(`${name}: ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
    expect(await sideEffects()).toEqual(before);
    // The control: the untouched delivery is accepted.
    expect((await send(body, good)).status).toBe(202);
    console.info(`webhooks: ${cases.length} forged signatures refused`);
  });

  test('skewed timestamps (past and future beyond the tolerance, malformed) are refused even when correctly signed', async () => {
    const unknown = await send('{}', {}, hook('no-such-hook'));
    const before = await sideEffects();
    const body = '{"n":3}';
    const at = (ms: number) => signatureHeaders(secret, msgId(), body, new Date(Date.now() + ms));
    const id = msgId();
    const cases: [string, Record<string, string>][] = [
      ['tolerance + 60 s in the past', at(-TOLERANCE_MS - 60_000)],
      ['tolerance + 60 s in the future', at(TOLERANCE_MS + 60_000)],
      ['one day in the past', at(-86_400_000)],
      ['one year in the future', at(365 * 86_400_000)],
      ['milliseconds instead of seconds', { 'webhook-id': id, 'webhook-timestamp': String(Date.now()), 'webhook-signature': sign(secret, id, Date.now(), body) }],
      ['negative', { 'webhook-id': id, 'webhook-timestamp': '-1', 'webhook-signature': sign(secret, id, -1, body) }],
      ['zero', { 'webhook-id': id, 'webhook-timestamp': '0', 'webhook-signature': sign(secret, id, 0, body) }],
      ['ISO date', { 'webhook-id': id, 'webhook-timestamp': new Date().toISOString(), 'webhook-signature': sign(secret, id, 0, body) }],
      ['fractional', { 'webhook-id': id, 'webhook-timestamp': `${Math.floor(Date.now() / 1000)}.5`, 'webhook-signature': sign(secret, id, Math.floor(Date.now() / 1000), body) }],
    ];
    const failures: string[] = [];
    for (const [name, headers] of cases) {
      const res = await send(body, headers);
      if (res.status !== 404 || answerOf(res) !== answerOf(unknown)) failures.push(`${name}: ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
    expect(await sideEffects()).toEqual(before);
    // Inside the tolerance (4 minutes either way) the same delivery is fine.
    expect((await send(body, at(-TOLERANCE_MS + 60_000))).status).toBe(202);
    expect((await send(body, at(TOLERANCE_MS - 60_000))).status).toBe(202);
  });

  test("bearer: another trigger's secret, the HMAC secret, a second scheme or a lower-case scheme are refused", async () => {
    const before = await sideEffects(bearerWorkflow);
    const unknown = await send('{}', {}, hook('no-such-hook'));
    const cases = [`Bearer ${siblingSecret}`, `Bearer ${secret}`, `bearer ${bearerSecret}`, `Basic ${bearerSecret}`, `Bearer ${bearerSecret} extra`, `Bearer  ${bearerSecret}`, `Bearer ${bearerSecret.slice(0, -1)}`];
    const failures: string[] = [];
    for (const authorization of cases) {
      const res = await send('{}', { authorization }, hook('bearer'));
      if (res.status !== 404 || answerOf(res) !== answerOf(unknown)) failures.push(`${authorization.slice(0, 12)}: ${res.status}`);
    }
    expect(failures).toEqual([]);
    expect(await sideEffects(bearerWorkflow)).toEqual(before);
    expect((await send('{}', { authorization: `Bearer ${bearerSecret}` }, hook('bearer'))).status).toBe(202);
  });
});

describe('replays', () => {
  test('the same delivery (same webhook-id, valid signature) sent again, sequentially and concurrently, starts one run', async () => {
    const body = '{"n":4}';
    const headers = signatureHeaders(secret, msgId(), body);
    const before = await sideEffects();
    const first = await send(body, headers);
    expect(first.status).toBe(202);
    const replays = await Promise.all(Array.from({ length: 6 }, () => send(body, headers)));
    for (const replay of replays) {
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.body.run_id).toBe(first.body.run_id);
    }
    // A fresh delivery sent 8 times at once: one run, the others answer the same run id.
    const burstHeaders = signatureHeaders(secret, msgId(), body);
    const burst = await Promise.all(Array.from({ length: 8 }, () => send(body, burstHeaders)));
    expect(burst.filter((r) => r.status === 202)).toHaveLength(1);
    expect(new Set(burst.map((r) => r.body?.run_id)).size).toBe(1);
    expect(burst.every((r) => r.status === 202 || r.status === 200)).toBe(true);
    expect(await sideEffects()).toEqual({ runs: before.runs + 2, receipts: before.receipts + 2 });
  });

  test('a captured delivery replayed with another body under the same webhook-id is refused, even re-signed headers reused', async () => {
    const id = msgId();
    const body = '{"n":5}';
    const headers = signatureHeaders(secret, id, body);
    expect((await send(body, headers)).status).toBe(202);
    const before = await sideEffects();
    // The attacker keeps the captured headers and changes the body: the signature no longer matches.
    expect((await send('{"n":6}', headers)).status).toBe(404);
    // The captured headers with the query string changed (not covered by the signature) start nothing new.
    const withQuery = await send(body, headers, `${hook('signed')}?n=99`);
    expect(withQuery.status).toBe(409);
    expect(withQuery.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(await sideEffects()).toEqual(before);
  });
});

/** Sends `total` bytes in 16 KiB chunks (chunked, or with the given Content-Length), stopping at the server's answer. */
function streamBody(path: string, total: number, headers: Record<string, string>): Promise<StreamOutcome> {
  return streamPost(api.baseUrl + path, { headers, total, chunk: Buffer.alloc(16 * 1024, 0x20) });
}

describe('body', () => {
  test('oversized bodies are refused with 413: a declared length before reading, a chunked body once past the limit', async () => {
    const before = await sideEffects();
    const total = 64 * 1024 * 1024;
    const declared = await streamBody(hook('signed'), total, { 'content-type': 'application/json', 'content-length': String(total), ...signatureHeaders(secret, msgId(), '{}') });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body!).error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(declared.sentBytes).toBeLessThan(total);

    const chunked = await streamBody(hook('signed'), total, { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...signatureHeaders(secret, msgId(), '{}') });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body!).error.code).toBe('PAYLOAD_TOO_LARGE');
    // Refused mid-stream: the server stopped taking bytes long before the 64 MB were sent.
    expect(chunked.sentBytes).toBeLessThan(total / 4);

    // A body one byte over the limit, fully sent and correctly signed, is refused too; exactly at the limit it is read.
    const pad = (size: number) => `{"n":7,"p":"${'x'.repeat(size - 14)}"}`;
    const over = pad(MAX_BODY + 1);
    expect(Buffer.byteLength(over)).toBe(MAX_BODY + 1);
    expect((await send(over, signatureHeaders(secret, msgId(), over))).status).toBe(413);
    expect(await sideEffects()).toEqual(before);
    const exact = pad(MAX_BODY);
    expect((await send(exact, signatureHeaders(secret, msgId(), exact))).status).toBe(202);
  });

  test('wrong content types: 415 for a signed binary or XML body, 400 for signed non-JSON declared as JSON, no run', async () => {
    const before = await sideEffects();
    const cases: [string, string | Buffer, number][] = [
      ['application/octet-stream', Buffer.from([0, 1, 2, 255]), 415],
      ['application/xml', '<n>1</n>', 415],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="n"\r\n\r\n1\r\n--x--\r\n', 415],
      ['image/png', Buffer.from('89504e470d0a1a0a', 'hex'), 415],
      ['application/json', '{"n":', 400],
      ['application/json', Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), 400],
    ];
    const failures: string[] = [];
    for (const [type, body, status] of cases) {
      const res = await api.request('POST', hook('signed'), { rawBody: body, headers: { 'content-type': type, ...signatureHeaders(secret, msgId(), body) } });
      if (res.status !== status || !isEnvelope(res.body)) failures.push(`${type}: ${res.status} ${res.text.slice(0, 100)}`);
    }
    expect(failures).toEqual([]);
    expect(await sideEffects()).toEqual(before);
  });
});

describe('addressing', () => {
  test("another organization's webhook, unknown and malformed organization references all give the same 404", async () => {
    const unknown = await send('{}', {}, hook('no-such-hook'));
    expect(unknown.status).toBe(404);
    const [before, beforeOther] = [await sideEffects(), await sideEffects(otherWorkflow)];
    const otherSlug = (await api.deps.db('organizations').where({ id: other.organizationId }).first('slug')).slug as string;
    const body = '{"n":8}';
    const theirs = signatureHeaders(secret, msgId(), body);
    const paths = [
      // B's path under A's organization (by slug and id), A's path under B's organization.
      hook('theirs'),
      hook('theirs', tenant.organizationId),
      hook('signed', other.organizationId),
      hook('signed', otherSlug),
      hook('signed', randomUUID()),
      hook('signed', 'no-such-organization'),
      hook('signed', tenant.organizationId.toUpperCase().replace(/-/g, '')),
      hook('signed', `${tenant.organizationId}x`),
      hook('signed', encodeURIComponent(`${slug}' OR '1'='1`)),
      hook('signed', encodeURIComponent(`${slug}%`)),
      hook('signed', '%00'),
      hook('signed', encodeURIComponent('ｏｒｇ')),
      hook('%2e%2e%2fsigned'),
      hook('SIGNED'),
      hook('signed%00'),
      hook(encodeURIComponent('signed ')),
      hook('x'.repeat(100)),
    ];
    const failures: string[] = [];
    for (const path of paths) {
      const res = await send(body, theirs, path);
      if (res.status !== 404 || answerOf(res) !== answerOf(unknown)) failures.push(`${path}: ${res.status} ${res.text.slice(0, 120)}`);
    }
    expect(failures).toEqual([]);
    expect([await sideEffects(), await sideEffects(otherWorkflow)]).toEqual([before, beforeOther]);
  });
});
