import type { TestApi } from '../helpers/stack';
import { startApiWithTenant, type TestTenant } from '../helpers/tenants';
import {
  createWorkflowFixture,
  DEFAULT_LIMITS_TEST_CONFIG,
  isStoredRef as isRef,
  PADDED_CHARS as CHARS,
  paddedProducer as producer,
  runToEnd,
  toolNode,
  largestPerWorkflowTask,
  useRunApi,
  type RunBody,
} from '../helpers/runs';

/**
 * Values the interpreter assembles from other values stay under RUN_PAYLOAD_BUDGET_BYTES (docs/runs.md#the-payload-budget):
 * each inline output is under RUN_LARGE_OUTPUT_BYTES, but a node reading a dozen of them, twenty nodes reading one,
 * a join, a loop's outputs or a run's results add up past what Temporal takes in one payload (2 MB) or one workflow
 * task. With the default limits, as users run them: before the budget these runs were terminated by the server.
 */

let api: TestApi;
let tenant: TestTenant;
let token: string;

useRunApi((started) => ({ api, tenant, token } = started), DEFAULT_LIMITS_TEST_CONFIG);

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

function expectCompleted(run: RunBody): void {
  if (run.status !== 'completed') throw new Error(`run ${run.status}: ${JSON.stringify(run.errors).slice(0, 1000)}`);
}

/** The execution's history in bytes: every activity input is kept there, each copy counted. */
async function historyBytes(runId: string): Promise<number> {
  return (await api.deps.temporal.workflow.getHandle(runId).describe()).historySize ?? Number.NaN;
}

/**
 * A loop of `items` items, each output `{ result }` of `chars` characters (inline up to the large-output threshold),
 * and a node `total` adding up their lengths: it completes only if it read every item's output.
 */
const paddedLoop = (items: number, chars: number, concurrency: number) => ({
  nodes: [
    {
      id: 'each',
      type: 'loop',
      config: {
        items: `[${Array.from({ length: items }, (_, i) => i + 1).join(',')}]`,
        iterator: 'n',
        concurrency,
        template: { type: 'tool', config: { tool: 'json_transform', config: { expression: `$pad('', ${chars}, 'y')`, data: '${n}' } } },
      },
    },
    toolNode('total', 'json_transform', { expression: '$sum($map($.result, function($v) { $length($v) }))' }, { inputs: [{ name: 'data', from: 'each.results' }] }),
  ],
  edges: [{ from: 'each', to: 'total' }],
});

/**
 * A node of `delay`, a regular activity: its input (the node's context) goes through the server and into history,
 * where a local activity's (json_transform's) stays in the worker. It answers the sizes of what it reads.
 */
const measuring = (id: string, reads: string[]) => toolNode(id, 'delay', { ms: 0, value: reads.map((ref) => `\${size(${ref})}`) });

test('a node reading twelve inline outputs (2.4 MB together) runs', async () => {
  const producers = ids('p', 12);
  const workflowId = await createWorkflowFixture(api, tenant, {
    nodes: [...producers.map(producer), measuring('measure', producers.map((id) => `nodes.${id}.result`))],
    edges: producers.map((id) => ({ from: id, to: 'measure' })),
  });
  const run = await runToEnd(api, token, workflowId);
  expectCompleted(run);
  expect(run.results.measure.value).toEqual(producers.map(() => CHARS));
  // Stored to fit the budget: shown like any large output, by reference.
  expect(producers.filter((id) => isRef(run.node_states[id].output)).length).toBeGreaterThan(0);
});

test('twenty nodes reading one 200 kB output, started together, run', async () => {
  const readers = ids('r', 20);
  const workflowId = await createWorkflowFixture(api, tenant, {
    nodes: [producer('big'), ...readers.map((id) => measuring(id, ['nodes.big.result']))],
    edges: readers.map((id) => ({ from: 'big', to: id })),
  });
  const run = await runToEnd(api, token, workflowId);
  expectCompleted(run);
  for (const id of readers) expect(run.results[id].value).toEqual([CHARS]);
  // Stored once, read by reference: not twenty copies (4 MB) in one workflow task and in history.
  expect(isRef(run.node_states.big.output)).toBe(true);
  expect(await historyBytes(run.id)).toBeLessThan(1_500_000);
});

