import { randomUUID } from 'node:crypto';
import { createRunAdmission, type NewRun } from '../../domain/runs/admission';
import { createRateLimiter } from '../../domain/ratelimit/limiter';
import { createDb, type Db } from '../../db/knex';
import { startApi, type TestApi, type TestResponse } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';

/**
 * Run admission (domain/runs/admission.ts, docs/runs.md#fairness): per organization, a budget of API starts and a cap
 * on open runs, both 429 RATE_LIMITED with Retry-After; other organizations are unaffected and trigger-started runs
 * are never refused.
 */

async function activeWorkflow(api: TestApi, t: TestTenant, node: unknown, triggers: unknown[] = []): Promise<string> {
  const created = await api.request('POST', '/api/v1/workflows', {
    token: t.owner.token,
    body: { name: `admission ${randomUUID().slice(0, 6)}`, dag: { nodes: [node] }, triggers },
  });
  expect(created.status).toBe(201);
  const activated = await api.request('POST', `/api/v1/workflows/${created.body.id}/activate`, { token: t.owner.token });
  expect(activated.status).toBe(200);
  return created.body.id as string;
}

const echo = { id: 'echo', type: 'tool', config: { tool: 'json_transform', config: { expression: '$' } } };
const wait = { id: 'wait', type: 'tool', config: { tool: 'delay', config: { ms: 120_000 } } };

async function runsOf(api: TestApi, workflowId: string, statuses?: string[]): Promise<number> {
  const q = api.deps.db('workflow_runs').where({ workflow_id: workflowId });
  if (statuses) q.whereIn('status', statuses);
  const [{ count }] = await q.count<{ count: string }[]>('* as count');
  return Number(count);
}

function expectLimited(res: TestResponse, message: RegExp): number {
  expect(res.status).toBe(429);
  expect(res.body.error.code).toBe('RATE_LIMITED');
  expect(res.body.error.message).toMatch(message);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  return retryAfter;
}

describe('start budget (RUN_START_RATE_LIMIT)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ RUN_START_RATE_LIMIT: '3/1h', RUN_MAX_ACTIVE_PER_ORGANIZATION: '0' });
  });
  afterAll(async () => {
    await api.close();
  });

  test('an organization over its budget gets 429 with Retry-After on start, retry and replay; no run is created; another organization still starts', async () => {
    const a = await createTestTenant(api);
    const b = await createTestTenant(api);
    const workflowA = await activeWorkflow(api, a, echo);
    const workflowB = await activeWorkflow(api, b, echo);

    // Fixed windows aligned to the epoch: 2 x limit + 1 attempts put more than the limit into one window for sure.
    const statuses: number[] = [];
    let limited: TestResponse | undefined;
    for (let i = 0; i < 7 && !limited; i++) {
      const res = await api.request('POST', `/api/v1/workflows/${workflowA}/runs`, { token: a.owner.token, body: {} });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(201);
    }
    expect(limited).toBeDefined();
    expect(expectLimited(limited!, /at most 3 runs per 3600 s/)).toBeLessThanOrEqual(3600);
    const accepted = statuses.filter((s) => s === 201).length;
    expect(accepted).toBeGreaterThanOrEqual(3);
    expect(await runsOf(api, workflowA)).toBe(accepted);

    // The gate comes first: retry and dead-letter replay are refused before anything is looked up.
    const retry = await api.request('POST', `/api/v1/workflows/${workflowA}/runs/${randomUUID()}/retry`, { token: a.owner.token });
    expectLimited(retry, /runs per/);
    const replay = await api.request('POST', `/api/v1/dead-letters/${randomUUID()}/replay`, { token: a.owner.token });
    expectLimited(replay, /runs per/);

    const other = await api.request('POST', `/api/v1/workflows/${workflowB}/runs`, { token: b.owner.token, body: {} });
    expect(other.status).toBe(201);
  });
});

