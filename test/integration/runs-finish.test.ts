import type { TestApi } from '../helpers/stack';
import type { TestTenant } from '../helpers/tenants';
import { createWorkflowFixture, runToEnd, toolNode, useRunApi } from '../helpers/runs';
import { createRunActivities } from '../../activities/runs/runActivities';
import type { NodeState } from '../../lib/dag/model';

/**
 * The run's final write (runFinish): one statement that locks the row and answers its previous status. Node states
 * saved in chunks beforehand are kept, and only the transition from an open status emits run.completed, however
 * often the activity is retried (docs/events.md).
 */

let api: TestApi;
let tenant: TestTenant;
let token: string;

useRunApi((started) => ({ api, tenant, token } = started));

const finishedEvents = async (runId: string): Promise<number> => {
  const rows = await api.deps.db('outbox_events').where({ type: 'run.completed' }).whereRaw(`payload->>'runId' = ?`, [runId]).count<{ n: string }[]>({ n: '*' });
  return Number(rows[0]!.n);
};

const savedState = (output: unknown): NodeState =>
  ({ status: 'completed', attempts: 1, output, error: null, startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:01.000Z' }) as unknown as NodeState;

test('a finish after chunked node states keeps them, and a retried finish emits no second event', async () => {
  const workflowId = await createWorkflowFixture(api, tenant, { nodes: [toolNode('one', 'json_transform', { expression: '$ + 1', data: 1 })] });
  const run = await runToEnd(api, token, workflowId);
  expect(run.status).toBe('completed');
  expect(await finishedEvents(run.id)).toBe(1);

  // The same run as the worker sees it mid-flight: open again, its large node states saved in two chunks.
  const db = api.deps.db;
  await db('workflow_runs').where({ id: run.id }).update({ status: 'running', completed_at: null });
  const activities = createRunActivities(api.deps);
  await activities.runSaveNodeStates({ runId: run.id, nodeStates: { a: savedState('first chunk') } });
  await activities.runSaveNodeStates({ runId: run.id, nodeStates: { b: savedState('second chunk') } });

  const final = { runId: run.id, status: 'completed' as const, results: { one: { result: 2 } }, errors: [], completedAt: '2026-01-01T00:00:02.000Z' };
  await activities.runFinish(final);
  const row = await db('workflow_runs').where({ id: run.id }).first();
  expect(row.status).toBe('completed');
  expect(new Date(row.completed_at).toISOString()).toBe(final.completedAt);
  expect(row.results).toEqual({ one: { result: 2 } });
  expect(Object.keys(row.node_states).sort()).toEqual(['a', 'b', 'one']);
  expect(row.node_states.a.output).toBe('first chunk');
  expect(await finishedEvents(run.id)).toBe(2);

  // A retry of the same activity (its first attempt committed, the answer was lost): same state, no new event.
  await activities.runFinish({ ...final, nodeStates: { c: savedState('inline') } });
  expect(await finishedEvents(run.id)).toBe(2);
  const again = await db('workflow_runs').where({ id: run.id }).first();
  expect(Object.keys(again.node_states).sort()).toEqual(['a', 'b', 'c', 'one']);

  // A run that does not exist is not an error (the row went with its organization): nothing is written.
  await expect(activities.runFinish({ ...final, runId: '00000000-0000-4000-8000-000000000000' })).resolves.toBeUndefined();
});
