import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { WorkflowNotFoundError } from '@temporalio/client';
import { DISPATCHER_WORKFLOW_TYPE } from '../../../domain/events/dispatcher';
import { currentPeriod } from '../../../domain/organizations/usageMeter';
import { signatureHeaders } from '../../../lib/triggers/standardWebhooks';
import { privateApi, privateWorker, type PrivateApi, type PrivateProcess } from '../../helpers/faults';
import { TEST_RATE_LIMIT_OVERRIDES, startApi, type TestApi } from '../../helpers/stack';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';
import { eventually, startDispatcher } from '../../helpers/triggers';

/**
 * Scale-out with real processes: two API processes (`api/server.ts`, own ports) and two worker processes (the run's
 * worker and a second one on the same task queue) against one PostgreSQL, Temporal and MinIO, and one vector store
 * (CONTENT_VECTOR_URI of the run). An in-process API serves only as fixture maker (rows, tokens, database reads).
 */

let fixtures: TestApi;
let a: PrivateApi;
let b: PrivateApi;
let worker: PrivateProcess;
let tenant: TestTenant;
let slug: string;
const secondDispatcherId = `loom-event-dispatcher-second-${randomUUID().slice(0, 8)}`;

const echo = { id: 'echo', type: 'tool', config: { tool: 'json_transform', config: { expression: '$' } } };

beforeAll(async () => {
  const dir = process.env.LOOM_TEST_DIR!;
  const env = { ...TEST_RATE_LIMIT_OVERRIDES, SERVICE_AUTH_BCRYPT_COST: '4', SERVICE_PLAN_FREE_API_CALLS: '5' };
  fixtures = await startApi();
  [a, b] = await Promise.all([privateApi(env, path.join(dir, 'api-a.log')), privateApi(env, path.join(dir, 'api-b.log'))]);
  worker = privateWorker({}, path.join(dir, 'worker-2.log'));
  await Promise.all([a.start(), b.start(), worker.start()]);
  tenant = await createTestTenant(fixtures);
  slug = (await fixtures.deps.db('organizations').where({ id: tenant.organizationId }).first('slug')).slug as string;
}, 120_000);

afterAll(async () => {
  await fixtures.deps.temporal.workflow
    .getHandle(secondDispatcherId)
    .terminate('test finished')
    .catch((err: unknown) => {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    });
  await Promise.all([a?.stop('SIGTERM'), b?.stop('SIGTERM'), worker?.stop('SIGTERM')]);
  await fixtures?.close();
});

async function activeWorkflow(api: PrivateApi, triggers: unknown[], parameters: unknown[] = []): Promise<string> {
  const created = await api.request('POST', '/api/v1/workflows', {
    token: tenant.owner.token,
    body: { name: `scale ${randomUUID().slice(0, 6)}`, dag: { nodes: [echo] }, triggers, parameters },
  });
  expect(created.status).toBe(201);
  expect((await api.request('POST', `/api/v1/workflows/${created.body.id}/activate`, { token: tenant.owner.token })).status).toBe(200);
  return created.body.id as string;
}

type RunRow = { id: string; status: string; trigger: Record<string, unknown> };
const runsOf = (workflowId: string): Promise<RunRow[]> => fixtures.deps.db('workflow_runs').where({ workflow_id: workflowId }).select('id', 'status', 'trigger');

async function allFinished(workflowId: string, expected: number): Promise<RunRow[]> {
  return eventually(async () => {
    const runs = await runsOf(workflowId);
    return runs.length >= expected && runs.every((r) => r.status === 'completed' || r.status === 'failed') ? runs : undefined;
  }, `${expected} finished runs of ${workflowId}`, 100_000);
}