describe('open runs (RUN_MAX_ACTIVE_PER_ORGANIZATION)', () => {
  let api: TestApi;
  let a: TestTenant;
  let workflowA: string;
  let slug: string;
  beforeAll(async () => {
    api = await startApi({ RUN_START_RATE_LIMIT: 'off', RUN_MAX_ACTIVE_PER_ORGANIZATION: '2' });
    a = await createTestTenant(api);
    slug = (await api.deps.db('organizations').where({ id: a.organizationId }).first('slug')).slug;
    workflowA = await activeWorkflow(api, a, wait, [
      { id: 'hook', type: 'webhook', config: { path: 'hook', authentication: 'none', allowUnauthenticated: true } },
    ]);
  });
  afterAll(async () => {
    const open = await api.deps.db('workflow_runs').where({ workflow_id: workflowA }).whereIn('status', ['pending', 'running']).select('id');
    await Promise.all(open.map(({ id }) => api.request('POST', `/api/v1/workflows/${workflowA}/runs/${id}/cancel`, { token: a.owner.token })));
    await api.close();
  });

  /** Cancels a run and waits until its row is closed (the cancel route itself waits at most 15 s). */
  async function cancelled(runId: string): Promise<void> {
    expect((await api.request('POST', `/api/v1/workflows/${workflowA}/runs/${runId}/cancel`, { token: a.owner.token })).status).toBe(200);
    const deadline = Date.now() + 60_000;
    while ((await api.deps.db('workflow_runs').where({ id: runId }).first('status')).status !== 'cancelled') {
      if (Date.now() > deadline) throw new Error(`run ${runId} was not cancelled within a minute`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  const start = () => api.request('POST', `/api/v1/workflows/${workflowA}/runs`, { token: a.owner.token, body: {} });

  test('concurrent starts never overshoot the cap; other organizations and webhook-started runs are not refused', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, start));
    const accepted = results.filter((r) => r.status === 201);
    expect(accepted).toHaveLength(2);
    for (const refused of results.filter((r) => r.status !== 201)) {
      expect(expectLimited(refused, /2 open runs, its limit/)).toBe(2);
    }
    expect(await runsOf(api, workflowA)).toBe(2);

    const b = await createTestTenant(api);
    const workflowB = await activeWorkflow(api, b, echo);
    expect((await api.request('POST', `/api/v1/workflows/${workflowB}/runs`, { token: b.owner.token, body: {} })).status).toBe(201);

    // Triggers are not gated: the webhook's run starts although the organization is at its cap, and counts.
    const hooked = await api.request('POST', `/api/hooks/${slug}/hook`, { body: {} });
    expect(hooked.status).toBe(202);
    expect(await runsOf(api, workflowA, ['pending', 'running'])).toBe(3);

    // Open runs free up as runs finish: with one manual run cancelled, 2 remain open (still refused); with both, 1.
    const [first, second] = accepted.map((r) => r.body.id as string);
    await cancelled(first!);
    expectLimited(await start(), /open runs/);
    await cancelled(second!);
    expect((await start()).status).toBe(201);
  });
});

