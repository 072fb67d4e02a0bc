import type { TestApi } from '../helpers/stack';
import { createTestTenant, startApiWithTenant, type TestTenant } from '../helpers/tenants';
import { createWorkflowFixture, startRun, toolNode, waitForRun, type RunBody } from '../helpers/runs';
import { workflowFileKey } from '../../activities/tools/support/files';

/**
 * One organization's heavy work must not stall another's runs on the shared worker (issue 40, finding 6): the
 * expression sandbox's lanes serve organizations in turn with one process always left to others, and large parses
 * run off the worker's event loop. Judged by order (whose work finished first, how many runs got through), never by
 * time. It saturates the shared worker's sandbox, so scripts/test runs it on its own (EXCLUSIVE_TESTS).
 */

let api: TestApi;
let flooder: TestTenant;
let other: TestTenant;

beforeAll(async () => {
  ({ api, tenant: flooder } = await startApiWithTenant({ RUN_HEARTBEAT_TIMEOUT: '3s' }));
  other = await createTestTenant(api);
});
afterAll(async () => {
  await api?.close();
});

/** A JSONata expression that never ends: JSONata's own deadline (2 s) stops it with EXPRESSION_TIMEOUT. */
const ENDLESS = '($f := function($x){ $f($x) }; $f(1))';
/** 99,000 elements of 105 characters: about 10 MB of XML, just under what xml_parse (and content_read) accept. */
const TEN_MB_XML = `<r>${`<i a="${'y'.repeat(96)}"/>`.repeat(99_000)}</r>`;

const finishedAt = (run: RunBody): number => new Date(run.completed_at as string).getTime();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("another organization's transform is served before one organization's queue of deadline-long ones", async () => {
  const endless = await createWorkflowFixture(api, flooder, { nodes: [toolNode('spin', 'json_transform', { expression: ENDLESS, data: null })] });
  const quick = await createWorkflowFixture(api, other, { nodes: [toolNode('add', 'json_transform', { expression: 'n + 1', data: { n: 1 } })] });
  // Warm-up: both organizations at once boot the lane's processes, so the measurement below waits for no boot.
  const warm = [await startRun(api, flooder.owner.token, endless), await startRun(api, flooder.owner.token, endless)];
  await waitForRun(api, other.owner.token, quick, (await startRun(api, other.owner.token, quick)).id);
  for (const run of warm) await waitForRun(api, flooder.owner.token, endless, run.id);

  // Six deadline-long transforms: three rounds on the two processes the flooder may hold. The other organization's
  // transform comes once every one of them has reached the worker (its row is no longer pending: the worker's first
  // write, just before the transform) and one has ended: the flooder then has two running and three or more queued,
  // whatever the machine's speed. Rows, not the runs themselves: asking a run waits for its workflow task.
  const flood = [];
  for (let i = 0; i < 6; i++) flood.push(await startRun(api, flooder.owner.token, endless));
  const ENDED = ['completed', 'failed', 'cancelled'];
  for (;;) {
    const statuses = (await api.deps.db('workflow_runs').whereIn('id', flood.map((run) => run.id)).select('status')).map((row) => row.status as string);
    if (!statuses.includes('pending') && statuses.some((status) => ENDED.includes(status))) break;
    await sleep(50);
  }
  const lone = await waitForRun(api, other.owner.token, quick, (await startRun(api, other.owner.token, quick)).id);
  expect(lone.status).toBe('completed');
  expect(lone.results.add.result).toBe(2);

  const floodDone = await Promise.all(flood.map((run) => waitForRun(api, flooder.owner.token, endless, run.id)));
  for (const run of floodDone) {
    expect(run.status).toBe('failed');
    expect(run.node_states.spin.error.code).toBe('EXPRESSION_TIMEOUT');
  }
  // First come first served, the lone transform waited behind the flooder's queued ones: at most the last of them
  // ended after it. In turn, it takes the process the flooder may not hold, ahead of them.
  const finishedAfter = floodDone.filter((run) => finishedAt(run) > finishedAt(lone)).length;
  const times = { lone: [lone.started_at, lone.completed_at], flood: floodDone.map((run) => [run.started_at, run.completed_at]) };
  expect({ finishedAfter: Math.min(finishedAfter, 2), times }).toEqual({ finishedAfter: 2, times });
});

test("another organization's runs go on while one organization parses 10 MB of XML three times", async () => {
  // The XML is one of the organization's workflow files, read by content_read (an ordinary activity).
  const xml = Buffer.from(TEN_MB_XML);
  await api.deps.storage.putObject(api.config.minio.bucket, workflowFileKey(flooder.organizationId, 'fairness/big.xml'), xml, xml.length);
  const parses = await createWorkflowFixture(api, flooder, {
    nodes: [
      toolNode('gen', 'content_read', { path: 'fairness/big.xml' }),
      toolNode('x1', 'xml_parse', {}, { inputs: [{ name: 'text', from: 'gen.content' }] }),
      toolNode('x2', 'xml_parse', { ignore_attributes: true }, { inputs: [{ name: 'text', from: 'gen.content' }] }),
      toolNode('x3', 'xml_parse', { parse_values: false }, { inputs: [{ name: 'text', from: 'gen.content' }] }),
    ],
    edges: [
      { from: 'gen', to: 'x1' },
      { from: 'x1', to: 'x2' },
      { from: 'x2', to: 'x3' },
    ],
  });
  const trivial = await createWorkflowFixture(api, other, { nodes: [toolNode('one', 'delay', { ms: 0 })] });
  await waitForRun(api, other.owner.token, trivial, (await startRun(api, other.owner.token, trivial)).id); // warm

  // The heavy run's state is read from its row: asking the run itself waits while its workflow task runs a parse.
  const heavy = await startRun(api, flooder.owner.token, parses);
  const heavyDone = async () => ['completed', 'failed', 'cancelled'].includes((await api.deps.db('workflow_runs').where({ id: heavy.id }).first('status')).status);
  const others: RunBody[] = [];
  while (!(await heavyDone())) {
    const run = await waitForRun(api, other.owner.token, trivial, (await startRun(api, other.owner.token, trivial)).id);
    expect(run.status).toBe('completed');
    others.push(run);
  }
  const heavyRun = await waitForRun(api, flooder.owner.token, parses, heavy.id);
  expect({ status: heavyRun.status, nodes: heavyRun.node_states }).toMatchObject({ status: 'completed' });
  const parsing = [new Date(heavyRun.node_states.x1.startedAt).getTime(), new Date(heavyRun.node_states.x3.finishedAt).getTime()] as const;
  const during = others.filter((run) => finishedAt(run) > parsing[0] && finishedAt(run) < parsing[1]).length;
  // On the worker's event loop, each parse held every run of the worker until it ended: the other organization's
  // runs ended only in the moments between parses (at most one in all). Off the loop, they go on meanwhile.
  expect(during).toBeGreaterThanOrEqual(2);
});
