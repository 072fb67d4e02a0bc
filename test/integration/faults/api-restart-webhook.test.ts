import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { claimReceipt } from '../../../domain/triggers/queries';
import { prepareTriggeredRun } from '../../../domain/runs/launch';
import { signatureHeaders } from '../../../lib/triggers/standardWebhooks';
import { privateApi, type PrivateApi, type ProcessResponse } from '../../helpers/faults';
import { TEST_RATE_LIMIT_OVERRIDES, startApi, type TestApi } from '../../helpers/stack';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';
import { eventually, startDispatcher } from '../../helpers/triggers';

/**
 * An API process SIGKILLed in the middle of a stream of inbound webhook deliveries (and of published events), then
 * started again. Senders behave as senders do: every request that got no 2xx answer is sent again, unchanged (same
 * signature and webhook-id, same Idempotency-Key), and so are a few that did get one. Every delivery ends with
 * exactly one run: none lost, none twice. The crash windows inside one request (receipt claimed but no run row;
 * run row but no execution; event committed but response not stored) are also recreated exactly, since a kill at
 * a random moment may or may not land in them.
 */

let fixtures: TestApi;
let api: PrivateApi;
let tenant: TestTenant;
let slug: string;

const echo = { id: 'echo', type: 'tool', config: { tool: 'json_transform', config: { expression: '$' } } };

beforeAll(async () => {
  fixtures = await startApi();
  api = await privateApi({ ...TEST_RATE_LIMIT_OVERRIDES }, path.join(process.env.LOOM_TEST_DIR!, 'api-restart.log'));
  await api.start();
  tenant = await createTestTenant(fixtures);
  slug = (await fixtures.deps.db('organizations').where({ id: tenant.organizationId }).first('slug')).slug as string;
  await startDispatcher(fixtures);
}, 90_000);

afterAll(async () => {
  await api?.stop('SIGTERM');
  await fixtures?.close();
});

async function activeWorkflow(triggers: unknown[], parameters: unknown[]): Promise<string> {
  const created = await api.request('POST', '/api/v1/workflows', {
    token: tenant.owner.token,
    body: { name: `restart ${randomUUID().slice(0, 6)}`, dag: { nodes: [echo] }, triggers, parameters },
  });
  expect(created.status).toBe(201);
  expect((await api.request('POST', `/api/v1/workflows/${created.body.id}/activate`, { token: tenant.owner.token })).status).toBe(200);
  return created.body.id as string;
}

type RunRow = { id: string; status: string; trigger: Record<string, unknown> };

/** Waits until the workflow has `expected` runs, all finished; on a hang, says which runs were missing or stuck. */
async function finishedRuns(workflowId: string, expected: number): Promise<RunRow[]> {
  let runs: RunRow[] = [];
  try {
    return await eventually(async () => {
      runs = (await fixtures.deps.db('workflow_runs').where({ workflow_id: workflowId }).select('id', 'status', 'trigger')) as RunRow[];
      return runs.length >= expected && runs.every((r) => r.status === 'completed' || r.status === 'failed') ? runs : undefined;
    }, `${expected} finished runs`, 120_000);
  } catch (err) {
    const statuses = runs.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});
    throw new Error(`${(err as Error).message}: ${runs.length} runs ${JSON.stringify(statuses)}`);
  }
}

/** A network error (the process died, or is not up yet) is an answer without a status: 0. */
async function attempt(send: () => Promise<ProcessResponse>): Promise<ProcessResponse | { status: 0; body: undefined }> {
  return send().catch(() => ({ status: 0 as const, body: undefined }));
}

/**
 * Sends `count` requests, `parallel` at a time, and SIGKILLs the API once `killAfter` answers are in (requests in
 * flight then are cut). Returns each request's first answer (0: cut or refused).
 */
async function streamAndKill<T>(items: T[], send: (item: T) => Promise<ProcessResponse>, killAfter: number, parallel = 6) {
  const answers = new Map<T, ProcessResponse | { status: 0; body: undefined }>();
  let next = 0;
  let killing: Promise<void> | null = null;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      answers.set(item, await attempt(() => send(item)));
      if (answers.size >= killAfter) killing ??= api.stop('SIGKILL');
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  await killing;
  return answers;
}