test('a token issued through one API process works on the other; logout through one revokes it on both', async () => {
  const password = `Sc4le!${randomUUID()}`;
  const reg = await a.request('POST', '/api/auth/register', { body: { email: `scale-${randomUUID().slice(0, 12)}@example.com`, password, name: 'Scale' } });
  expect(reg.status).toBe(201);
  const token = reg.body.tokens.accessToken as string;
  expect((await b.request('GET', '/api/auth/me', { token })).status).toBe(200);
  expect((await b.request('POST', '/api/auth/logout', { token })).status).toBe(204);
  expect((await a.request('GET', '/api/auth/me', { token })).status).toBe(401);
  expect((await b.request('GET', '/api/auth/me', { token })).status).toBe(401);
});

test("the plan's API-call quota and a webhook's rate limit are one budget across API processes", async () => {
  // Free plan, 5 calls a month (SERVICE_PLAN_FREE_API_CALLS of both processes).
  const free = await createTestTenant(fixtures, 'free');
  for (let i = 0; i < 5; i++) expect((await a.request('GET', '/api/v1/workflows', { token: free.owner.token })).status).toBe(200);
  // A counts in memory and flushes every second; once its count is stored, B refuses the sixth call.
  await eventually(async () => ((await fixtures.deps.db('organization_usage').where({ organization_id: free.organizationId, period: currentPeriod() }).first('api_calls'))?.api_calls >= 5 ? true : undefined), 'flushed usage');
  const refused = await b.request('GET', '/api/v1/workflows', { token: free.owner.token });
  expect(refused.status).toBe(429);
  expect(refused.body.error.code).toBe('QUOTA_EXCEEDED');

  const workflowId = await activeWorkflow(a, [{ id: 'limited', type: 'webhook', config: { path: 'limited', authentication: 'bearer', rateLimit: '4/1h' } }]);
  const secret = (await b.request('POST', `/api/v1/workflows/${workflowId}/triggers/limited/secret`, { token: tenant.owner.token })).body.secret as string;
  const statuses: Record<'a' | 'b', number[]> = { a: [], b: [] };
  for (let i = 0; i < 8; i++) {
    const name = i % 2 === 0 ? 'a' : 'b';
    const res = await (name === 'a' ? a : b).request('POST', `/api/hooks/${slug}/limited`, { body: {}, headers: { authorization: `Bearer ${secret}` } });
    statuses[name].push(res.status);
  }
  expect([...statuses.a, ...statuses.b].filter((s) => s === 202)).toHaveLength(4);
  expect(statuses.a.slice(2)).toEqual([429, 429]);
  expect(statuses.b.slice(2)).toEqual([429, 429]);
  expect(await allFinished(workflowId, 4)).toHaveLength(4);
}, 150_000);

test('one signed webhook delivery sent to both API processes at once, and replayed, starts exactly one run', async () => {
  const workflowId = await activeWorkflow(a, [{ id: 'signed', type: 'webhook', config: { path: 'signed', authentication: 'hmac', rateLimit: '1000/1m' } }], [
    { name: 'n', type: 'integer' },
  ]);
  const secret = (await a.request('POST', `/api/v1/workflows/${workflowId}/triggers/signed/secret`, { token: tenant.owner.token })).body.secret as string;
  const deliveries = Array.from({ length: 5 }, (_, n) => {
    const body = JSON.stringify({ n });
    return { body, headers: { 'content-type': 'application/json', ...signatureHeaders(secret, `msg_${randomUUID()}`, body) } };
  });
  const send = (api: PrivateApi, d: (typeof deliveries)[number]) => api.request('POST', `/api/hooks/${slug}/signed`, { rawBody: d.body, headers: d.headers });
  // Each delivery three times to each process, all at once, then once more to each.
  const concurrent = await Promise.all(deliveries.flatMap((d) => [a, b, a, b, a, b].map((api) => send(api, d).then((res) => ({ d, res })))));
  const replays = await Promise.all(deliveries.flatMap((d) => [a, b].map((api) => send(api, d).then((res) => ({ d, res })))));
  for (const { d, res } of [...concurrent, ...replays]) {
    expect([200, 202]).toContain(res.status);
    const same = concurrent.find((c) => c.d === d && c.res.status === 202)!;
    expect(res.body.run_id).toBe(same.res.body.run_id);
  }
  expect(concurrent.filter((c) => c.res.status === 202)).toHaveLength(deliveries.length);
  const runs = await allFinished(workflowId, deliveries.length);
  expect(runs).toHaveLength(deliveries.length);
  expect(new Set(runs.map((r) => r.trigger.deliveryKey)).size).toBe(deliveries.length);
  expect(runs.every((r) => r.status === 'completed')).toBe(true);
}, 150_000);

