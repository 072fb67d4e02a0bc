import type { TestApi } from '../helpers/stack';
import type { TestTenant } from '../helpers/tenants';
import {
  createWorkflowFixture,
  DEFAULT_LIMITS_TEST_CONFIG,
  isStoredRef as isRef,
  PADDED_CHARS as CHARS,
  paddedProducer as producer,
  startRun,
  toolNode,
  largestPerWorkflowTask,
  useRunApi,
  waitForRun,
  type RunBody,
} from '../helpers/runs';

/**
 * Subworkflow starts within the payload budget (docs/runs.md#the-payload-budget), at the default limits. Each child
 * start carries the child's definition and its parameters; many starting together went past what the server takes
 * in one workflow task, and the parent failed its workflow task at every retry, `running` for ever.
 */

let api: TestApi;
let tenant: TestTenant;
let token: string;

useRunApi((started) => ({ api, tenant, token } = started), DEFAULT_LIMITS_TEST_CONFIG);

const loopOf = (items: number, template: unknown) => ({
  id: 'each',
  type: 'loop',
  config: { items: `[${Array.from({ length: items }, (_, i) => i).join(',')}]`, iterator: 'i', concurrency: items, template },
});

/** Waits up to 60 s; a run the server keeps refusing stays `running` and fails here with its history's length. */
async function settled(workflowId: string, runId: string): Promise<RunBody> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const run = await waitForRun(api, token, workflowId, runId, () => true);
    if (!['pending', 'running'].includes(run.status)) return run;
    if (Date.now() > deadline) {
      const described = await api.deps.temporal.workflow.getHandle(runId).describe();
      throw new Error(`run still ${run.status} after 60 s: ${described.historyLength} events`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** The most child starts one workflow task of the run asked for: all of them travel in that task's completion. */
const largestStartBatch = (runId: string): Promise<number> =>
  largestPerWorkflowTask(api, runId, (event) => (event.startChildWorkflowExecutionInitiatedEventAttributes ? 1 : 0));

/** A child that answers the total length of the strings in its parameter `values`. */
const measuringChild = () =>
  createWorkflowFixture(api, tenant, {
    name: 'measuring child',
    parameters: [{ name: 'values', type: 'array', required: true }],
    nodes: [toolNode('len', 'json_transform', { expression: '$sum($map($, function($v) { $length($v) }))', data: '${params.values}' })],
  });

test('a loop of 8 children, each given three 200 kB outputs, runs; the children read them by reference', async () => {
  const childId = await measuringChild();
  const producers = ['p0', 'p1', 'p2'];
  const parentId = await createWorkflowFixture(api, tenant, {
    nodes: [
      ...producers.map(producer),
      loopOf(8, { type: 'subworkflow', config: { workflow_id: childId, inputs: { values: `\${[${producers.map((id) => `nodes.${id}.result`).join(',')}]}` } } }),
    ],
    edges: producers.map((id) => ({ from: id, to: 'each' })),
  });
  const run = await settled(parentId, (await startRun(api, token, parentId, {})).id);
  expect(run.status).toBe('completed');
  expect(run.results.each.count).toBe(8);
  for (const item of run.results.each.results) expect(item).toEqual({ len: { result: 3 * CHARS } });
  // The children's run rows hold the reference, not 600 kB each.
  const children = await api.deps.db('workflow_runs').where({ parent_run_id: run.id }).select('parameters');
  expect(children).toHaveLength(8);
  for (const child of children) expect(isRef(child.parameters.values)).toBe(true);
});

test('a loop of 12 children of a 400 kB workflow runs (their starts are held to the budget)', async () => {
  const childId = await createWorkflowFixture(api, tenant, {
    name: 'large child',
    nodes: [toolNode('big', 'json_transform', { expression: '$length($)', data: 'y'.repeat(400_000) })],
  });
  const parentId = await createWorkflowFixture(api, tenant, { nodes: [loopOf(12, { type: 'subworkflow', config: { workflow_id: childId } })] });
  const run = await settled(parentId, (await startRun(api, token, parentId, {})).id);
  expect(run.status).toBe('completed');
  for (const item of run.results.each.results) expect(item).toEqual({ big: { result: 400_000 } });
  // Two 400 kB starts fit in the 1 MiB budget, a third waits. Before: all twelve in one task (4.8 MB), refused at
  // every retry (ten, 4.0 MB, were just under the server's 4 MiB).
  expect(await largestStartBatch(run.id)).toBeLessThanOrEqual(2);
});

test("a loop of 8 children inheriting the run's 600 kB parameter runs; they read it by reference", async () => {
  const childId = await measuringChild();
  const parentId = await createWorkflowFixture(api, tenant, {
    parameters: [{ name: 'values', type: 'array', required: true }],
    nodes: [loopOf(8, { type: 'subworkflow', config: { workflow_id: childId, inherit_context: true } })],
  });
  const values = ['a', 'b', 'c'].map((c) => c.repeat(CHARS));
  const run = await settled(parentId, (await startRun(api, token, parentId, { values })).id);
  expect(run.status).toBe('completed');
  for (const item of run.results.each.results) expect(item).toEqual({ len: { result: 3 * CHARS } });
  const children = await api.deps.db('workflow_runs').where({ parent_run_id: run.id }).select('parameters');
  for (const child of children) expect(isRef(child.parameters.values)).toBe(true);
});

test('a stored parameter inherited by a grandchild is checked and read whole', async () => {
  const grandchildId = await measuringChild();
  const childId = await createWorkflowFixture(api, tenant, {
    name: 'middle child',
    parameters: [{ name: 'values', type: 'array', required: true }],
    nodes: [{ id: 'deeper', type: 'subworkflow', config: { workflow_id: grandchildId, inherit_context: true } }],
  });
  const parentId = await createWorkflowFixture(api, tenant, {
    nodes: [producer('p0'), { id: 'sub', type: 'subworkflow', config: { workflow_id: childId, inputs: { values: '${[nodes.p0.result]}' } } }],
    edges: [{ from: 'p0', to: 'sub' }],
  });
  const run = await settled(parentId, (await startRun(api, token, parentId, {})).id);
  expect(run.status).toBe('completed');
  expect(run.results.sub).toEqual({ deeper: { len: { result: CHARS } } });
});