/** What a sender does after the restart: resend until the answer is a 2xx. */
async function resendUntilAccepted(send: () => Promise<ProcessResponse>): Promise<ProcessResponse> {
  for (let i = 0; ; i++) {
    const res = await attempt(send);
    if (res.status >= 200 && res.status < 300) return res as ProcessResponse;
    if (i >= 20) throw new Error(`resend kept failing: ${res.status} ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('inbound webhooks', () => {
  let workflowId: string;
  let secret: string;
  const hook = () => `/api/hooks/${slug}/stream`;
  type Delivery = { id: string; body: string; headers: Record<string, string> };
  const delivery = (n: number): Delivery => {
    const id = `msg_${randomUUID()}`;
    const body = JSON.stringify({ n });
    return { id, body, headers: { 'content-type': 'application/json', ...signatureHeaders(secret, id, body) } };
  };
  const send = (d: Delivery) => api.request('POST', hook(), { rawBody: d.body, headers: d.headers });
  const requestHash = (d: Delivery) => createHash('sha256').update(`POST\n\n${Buffer.from(d.body).toString('base64')}`).digest('hex');

  beforeAll(async () => {
    workflowId = await activeWorkflow([{ id: 'stream', type: 'webhook', config: { path: 'stream', authentication: 'hmac', rateLimit: '1000/1m' } }], [
      { name: 'n', type: 'integer' },
    ]);
    secret = (await api.request('POST', `/api/v1/workflows/${workflowId}/triggers/stream/secret`, { token: tenant.owner.token })).body.secret as string;
  });

  test('a stream of signed deliveries cut by SIGKILL, resent to a new process: every delivery has exactly one run', async () => {
    const deliveries = Array.from({ length: 30 }, (_, n) => delivery(n));
    const first = await streamAndKill(deliveries, send, 10);
    const accepted = deliveries.filter((d) => first.get(d)!.status === 202);
    const unanswered = deliveries.filter((d) => first.get(d)!.status !== 202);
    expect(unanswered.length).toBeGreaterThan(0);
    expect(first.size).toBe(deliveries.length);

    await api.start();
    const finalRunId = new Map<Delivery, string>();
    for (const d of [...unanswered, ...accepted.slice(0, 4)]) {
      const res = await resendUntilAccepted(() => send(d));
      finalRunId.set(d, res.body.run_id as string);
    }
    for (const d of accepted.slice(0, 4)) {
      expect(finalRunId.get(d)).toBe(first.get(d)!.body.run_id);
    }

    const runs = await finishedRuns(workflowId, deliveries.length);
    expect(runs).toHaveLength(deliveries.length);
    for (const d of deliveries) {
      const mine = runs.filter((r) => r.trigger.deliveryKey === `webhook-id:${d.id}`);
      expect(mine).toHaveLength(1);
      expect(mine[0]!.status).toBe('completed');
      expect(mine[0]!.id).toBe(finalRunId.get(d) ?? first.get(d)!.body.run_id);
    }
  }, 180_000);

  test('the crash windows inside one delivery: receipt claimed without a run row, run row without an execution', async () => {
    const before = (await fixtures.deps.db('workflow_runs').where({ workflow_id: workflowId }).count<{ count: string }[]>('id as count'))[0]!.count;
    const db = fixtures.deps.db;
    // 1. The process died right after claiming the receipt.
    const claimedOnly = delivery(100);
    const claimedRunId = randomUUID();
    expect(await claimReceipt(db, { workflowId, triggerKey: 'stream', deliveryKey: `webhook-id:${claimedOnly.id}`, requestHash: requestHash(claimedOnly), runId: claimedRunId })).toBeNull();
    // 2. The process died after the run row, before the execution started.
    const rowOnly = delivery(101);
    const rowRunId = randomUUID();
    const deliveryKey = `webhook-id:${rowOnly.id}`;
    expect(await claimReceipt(db, { workflowId, triggerKey: 'stream', deliveryKey, requestHash: requestHash(rowOnly), runId: rowRunId })).toBeNull();
    const prepared = await prepareTriggeredRun({ ...fixtures.deps, config: fixtures.config }, {
      organizationId: tenant.organizationId,
      workflowId,
      runId: rowRunId,
      trigger: { type: 'webhook', triggerId: 'stream', method: 'POST', path: 'stream', deliveryKey },
      parameters: () => ({ n: 101 }),
      onInvalidParameters: 'refuse',
    });
    expect(prepared.kind).toBe('ready');

    for (const [d, runId] of [
      [claimedOnly, claimedRunId],
      [rowOnly, rowRunId],
    ] as const) {
      const resent = await send(d);
      expect(resent.status).toBe(200);
      expect(resent.body).toMatchObject({ run_id: runId, replayed: true });
      expect((await send(d)).body.run_id).toBe(runId);
    }
    const runs = await finishedRuns(workflowId, Number(before) + 2);
    for (const runId of [claimedRunId, rowRunId]) {
      expect(runs.filter((r) => r.id === runId).map((r) => r.status)).toEqual(['completed']);
    }
    expect(runs).toHaveLength(Number(before) + 2);
  });
});

describe('events published through the API', () => {
  let workflowId: string;
  const publish = (seq: number, key: string) =>
    api.request('POST', '/api/v1/events', { token: tenant.owner.token, body: { type: 'custom.restart.tick', data: { seq } }, headers: { 'Idempotency-Key': key } });
  const eventsOf = (seq: number) =>
    fixtures.deps.db('outbox_events').where({ organization_id: tenant.organizationId, type: 'custom.restart.tick' }).whereRaw("(payload->>'seq')::int = ?", [seq]).select('id', 'dispatched_at');

  beforeAll(async () => {
    workflowId = await activeWorkflow([{ type: 'event', config: { source: 'custom', event: 'restart.tick' } }], [{ name: 'seq', type: 'integer' }]);
  });

  /** The lease of a request that was running when its process died lapses after 2 minutes; here at once. */
  const lapseLeases = () => fixtures.deps.db('idempotency_keys').where({ organization_id: tenant.organizationId, state: 'in_progress' }).update({ locked_until: new Date(Date.now() - 1000) });

  test('a stream of publishes cut by SIGKILL, resent with their Idempotency-Keys: one event and one run each', async () => {
    const items = Array.from({ length: 20 }, (_, seq) => ({ seq, key: `tick-${randomUUID()}` }));
    const first = await streamAndKill(items, (i) => publish(i.seq, i.key), 8);
    const accepted = items.filter((i) => first.get(i)!.status === 202);
    const unanswered = items.filter((i) => first.get(i)!.status !== 202);
    expect(unanswered.length).toBeGreaterThan(0);

    await api.start();
    await lapseLeases();
    const eventIds = new Map<number, string>();
    for (const i of [...unanswered, ...accepted.slice(0, 4)]) {
      const res = await resendUntilAccepted(() => publish(i.seq, i.key));
      eventIds.set(i.seq, res.body.id as string);
    }
    for (const i of accepted) expect(eventIds.get(i.seq) ?? first.get(i)!.body.id).toBe(first.get(i)!.body.id);

    const runs = await finishedRuns(workflowId, items.length);
    expect(runs).toHaveLength(items.length);
    for (const i of items) {
      const events = await eventsOf(i.seq);
      expect(events).toHaveLength(1);
      expect(runs.filter((r) => r.trigger.eventId === events[0].id)).toHaveLength(1);
    }
  }, 180_000);

  test('the crash window after the event committed and before the response was stored: the retry finds the same event', async () => {
    const before = (await fixtures.deps.db('workflow_runs').where({ workflow_id: workflowId }).count<{ count: string }[]>('id as count'))[0]!.count;
    const key = `tick-${randomUUID()}`;
    const first = await publish(500, key);
    expect(first.status).toBe(202);
    // As if the process died before storing the response: the key is still running, its lease lapsed.
    await fixtures.deps
      .db('idempotency_keys')
      .where({ organization_id: tenant.organizationId, key })
      .update({ state: 'in_progress', locked_until: new Date(Date.now() - 1000), response_status: null, response_headers: null, response_body: null });
    const retried = await publish(500, key);
    expect(retried.status).toBe(202);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(retried.body.id).toBe(first.body.id);
    expect(await eventsOf(500)).toHaveLength(1);
    const runs = await finishedRuns(workflowId, Number(before) + 1);
    expect(runs.filter((r) => r.trigger.eventId === first.body.id)).toHaveLength(1);
    expect(runs).toHaveLength(Number(before) + 1);
  });
});