test('events published through both API processes are dispatched once each, with two dispatchers racing on two workers', async () => {
  const workflowId = await activeWorkflow(b, [{ type: 'event', config: { source: 'custom', event: 'scale.tick' } }], [{ name: 'seq', type: 'integer' }]);
  await startDispatcher(fixtures);
  // A second dispatcher execution on the same task queue: two dispatch activities claim from one outbox at once.
  await fixtures.deps.temporal.workflow.start(DISPATCHER_WORKFLOW_TYPE, { taskQueue: fixtures.config.temporal.taskQueue, workflowId: secondDispatcherId, args: [] });
  const count = 12;
  const published = await Promise.all(
    Array.from({ length: count }, async (_, seq) => {
      // The same publish (same Idempotency-Key) sent to both processes: one event.
      const request = { token: tenant.owner.token, body: { type: 'custom.scale.tick', data: { seq } }, headers: { 'Idempotency-Key': `tick-${workflowId}-${seq}` } };
      // A duplicate waits up to 10 s for the first; on a loaded machine it may get 409 "still in progress" and, as a
      // client would, send again.
      const send = async (api: PrivateApi) => {
        for (;;) {
          const res = await api.request('POST', '/api/v1/events', request);
          if (res.status !== 409) return res;
        }
      };
      const [x, y] = await Promise.all([send(a), send(b)]);
      expect(x.status).toBe(202);
      expect(y.status).toBe(202);
      expect(y.body.id).toBe(x.body.id);
      return x.body.id as string;
    }),
  );
  const runs = await allFinished(workflowId, count);
  expect(runs).toHaveLength(count);
  expect(runs.map((r) => r.trigger.eventId).sort()).toEqual([...published].sort());
  const events = await fixtures.deps.db('outbox_events').where({ organization_id: tenant.organizationId, type: 'custom.scale.tick' }).select('id', 'dispatched_at');
  expect(events).toHaveLength(count);
  expect(events.every((e: { dispatched_at: Date | null }) => e.dispatched_at !== null)).toBe(true);
}, 150_000);

test('a document uploaded through one API process is found by content search through the other', async () => {
  const word = `zyx${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const form = new FormData();
  form.append('title', 'scale-out notes');
  form.append('file', new Blob([`Field notes about ${word} otters and their river habitat.\n`], { type: 'text/plain' }), 'notes.txt');
  const uploaded = await fetch(`${a.baseUrl}/api/v1/content`, { method: 'POST', headers: { authorization: `Bearer ${tenant.owner.token}` }, body: form });
  expect(uploaded.status).toBe(201);
  const contentId = ((await uploaded.json()) as { id: string }).id;
  const job = await eventually(async () => {
    const status = (await b.request('GET', `/api/v1/content/${contentId}/status`, { token: tenant.owner.token })).body?.job?.status as string | undefined;
    return status === 'succeeded' || status === 'failed' ? status : undefined;
  }, 'content processing', 100_000);
  expect(job).toBe('succeeded');
  for (const mode of ['keyword', 'semantic', 'hybrid']) {
    const found = await b.request('POST', '/api/v1/content/search', { token: tenant.owner.token, body: { query: `${word} otters`, mode } });
    expect(found.status).toBe(200);
    expect(found.body.data.map((hit: { content: { id: string } }) => hit.content.id)).toContain(contentId);
  }
}, 150_000);