describe('the insert, called directly', () => {
  let api: TestApi;
  const pools: Db[] = [];
  beforeAll(async () => {
    api = await startApi({});
  });
  afterAll(async () => {
    await Promise.all(pools.map((db) => db.destroy()));
    await api.close();
  });

  /** An admission with its own pool, whose advisory locks are counted, and new runs of a fresh tenant's workflow. */
  async function fixture(cap: number | null) {
    const t = await createTestTenant(api);
    const workflowId = await activeWorkflow(api, t, echo);
    const db = createDb(process.env.DATABASE_URL!, 4);
    pools.push(db);
    let locks = 0;
    db.on('query', (q: { sql: string }) => {
      if (q.sql.includes('pg_advisory_xact_lock')) locks += 1;
    });
    const admission = createRunAdmission(db, createRateLimiter(db), { startRate: null, maxActivePerOrganization: cap });
    const values = (): NewRun => ({
      id: randomUUID(),
      organizationId: t.organizationId,
      workflowId,
      workflowVersion: 1,
      parameters: {},
      trigger: { type: 'manual', userId: null },
      retryOf: null,
      createdBy: null,
    });
    return { db, admission, values, locks: () => locks };
  }

  // The start's audit line is written alongside the row: a failing one leaves no run, with or without a cap.
  test.each([
    ['capped', 5],
    ['uncapped', null],
  ])('%s: the row and the write beside it commit together or not at all', async (_label, cap) => {
    const { db, admission, values } = await fixture(cap);

    const failing = values();
    await expect(
      admission.insert(failing, async (trx, row) => {
        await trx('workflow_runs').where({ id: row.id }).update({ parameters: JSON.stringify({ seen: true }) });
        throw new Error('the audit line could not be written');
      }),
    ).rejects.toThrow('the audit line could not be written');
    expect(await db('workflow_runs').where({ id: failing.id }).first('id')).toBeUndefined();

    const kept = values();
    let seenInside = false;
    const row = await admission.insert(kept, async (trx, inserted) => {
      seenInside = (await trx('workflow_runs').where({ id: inserted.id }).first('id')) !== undefined;
    });
    expect(seenInside).toBe(true);
    expect(row.id).toBe(kept.id);
    expect(await db('workflow_runs').where({ id: kept.id }).first('status')).toEqual({ status: 'pending' });
  });

  test('starts that arrive together share one admission: one lock and one commit for many rows, within the cap', async () => {
    const { db, admission, values, locks } = await fixture(10);
    const starts = Array.from({ length: 14 }, values);
    const outcomes = await Promise.allSettled(starts.map((v) => admission.insert(v)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(10);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
    expect(refused.map((o) => (o.reason as { code: string }).code)).toEqual(Array(4).fill('RATE_LIMITED'));
    // The first start takes the lock alone; the 13 that arrived meanwhile share the next admission.
    expect(locks()).toBeLessThanOrEqual(2);
    // Arrival order decides who gets the room.
    const admitted = outcomes.map((o) => o.status === 'fulfilled');
    expect(admitted).toEqual([...Array(10).fill(true), ...Array(4).fill(false)]);
    expect(await db('workflow_runs').whereIn('id', starts.map((v) => v.id)).count<{ count: string }[]>('* as count')).toEqual([{ count: '10' }]);
  });

  test('of starts that arrive together, one whose write beside the row fails, fails alone', async () => {
    const { db, admission, values } = await fixture(100);
    const starts = Array.from({ length: 5 }, values);
    const outcomes = await Promise.allSettled(
      starts.map((v, i) =>
        admission.insert(v, async () => {
          if (i === 2) throw new Error('this audit line could not be written');
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(((outcomes[2] as PromiseRejectedResult).reason as Error).message).toBe('this audit line could not be written');
    const stored = (await db('workflow_runs').whereIn('id', starts.map((v) => v.id)).select('id')).map((r: { id: string }) => r.id);
    expect(stored.sort()).toEqual(starts.filter((_, i) => i !== 2).map((v) => v.id).sort());
  });
});

describe('event publishing budget (EVENTS_PUBLISH_RATE_LIMIT)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ EVENTS_PUBLISH_RATE_LIMIT: '3/1h' });
  });
  afterAll(async () => {
    await api.close();
  });

  test('an organization over its budget gets 429 with Retry-After and records no event; a replayed key and another organization are unaffected', async () => {
    const a = await createTestTenant(api);
    const b = await createTestTenant(api);
    const publish = (t: TestTenant, headers: Record<string, string> = {}) =>
      api.request('POST', '/api/v1/events', { token: t.owner.token, headers, body: { type: 'custom.flood', data: { n: 1 } } });
    const eventsOf = async (t: TestTenant) => {
      const [{ count }] = await api.deps.db('outbox_events').where({ organization_id: t.organizationId }).count<{ count: string }[]>('* as count');
      return Number(count);
    };

    // Fixed windows aligned to the epoch: 2 x limit + 1 attempts put more than the limit into one window for sure.
    const keyed = await publish(a, { 'Idempotency-Key': 'flood-1' });
    expect(keyed.status).toBe(202);
    let limited: TestResponse | undefined;
    for (let i = 0; i < 6 && !limited; i++) {
      const res = await publish(a);
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(202);
    }
    expect(limited).toBeDefined();
    expectLimited(limited!, /too many requests/);
    const recorded = await eventsOf(a);
    expect(recorded).toBeLessThanOrEqual(6);
    expect((await publish(a)).status).toBe(429);
    expect(await eventsOf(a)).toBe(recorded);
    // The stored answer of an earlier request is replayed without spending the budget.
    const replayed = await publish(a, { 'Idempotency-Key': 'flood-1' });
    expect(replayed.status).toBe(202);
    expect(replayed.body.id).toBe(keyed.body.id);
    expect((await publish(b)).status).toBe(202);
  });
});

describe('webhook calls per organization (TRIGGERS_WEBHOOK_ORGANIZATION_RATE_LIMIT)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ TRIGGERS_WEBHOOK_ORGANIZATION_RATE_LIMIT: '3/1h' });
  });
  afterAll(async () => {
    await api.close();
  });

  test("triggers with `rateLimit: off` are still held to the organization's limit together; another organization is not", async () => {
    const open = (path: string) => ({ id: path, type: 'webhook', config: { path, authentication: 'none', allowUnauthenticated: true, rateLimit: 'off' } });
    const a = await createTestTenant(api);
    const b = await createTestTenant(api);
    const slugOf = async (t: TestTenant) => (await api.deps.db('organizations').where({ id: t.organizationId }).first('slug')).slug as string;
    const [slugA, slugB] = [await slugOf(a), await slugOf(b)];
    const first = await activeWorkflow(api, a, echo, [open('one')]);
    const second = await activeWorkflow(api, a, echo, [open('two')]);
    const other = await activeWorkflow(api, b, echo, [open('one')]);

    // Fixed windows aligned to the epoch: 2 x limit + 1 calls put more than the limit into one window for sure.
    let limited: TestResponse | undefined;
    let accepted = 0;
    for (let i = 0; i < 7 && !limited; i++) {
      const res = await api.request('POST', `/api/hooks/${slugA}/${i % 2 === 0 ? 'one' : 'two'}`, { body: { i } });
      if (res.status === 429) limited = res;
      else {
        expect(res.status).toBe(202);
        accepted++;
      }
    }
    expect(limited).toBeDefined();
    expectLimited(limited!, /this organization's webhooks accept at most 3 calls per window together/);
    expect((await runsOf(api, first)) + (await runsOf(api, second))).toBe(accepted);
    expect((await api.request('POST', `/api/hooks/${slugB}/one`, { body: {} })).status).toBe(202);
    expect(await runsOf(api, other)).toBe(1);
  });
});