test('a join of twelve 200 kB branches, read by the next node, runs', async () => {
  const members = ids('b', 12);
  const workflowId = await createWorkflowFixture(api, tenant, {
    nodes: [
      { id: 'fan', type: 'parallel', config: { joinStrategy: 'wait_all', branches: members.map((id) => ({ id: `branch_${id}`, nodes: [id] })) } },
      ...members.map(producer),
      toolNode('count', 'json_transform', { expression: '$count($keys($))' }, { inputs: [{ name: 'data', from: 'fan.branches' }] }),
    ],
    edges: [{ from: 'fan', to: 'count' }],
  });
  const run = await runToEnd(api, token, workflowId);
  expectCompleted(run);
  expect(run.results.count).toEqual({ result: 12 });
  expect(run.node_states.fan.output.completed).toHaveLength(12);
});

test('twelve 200 kB exit outputs are the run results', async () => {
  const exits = ids('e', 12);
  const workflowId = await createWorkflowFixture(api, tenant, { nodes: exits.map(producer) });
  const run = await runToEnd(api, token, workflowId);
  expectCompleted(run);
  expect(Object.keys(run.results).sort()).toEqual([...exits].sort());
  // The execution completed too: its result (the summary with these results) was past the server's limit, and it
  // was terminated after the run row was written (a parent waiting on it as a subworkflow saw a failure).
  expect((await api.deps.temporal.workflow.getHandle(run.id).describe()).status.name).toBe('COMPLETED');
});

/** The most bytes of local activity results (markers) one workflow task's completion carried. */
const largestMarkerBatch = (runId: string): Promise<number> =>
  largestPerWorkflowTask(api, runId, (event) => {
    let bytes = 0;
    for (const payloads of Object.values(event.markerRecordedEventAttributes?.details ?? {})) for (const p of payloads.payloads ?? []) bytes += p.data?.length ?? 0;
    return bytes;
  });

test('a loop of forty 100 kB item outputs runs, and the next node reads them', async () => {
  const workflowId = await createWorkflowFixture(api, tenant, paddedLoop(40, 100_000, 5));
  const run = await runToEnd(api, token, workflowId);
  // Local items' results (markers) within the budget per workflow task: before, all 4 MB in one completion, at the
  // edge of the server's 4 MiB (and past it with the loop's next commands: the run stayed running).
  expect(await largestMarkerBatch(run.id)).toBeLessThan(2_000_000);
  expectCompleted(run);
  expect(run.results.total).toEqual({ result: 40 * 100_000 });
});

test('a 600 kB parameter read by eight nodes started together runs', async () => {
  const readers = ids('q', 8);
  const workflowId = await createWorkflowFixture(api, tenant, {
    parameters: [{ name: 'text', type: 'string', required: true }],
    nodes: readers.map((id) => measuring(id, ['params.text'])),
  });
  const run = await runToEnd(api, token, workflowId, { text: 'z'.repeat(600_000) });
  expectCompleted(run);
  for (const id of readers) expect(run.results[id].value).toEqual([600_000]);
  // The parameter is in the run's input once and stored once; the eight contexts carry its reference.
  expect(await historyBytes(run.id)).toBeLessThan(2_000_000);
});

test("a loop's item outputs over the large-output threshold, stored by their tool, are read downstream", async () => {
  // Stored as `each[i]`: the key once held `..` and the reference never resolved (the next node saw `{ $ref }`).
  const workflowId = await createWorkflowFixture(api, tenant, paddedLoop(3, 300_000, 3));
  const run = await runToEnd(api, token, workflowId);
  expectCompleted(run);
  expect(run.results.total).toEqual({ result: 3 * 300_000 });
});

