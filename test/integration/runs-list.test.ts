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
async function insertRunRow(organizationId: string, workflowId: string, values: { createdAt: string; status: string; trigger: string }): Promise<string> {
  const id = randomUUID();
  await api.deps.db('workflow_runs').insert({
    id,
    organization_id: organizationId,
    workflow_id: workflowId,
    workflow_version: 1,
    status: values.status,
    trigger: JSON.stringify({ type: values.trigger }),
    created_at: values.createdAt,
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
