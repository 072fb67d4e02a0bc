import { randomUUID } from 'node:crypto';
import { signatureHeaders } from '../../lib/triggers/standardWebhooks';
import { waitForRun } from '../helpers/runs';
import { startApi, type TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';

/** Inbound webhook triggers: URL scoping, each authentication mode, replays, idempotency, limits, mapping. */

let api: TestApi;
let tenant: TestTenant;
let slug: string;

beforeAll(async () => {
  api = await startApi();
  tenant = await createTestTenant(api);
  slug = (await api.deps.db('organizations').where({ id: tenant.organizationId }).first('slug')).slug;
});
afterAll(async () => {
  await api.close();
});

const echo = { id: 'echo', type: 'tool', config: { tool: 'json_transform', config: { expression: '$' } } };

async function activeWorkflow(t: TestTenant, triggers: unknown[], parameters: unknown[] = []): Promise<string> {
  const created = await api.request('POST', '/api/v1/workflows', {
    token: t.owner.token,
    body: { name: `hooks ${randomUUID().slice(0, 6)}`, dag: { nodes: [echo] }, triggers, parameters },
  });
  expect(created.status).toBe(201);
  const activated = await api.request('POST', `/api/v1/workflows/${created.body.id}/activate`, { token: t.owner.token });
  expect(activated.status).toBe(200);
  return created.body.id as string;
}

async function newSecret(t: TestTenant, workflowId: string, key: string): Promise<string> {
  const res = await api.request('POST', `/api/v1/workflows/${workflowId}/triggers/${key}/secret`, { token: t.owner.token });
  expect(res.status).toBe(201);
  expect(res.body.secret).toMatch(/^whsec_/);
  return res.body.secret as string;
}

const hook = (path: string, orgRef = slug) => `/api/hooks/${orgRef}/${path}`;

/** A hook that does not exist and one the caller is not authenticated for answer alike (api/triggers/webhookIngress.ts). */
const NO_HOOK = { code: 'NOT_FOUND', message: expect.stringMatching(/^no webhook trigger at this URL accepts this request/), request_id: expect.any(String) };

async function runCount(workflowId: string): Promise<number> {
  const [{ count }] = await api.deps.db('workflow_runs').where({ workflow_id: workflowId }).count<{ count: string }[]>('* as count');
  return Number(count);
}

describe('save-time validation', () => {
  test.each([
    [{ type: 'webhook', id: 'open', config: { path: 'x', authentication: 'none' } }, 'triggers[0].config.authentication', /allowUnauthenticated/],
    [{ type: 'webhook', id: 'deep', config: { path: 'a/b' } }, 'triggers[0].config.path', /one URL segment/],
    [{ type: 'webhook', id: 'map', config: { path: 'm', parameters: { n: 'body..x' } } }, 'triggers[0].config.parameters.n', /dotted reference/],
  ])('%j is refused with 422 naming the trigger', async (trigger, path, problem) => {
    const res = await api.request('POST', '/api/v1/workflows', { token: tenant.owner.token, body: { name: 'bad', dag: { nodes: [echo] }, triggers: [trigger] } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('WORKFLOW_INVALID');
    const detail = res.body.error.details.find((d: { path: string }) => d.path === path);
    expect(detail?.problem).toMatch(problem);
    expect(detail?.problem).toMatch(/^trigger "/);
  });
});

describe('bearer', () => {
  let workflowId: string;
  beforeAll(async () => {
    workflowId = await activeWorkflow(
      tenant,
      [{ id: 'orders', type: 'webhook', config: { path: 'orders', method: 'POST', authentication: 'bearer', parameters: { order: 'body.order.id', source: 'query.source', delivery: 'headers.x-delivery' } } }],
      [
        { name: 'order', type: 'integer', required: true },
        { name: 'source', type: 'string' },
        { name: 'delivery', type: 'string' },
      ],
    );
  });

  test('no secret yet: refused like an unknown hook; then the secret (shown once) starts a run with mapped parameters', async () => {
    const before = await api.request('POST', hook('orders'), { body: { order: { id: 1 } }, headers: { authorization: 'Bearer nope' } });
    expect(before.status).toBe(404);
    expect(before.body.error).toEqual(NO_HOOK);

    const secret = await newSecret(tenant, workflowId, 'orders');
    const listed = await api.request('GET', `/api/v1/workflows/${workflowId}/triggers`, { token: tenant.owner.token });
    expect(listed.status).toBe(200);
    const view = listed.body.data[0];
    expect(view).toMatchObject({ key: 'orders', type: 'webhook', state: 'active', method: 'POST', authentication: 'bearer', secret: { configured: true } });
    expect(view.url).toMatch(new RegExp(`/api/hooks/${slug}/orders$`));
    expect(listed.text).not.toContain(secret);

    const missing = await api.request('POST', hook('orders'), { body: { order: { id: 1 } } });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toEqual(NO_HOOK);
    const wrong = await api.request('POST', hook('orders'), { body: { order: { id: 1 } }, headers: { authorization: `Bearer ${secret}x` } });
    expect(wrong.status).toBe(404);
    expect(wrong.body.error).toEqual(NO_HOOK);

    const ok = await api.request('POST', `${hook('orders')}?source=shop`, {
      body: { order: { id: 42 } },
      headers: { authorization: `Bearer ${secret}`, 'x-delivery': 'd-1', 'x-request-id': 'hook-request-42' },
    });
    expect(ok.status).toBe(202);
    // The caller's request id travels into the run's Temporal memo, as for runs started through the runs API.
    const described = await api.deps.temporal.workflow.getHandle(ok.body.run_id).describe();
    expect(described.memo).toMatchObject({ requestId: 'hook-request-42' });
    expect(ok.headers.get('location')).toBe(`/api/v1/workflows/${workflowId}/runs/${ok.body.run_id}`);
    const run = await waitForRun(api, tenant.owner.token, workflowId, ok.body.run_id);
    expect(run.status).toBe('completed');
    expect(run.parameters).toEqual({ order: 42, source: 'shop', delivery: 'd-1' });
    expect(run.trigger).toMatchObject({ type: 'webhook', triggerId: 'orders', method: 'POST' });
  });

  test('rotation: the old secret stops working at once', async () => {
    const first = await newSecret(tenant, workflowId, 'orders');
    const second = await newSecret(tenant, workflowId, 'orders');
    const old = await api.request('POST', hook('orders'), { body: { order: { id: 1 } }, headers: { authorization: `Bearer ${first}` } });
    expect(old.status).toBe(404);
    const fresh = await api.request('POST', hook('orders'), { body: { order: { id: 2 } }, headers: { authorization: `Bearer ${second}` } });
    expect(fresh.status).toBe(202);
  });

  test('bad parameters: 422 and no run; other methods, unknown path and another org: 404', async () => {
    const secret = await newSecret(tenant, workflowId, 'orders');
    const auth = { authorization: `Bearer ${secret}` };
    const count = await runCount(workflowId);
    const bad = await api.request('POST', hook('orders'), { body: { order: { id: 'x' } }, headers: auth });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('INVALID_PARAMETERS');
    expect(await runCount(workflowId)).toBe(count);
    const put = await api.request('PUT', hook('orders'), { body: {}, headers: auth });
    // An authenticated hook does not confirm its path to other methods (405 + Allow only for `none` hooks).
    expect(put.status).toBe(404);
    expect(put.body.error).toEqual(NO_HOOK);
    expect((await api.request('POST', hook('nothing-here'), { body: {}, headers: auth })).status).toBe(404);
    const other = await createTestTenant(api);
    expect((await api.request('POST', hook('orders', other.organizationId), { body: {}, headers: auth })).status).toBe(404);
    // by id works like the slug
    expect((await api.request('POST', hook('orders', tenant.organizationId), { body: { order: { id: 3 } }, headers: auth })).status).toBe(202);
  });

  test('a paused workflow does not answer; activated again it does', async () => {
    const secret = await newSecret(tenant, workflowId, 'orders');
    expect((await api.request('POST', `/api/v1/workflows/${workflowId}/pause`, { token: tenant.owner.token })).status).toBe(200);
    const paused = await api.request('POST', hook('orders'), { body: { order: { id: 1 } }, headers: { authorization: `Bearer ${secret}` } });
    expect(paused.status).toBe(404);
    expect((await api.request('POST', `/api/v1/workflows/${workflowId}/activate`, { token: tenant.owner.token })).status).toBe(200);
    const back = await api.request('POST', hook('orders'), { body: { order: { id: 1 } }, headers: { authorization: `Bearer ${secret}` } });
    expect(back.status).toBe(202);
  });
});

describe('hmac (Standard Webhooks)', () => {
  let workflowId: string;
  let secret: string;
  beforeAll(async () => {
    workflowId = await activeWorkflow(tenant, [{ id: 'signed', type: 'webhook', config: { path: 'signed', authentication: 'hmac' } }], [
      { name: 'n', type: 'integer' },
    ]);
    secret = await newSecret(tenant, workflowId, 'signed');
  });

  const send = (body: string, headers: Record<string, string>) =>
    api.request('POST', hook('signed'), { rawBody: body, headers: { 'content-type': 'application/json', ...headers } });

  test('a valid signature starts one run; the replay of the same delivery starts none', async () => {
    const body = JSON.stringify({ n: 7 });
    const headers = signatureHeaders(secret, `msg_${randomUUID()}`, body);
    const first = await send(body, headers);
    expect(first.status).toBe(202);
    const count = await runCount(workflowId);
    const replay = await send(body, headers);
    expect(replay.status).toBe(200);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toMatchObject({ run_id: first.body.run_id, replayed: true });
    expect(await runCount(workflowId)).toBe(count);
    const run = await waitForRun(api, tenant.owner.token, workflowId, first.body.run_id);
    expect(run.parameters).toEqual({ n: 7 });
  });

  test('the same webhook-id with another (validly signed) body is a conflict', async () => {
    const id = `msg_${randomUUID()}`;
    expect((await send('{"n":1}', signatureHeaders(secret, id, '{"n":1}'))).status).toBe(202);
    const other = await send('{"n":2}', signatureHeaders(secret, id, '{"n":2}'));
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_CONFLICT');
  });

  test('bad signatures, tampered bodies, stale timestamps and missing headers: refused like an unknown hook, no run', async () => {
    const count = await runCount(workflowId);
    const body = '{"n":3}';
    const good = signatureHeaders(secret, `msg_${randomUUID()}`, body);
    // [what is wrong, body, headers]; the reason is logged, never answered.
    const cases: [string, string, Record<string, string>][] = [
      ['bad signature', body, { ...good, 'webhook-signature': 'v1,AAAA' }],
      ['tampered body', '{"n":4}', good],
      ['another key', body, signatureHeaders('whsec_' + Buffer.from('another secret key!!').toString('base64'), `msg_${randomUUID()}`, body)],
      ['stale timestamp', body, signatureHeaders(secret, `msg_${randomUUID()}`, body, new Date(Date.now() - 6 * 60_000))],
      ['missing signature', body, { 'webhook-id': good['webhook-id']!, 'webhook-timestamp': good['webhook-timestamp']! }],
    ];
    for (const [what, b, h] of cases) {
      const res = await send(b, h);
      expect({ what, status: res.status, error: res.body.error }).toEqual({ what, status: 404, error: NO_HOOK });
    }
    expect(await runCount(workflowId)).toBe(count);
  });
});

test('an Idempotency-Key of the full 255 characters is a delivery key like any other (it overflowed the column: a 500)', async () => {
  await activeWorkflow(tenant, [{ id: 'long', type: 'webhook', config: { path: 'long-key', authentication: 'none', allowUnauthenticated: true } }]);
  const key = 'k'.repeat(255);
  const first = await api.request('POST', hook('long-key'), { body: { n: 1 }, headers: { 'idempotency-key': key } });
  expect(first.status).toBe(202);
  const retry = await api.request('POST', hook('long-key'), { body: { n: 1 }, headers: { 'idempotency-key': key } });
  expect({ status: retry.status, run: retry.body.run_id }).toEqual({ status: 200, run: first.body.run_id });
});

describe('none, idempotency and limits', () => {
  let workflowId: string;
  beforeAll(async () => {
    workflowId = await activeWorkflow(
      tenant,
      [{ id: 'open', type: 'webhook', config: { path: 'open', method: 'put', authentication: 'none', allowUnauthenticated: true, rateLimit: '4/1m' } }],
      [{ name: 'n', type: 'integer' }],
    );
  });

  test('Idempotency-Key: the retry of a delivery answers the first run; a different body with it is a conflict', async () => {
    const key = randomUUID();
    const first = await api.request('PUT', hook('open'), { body: { n: 1 }, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(202);
    const retry = await api.request('PUT', hook('open'), { body: { n: 1 }, headers: { 'idempotency-key': key } });
    expect(retry.status).toBe(200);
    expect(retry.body.run_id).toBe(first.body.run_id);
    const conflict = await api.request('PUT', hook('open'), { body: { n: 2 }, headers: { 'idempotency-key': key } });
    expect(conflict.status).toBe(409);
    expect(await runCount(workflowId)).toBe(1);
    const run = await waitForRun(api, tenant.owner.token, workflowId, first.body.run_id);
    expect(run.trigger.type).toBe('webhook');
  });

  test('per-trigger rate limit: 429 with Retry-After', async () => {
    let limited: Awaited<ReturnType<TestApi['request']>> | undefined;
    for (let i = 0; i < 6 && !limited; i++) {
      const res = await api.request('PUT', hook('open'), { body: { n: i } });
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(202);
    }
    expect(limited?.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited?.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  test('size limit 413, malformed JSON 400, unsupported type 415', async () => {
    const other = await activeWorkflow(tenant, [{ id: 'big', type: 'webhook', config: { path: 'big', authentication: 'none', allowUnauthenticated: true } }]);
    expect(other).toBeDefined();
    const big = await api.request('POST', hook('big'), { rawBody: JSON.stringify({ pad: 'x'.repeat(api.config.triggers.webhookMaxBodyBytes) }), headers: { 'content-type': 'application/json' } });
    expect(big.status).toBe(413);
    const malformed = await api.request('POST', hook('big'), { rawBody: '{"a":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    const binary = await api.request('POST', hook('big'), { rawBody: Buffer.from([1, 2, 3]), headers: { 'content-type': 'application/octet-stream' } });
    expect(binary.status).toBe(415);
  });

  test('two organizations may use the same path: each URL starts its own workflow', async () => {
    const other = await createTestTenant(api);
    const otherSlug = (await api.deps.db('organizations').where({ id: other.organizationId }).first('slug')).slug;
    const otherWorkflow = await activeWorkflow(other, [{ id: 'open', type: 'webhook', config: { path: 'open', method: 'PUT', authentication: 'none', allowUnauthenticated: true } }]);
    const res = await api.request('PUT', hook('open', otherSlug), { body: {} });
    expect(res.status).toBe(202);
    expect(res.body.workflow_id).toBe(otherWorkflow);
  });
});