test('a parallel node inside a parallel branch, both joins over the budget together, completes', async () => {
  // The inner join completes in the same pass as the outer one (its members finish last), and it is the outer's
  // largest member: it can only be stored once it has completed. (The first budget stored it again every pass.)
  const inner = ['x', 'y', 'z', 'w'];
  const workflowId = await createWorkflowFixture(api, tenant, {
    nodes: [
      { id: 'outer', type: 'parallel', config: { joinStrategy: 'wait_all', branches: [{ id: 'a', nodes: ['inner'] }, { id: 'b', nodes: ['quick', 'quick2'] }] } },
      { id: 'inner', type: 'parallel', config: { joinStrategy: 'wait_all', branches: inner.map((b) => ({ id: b, nodes: [`d${b}`, `p${b}`] })) } },
      ...inner.flatMap((b) => [toolNode(`d${b}`, 'delay', { ms: 600 }), producer(`p${b}`)]),
      producer('quick'),
      producer('quick2'),
      toolNode('count', 'json_transform', { expression: '$count($keys($))' }, { inputs: [{ name: 'data', from: 'outer.branches' }] }),
    ],
    edges: [...inner.map((b) => ({ from: `d${b}`, to: `p${b}` })), { from: 'outer', to: 'count' }],
  });
  const run = await runToEnd(api, token, workflowId);
  expectCompleted(run);
  expect(run.results.count).toEqual({ result: 2 });
  expect(isRef(run.node_states.inner.output)).toBe(true);
});

test('a large loop whose batches are over the budget stores each batch in parts, and the next node reads them', async () => {
  // Batches of 20 items of 100 kB: 2 MB each, one activity input before the budget (the run stayed running).
  const batched = await startApiWithTenant({ ...DEFAULT_LIMITS_TEST_CONFIG, RUN_LOOP_BATCH_SIZE: '20' });
  try {
    const workflowId = await createWorkflowFixture(batched.api, batched.tenant, paddedLoop(40, 100_000, 5));
    const run = await runToEnd(batched.api, batched.token, workflowId);
    expectCompleted(run);
    expect(run.results.total).toEqual({ result: 40 * 100_000 });
  } finally {
    await batched.api.close();
  }
}, 120_000);

describe('error handlers read large contexts', () => {
  /** json_transform, a local activity: its twelve 200 kB inputs never reach the server, and it fails. */
  const failingReader = (producers: string[]) =>
    toolNode('reader', 'json_transform', { expression: "$error('reader failed')", data: producers.map((id) => `\${size(nodes.${id}.result)}`) });

  test("a dead letter of a local tool that read twelve 200 kB outputs is recorded, the run completes", async () => {
    const producers = ids('p', 12);
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [...producers.map(producer), failingReader(producers)],
      edges: producers.map((id) => ({ from: id, to: 'reader' })),
      errorHandling: { node_overrides: { reader: { strategy: 'dead_letter_queue', dead_letter_queue: { queue: 'large' } } } },
    });
    const run = await runToEnd(api, token, workflowId);
    // Before: the dead letter's activity input was 2.4 MB, past the server's 2 MB per payload.
    expectCompleted(run);
    expect(run.node_states.reader).toMatchObject({ status: 'failed', via: 'dead_letter' });
    const letters = await api.request('GET', `/api/v1/dead-letters?workflow_id=${workflowId}`, { token });
    expect(letters.body.data).toHaveLength(1);
    expect(letters.body.data[0].error.message).toContain('reader failed');
  });

  test('a regular fallback tool given twelve 200 kB inputs runs', async () => {
    const producers = ids('p', 12);
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [...producers.map(producer), failingReader(producers)],
      edges: producers.map((id) => ({ from: id, to: 'reader' })),
      // `delay` is a regular activity: its context (the outputs its config reads) goes through the server.
      errorHandling: {
        node_overrides: {
          reader: { strategy: 'fallback', handler: 'delay', handler_config: { ms: 0, value: producers.map((id) => `\${size(nodes.${id}.result)}`) } },
        },
      },
    });
    const run = await runToEnd(api, token, workflowId);
    // Before: the handler's activity input was 2.4 MB, past the server's 2 MB per payload.
    expectCompleted(run);
    expect(run.node_states.reader).toMatchObject({ status: 'completed', via: 'fallback', output: { value: producers.map(() => CHARS) } });
  });
});
