import { randomUUID } from 'node:crypto';
import { createWorkflowFixture, RUN_TEST_CONFIG, toolNode } from '../helpers/runs';
import type { TestApi } from '../helpers/stack';
import { createTestTenant, startApiWithTenant, type TestTenant } from '../helpers/tenants';

/** GET /api/v1/runs: an organization's runs across its workflows, filtered and cursor-paged, never another's. */

let api: TestApi;
let tenant: TestTenant;
let token: string;
let other: TestTenant;
let wfA: string;
let wfB: string;
let otherWf: string;
/** The tenant's run ids, newest first. */
const ours: string[] = [];
const otherRuns: string[] = [];

const T0 = Date.parse('2031-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

/**
 * Run rows written straight into the table (the list reads nothing else): creation times, statuses and triggers
 * chosen by the test. Two rows share a creation time to the microsecond, so the cursor has to break the tie by id.
 */
async function insertRunRow(
  organizationId: string,
  workflowId: string,
  values: { createdAt: string; status: string; trigger: string; parameters?: Record<string, unknown>; durationMs?: number },
): Promise<string> {
  const id = randomUUID();
  const started = values.durationMs === undefined ? null : values.createdAt;
  await api.deps.db('workflow_runs').insert({
    id,
    organization_id: organizationId,
    workflow_id: workflowId,
    workflow_version: 1,
    status: values.status,
    trigger: JSON.stringify({ type: values.trigger }),
    parameters: JSON.stringify(values.parameters ?? {}),
    created_at: values.createdAt,
    started_at: started,
    completed_at: started && new Date(Date.parse(started) + values.durationMs!).toISOString(),
  });
  return id;
}

beforeAll(async () => {
  ({ api, tenant, token } = await startApiWithTenant(RUN_TEST_CONFIG));
  other = await createTestTenant(api);
  const node = [toolNode('echo', 'json_transform', { expression: '$' })];
  wfA = await createWorkflowFixture(api, tenant, { name: 'A', nodes: node });
  wfB = await createWorkflowFixture(api, tenant, { name: 'B', nodes: node });
  otherWf = await createWorkflowFixture(api, other, { name: 'other', nodes: node });
  const rows: [string, number, string, string][] = [
    [wfA, 0, 'completed', 'manual'],
    [wfB, 1, 'failed', 'webhook'],
    [wfA, 2, 'completed', 'schedule'],
    [wfB, 3, 'completed', 'manual'],
    [wfA, 4, 'failed', 'manual'],
    [wfB, 4, 'running', 'webhook'], // same created_at as the row before
    [wfA, 6, 'completed', 'event'],
  ];
  const inserted: { id: string; minutes: number }[] = [];
  for (const [workflowId, minutes, status, trigger] of rows) {
    inserted.push({ id: await insertRunRow(tenant.organizationId, workflowId, { createdAt: at(minutes), status, trigger }), minutes });
    // the other organization has runs at the same times, with the same statuses and triggers
    otherRuns.push(await insertRunRow(other.organizationId, otherWf, { createdAt: at(minutes), status, trigger }));
  }
  // newest first; ties by id descending (the list's keyset order)
  inserted.sort((a, b) => b.minutes - a.minutes || (a.id < b.id ? 1 : -1));
  ours.push(...inserted.map((r) => r.id));
});
afterAll(() => api.close());

type Listed = { id: string; workflow_id: string; workflow_name: string | null; status: string; trigger: { type: string }; links: { picture: string } };

async function list(query: string, as = token): Promise<{ status: number; body: { data: Listed[]; nextCursor: string | null; error?: { code: string } } }> {
  const res = await api.request('GET', `/api/v1/runs${query}`, { token: as });
  return { status: res.status, body: res.body };
}

/** Every page of a query, following nextCursor. */
async function all(query: string, limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = query ? '&' : '?';
    const res = await list(`${query}${sep}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    ids.push(...res.body.data.map((r) => r.id));
    cursor = res.body.nextCursor;
    pages += 1;
  } while (cursor && pages < 20);
  return { ids, pages };
}

test('lists the organization\'s runs of every workflow, newest first, and never another organization\'s', async () => {
  const res = await list('');
  expect(res.status).toBe(200);
  expect(res.body.data.map((r) => r.id)).toEqual(ours);
  expect(new Set(res.body.data.map((r) => r.workflow_id))).toEqual(new Set([wfA, wfB]));
  // each run names its workflow, so a list across workflows reads without a lookup per row
  for (const run of res.body.data) expect(run.workflow_name).toBe(run.workflow_id === wfA ? 'A' : 'B');
  const perWorkflow = await api.request('GET', `/api/v1/workflows/${wfB}/runs`, { token });
  expect(new Set((perWorkflow.body.data as Listed[]).map((r) => r.workflow_name))).toEqual(new Set(['B']));
  expect(res.body.nextCursor).toBeNull();
  // a summary: no node states, with links
  expect(res.body.data[0]).not.toHaveProperty('node_states');
  expect(res.body.data[0]!.links.picture).toMatch(new RegExp(`/ui/workflows/${res.body.data[0]!.workflow_id}/runs/${ours[0]}/picture$`));

  const theirs = await list('', other.owner.token);
  expect(theirs.body.data.map((r) => r.id).sort()).toEqual([...otherRuns].sort());
  // the other organization's workflow as a filter lists nothing (no 403/404 telling it exists)
  const probe = await list(`?workflow_id=${otherWf}`);
  expect(probe.status).toBe(200);
  expect(probe.body.data).toEqual([]);
});

test('cursor pagination walks every run once, ties included', async () => {
  for (const limit of [1, 2, 3]) {
    const { ids, pages } = await all('', limit);
    expect(ids).toEqual(ours);
    expect(pages).toBe(Math.ceil(ours.length / limit));
  }
  const filtered = await all('?workflow_id=' + wfA, 2);
  const expected = (await list(`?workflow_id=${wfA}`)).body.data.map((r) => r.id);
  expect(filtered.ids).toEqual(expected);
});

test('filters: status, workflow, trigger type, creation time range, combined', async () => {
  const ids = async (query: string) => {
    const res = await list(query);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  expect((await ids('?status=failed')).every((r) => r.status === 'failed')).toBe(true);
  expect(await ids('?status=failed')).toHaveLength(2);
  expect((await ids(`?workflow_id=${wfB}`)).map((r) => r.workflow_id)).toEqual([wfB, wfB, wfB]);
  expect((await ids('?trigger=webhook')).map((r) => r.trigger.type)).toEqual(['webhook', 'webhook']);
  expect(await ids('?trigger=retry')).toEqual([]);
  // created_after is inclusive, created_before exclusive
  const window = await ids(`?created_after=${encodeURIComponent(at(2))}&created_before=${encodeURIComponent(at(4))}`);
  expect(window).toHaveLength(2);
  expect(await ids(`?created_after=${encodeURIComponent(at(4))}`)).toHaveLength(3);
  const combined = await ids(`?workflow_id=${wfA}&status=completed&trigger=manual`);
  expect(combined).toHaveLength(1);
  expect(combined[0]!.id).toBe(ours[ours.length - 1]);
});

test('bad filters and cursors answer 400', async () => {
  for (const query of ['?status=done', '?workflow_id=nope', '?trigger=Web%20Hook', '?created_after=yesterday', '?limit=0', '?cursor=garbage']) {
    const res = await list(query);
    expect({ query, status: res.status, code: res.body.error?.code }).toEqual({ query, status: 400, code: 'VALIDATION_ERROR' });
  }
  // a cursor of our making but not of this list (an id that is no UUID) is refused, not a 500
  const forged = Buffer.from(JSON.stringify(['2031-03-01T10:00:00Z', 'x'])).toString('base64url');
  expect((await list(`?cursor=${forged}`)).status).toBe(400);
});

test('a real run started through the API is listed with its trigger', async () => {
  const started = await api.request('POST', `/api/v1/workflows/${wfA}/runs?wait=20s`, { token, body: {} });
  expect(started.status).toBe(200);
  const res = await list(`?workflow_id=${wfA}&limit=1`);
  // the fixture rows are dated 2031: the real run is older than them
  expect(res.body.data[0]!.id).not.toBe(started.body.id);
  const recent = await list(`?created_before=${encodeURIComponent(at(-1))}&trigger=manual`);
  expect(recent.body.data.map((r) => r.id)).toEqual([started.body.id]);
  expect(recent.body.data[0]).toMatchObject({ status: 'completed', workflow_id: wfA, trigger: { type: 'manual' } });
});

describe('finding a run by id or by a parameter value (the console\'s search)', () => {
  let acme: string;
  let three: string;
  let threeText: string;
  beforeAll(async () => {
    acme = await insertRunRow(tenant.organizationId, wfA, { createdAt: at(-10), status: 'completed', trigger: 'manual', parameters: { customer: 'acme', count: 1 } });
    three = await insertRunRow(tenant.organizationId, wfA, { createdAt: at(-11), status: 'completed', trigger: 'manual', parameters: { customer: 'globex', count: 3, dry: true } });
    threeText = await insertRunRow(tenant.organizationId, wfB, { createdAt: at(-12), status: 'failed', trigger: 'manual', parameters: { count: '3' } });
    // the other organization has a run with the same parameters
    await insertRunRow(other.organizationId, otherWf, { createdAt: at(-10), status: 'completed', trigger: 'manual', parameters: { customer: 'acme' } });
  });
  const found = async (query: string) => {
    const res = await list(query);
    expect(res.status).toBe(200);
    return res.body.data.map((r) => r.id);
  };

  test('name=value matches the string, or the number or boolean it spells; combined with other filters', async () => {
    expect(await found('?parameter=customer%3Dacme')).toEqual([acme]);
    expect(await found('?parameter=count%3D3')).toEqual([three, threeText]);
    expect(await found('?parameter=count%3D3&workflow_id=' + wfB)).toEqual([threeText]);
    expect(await found('?parameter=dry%3Dtrue')).toEqual([three]);
    expect(await found('?parameter=customer%3DACME')).toEqual([]);
    // an empty value matches an empty string only
    expect(await found('?parameter=customer%3D')).toEqual([]);
  });

  test('run_id finds the run whatever its workflow; another organization\'s id finds nothing', async () => {
    expect(await found(`?run_id=${threeText}`)).toEqual([threeText]);
    expect(await found(`?run_id=${otherRuns[0]}`)).toEqual([]);
  });

  test('malformed searches answer 400 naming the parameter', async () => {
    for (const query of ['?parameter=acme', '?parameter=%3Dacme', '?parameter=bad%20name%3Dx', `?parameter=k%3D${'x'.repeat(1001)}`, '?run_id=12']) {
      const res = await list(query);
      expect({ query, status: res.status, code: res.body.error?.code }).toEqual({ query, status: 400, code: 'VALIDATION_ERROR' });
    }
  });
});

describe('GET /api/v1/runs/stats', () => {
  let statsTenant: TestTenant;
  let quick: string;
  let slow: string;
  const daysAgo = (days: number, hour = 12) => {
    const d = new Date();
    d.setUTCDate(d.getUTCDate() - days);
    d.setUTCHours(hour, 0, 0, 0);
    return d.toISOString();
  };
  beforeAll(async () => {
    statsTenant = await createTestTenant(api);
    const node = [toolNode('echo', 'json_transform', { expression: '$' })];
    quick = await createWorkflowFixture(api, statsTenant, { name: 'quick', nodes: node });
    slow = await createWorkflowFixture(api, statsTenant, { name: 'slow', nodes: node });
    const rows: [string, number, string, number | undefined][] = [
      // workflow, days ago, status, duration (ms)
      [quick, 0, 'completed', 100],
      [quick, 0, 'completed', 200],
      [quick, 0, 'failed', 50],
      [quick, 1, 'completed', 300],
      [quick, 1, 'completed', 400],
      [slow, 2, 'completed', 10_000],
      [slow, 2, 'cancelled', undefined],
      [slow, 6, 'completed', 20_000],
      [slow, 8, 'completed', 30_000], // outside 7 days, inside 30
      [slow, 40, 'completed', 40_000], // outside both
    ];
    for (const [workflowId, days, status, durationMs] of rows) {
      await insertRunRow(statsTenant.organizationId, workflowId, { createdAt: daysAgo(days), status, trigger: 'manual', ...(durationMs ? { durationMs } : {}) });
    }
  });
  const stats = async (query = '', as = statsTenant.owner.token) => api.request('GET', `/api/v1/runs/stats${query}`, { token: as });

  test('runs per day by status, every day listed, and p50/p95 of completed runs per workflow', async () => {
    const res = await stats();
    expect(res.status).toBe(200);
    expect(res.body.days).toBe(7);
    expect(res.body.time_zone).toBe('UTC');
    const perDay = res.body.per_day as { date: string; total: number; completed: number; failed: number; cancelled: number }[];
    expect(perDay).toHaveLength(7);
    expect(perDay[6]).toMatchObject({ date: daysAgo(0).slice(0, 10), total: 3, completed: 2, failed: 1 });
    expect(perDay[5]).toMatchObject({ date: daysAgo(1).slice(0, 10), total: 2, completed: 2 });
    expect(perDay[4]).toMatchObject({ total: 2, completed: 1, cancelled: 1 });
    expect(perDay[0]).toMatchObject({ date: daysAgo(6).slice(0, 10), total: 1 });
    expect(perDay.reduce((n, d) => n + d.total, 0)).toBe(8);
    expect(res.body.workflows).toEqual([
      { workflow_id: quick, workflow_name: 'quick', runs: 5, pending: 0, running: 0, completed: 4, failed: 1, cancelled: 0, p50_ms: 250, p95_ms: 385 },
      { workflow_id: slow, workflow_name: 'slow', runs: 3, pending: 0, running: 0, completed: 2, failed: 0, cancelled: 1, p50_ms: 15_000, p95_ms: 19_500 },
    ]);
    const month = await stats('?days=30');
    expect(month.body.per_day).toHaveLength(30);
    expect(month.body.workflows.find((w: { workflow_id: string }) => w.workflow_id === slow).runs).toBe(4);
    const one = await stats(`?workflow_id=${slow}`);
    expect(one.body.workflows.map((w: { workflow_id: string }) => w.workflow_id)).toEqual([slow]);
  });

  test('days begin at midnight of the time zone asked for', async () => {
    // Kiritimati is UTC+14: its today began ten hours before UTC's; the last day listed is its today.
    const res = await stats('?time_zone=Pacific/Kiritimati');
    expect(res.status).toBe(200);
    expect(res.body.time_zone).toBe('Pacific/Kiritimati');
    const local = (iso: string) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date(iso));
    const perDay = res.body.per_day as { date: string; total: number }[];
    expect(perDay[perDay.length - 1]!.date).toBe(local(new Date().toISOString()));
    const todayRuns = perDay.find((d) => d.date === local(daysAgo(0)));
    if (todayRuns) expect(todayRuns.total).toBe(3);
  });

  test('another organization counts nothing of these; bad queries answer 400', async () => {
    const theirs = await stats('', other.owner.token);
    expect(theirs.status).toBe(200);
    expect(theirs.body.workflows.map((w: { workflow_id: string }) => w.workflow_id)).not.toContain(quick);
    // Our workflow as their filter: not found, as any id of another organization.
    const probe = await stats(`?workflow_id=${quick}`, other.owner.token);
    expect(probe.status).toBe(404);
    expect(probe.body.error.code).toBe('NOT_FOUND');
    for (const query of ['?days=0', '?days=91', '?days=x', '?time_zone=Mars/Olympus', "?time_zone=UTC'--", '?workflow_id=nope']) {
      const res = await stats(query);
      expect({ query, status: res.status, code: res.body.error?.code }).toEqual({ query, status: 400, code: 'VALIDATION_ERROR' });
    }
  });
});
