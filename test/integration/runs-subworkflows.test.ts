import type { TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';
import { createWorkflowFixture, runToEnd, startRun, toolNode, waitForRun, type RunBody, useRunApi } from '../helpers/runs';
import { countOpenRuns } from '../../domain/runs/queries';

/**
 * Subworkflow children are runs of their own (docs/runs.md#subworkflow-runs), with the real worker and Temporal:
 * listed under the child workflow with a link to the parent run, linked from the parent's node state, kept up to
 * date like any run (cancelled with their parent), and cleaned up with the workflows and organizations they belong to.
 */

let api: TestApi;
let tenant: TestTenant;
let token: string;

useRunApi((started) => ({ api, tenant, token } = started));

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const square = (id: string) => toolNode(id, 'json_transform', { expression: '$ * $', data: '${params.n}' });
const slow = (id: string) => toolNode(id, 'delay', { ms: 60_000, value: id });

async function listRuns(workflowId: string, query = ''): Promise<RunBody[]> {
  const res = await api.request('GET', `/api/v1/workflows/${workflowId}/runs${query}`, { token });
  expect(res.status).toBe(200);
  return res.body.data;
}

async function getRun(workflowId: string, runId: string): Promise<RunBody> {
  const res = await api.request('GET', `/api/v1/workflows/${workflowId}/runs/${runId}`, { token });
  expect(res.status).toBe(200);
  return res.body;
}

/** Polls the child's run (a run of the child workflow) until `until` holds. */
const waitForChild = (childWorkflowId: string, childRunId: string, until?: (run: RunBody) => boolean) =>
  waitForRun(api, token, childWorkflowId, childRunId, until);

describe('a subworkflow child is a run of the child workflow', () => {
  test('listed under the child workflow with its parent; the parent node links it; its view is a full run', async () => {
    const childId = await createWorkflowFixture(api, tenant, {
      name: 'child',
      parameters: [{ name: 'n', type: 'integer', required: true }],
      nodes: [square('sq')],
    });
    const parentId = await createWorkflowFixture(api, tenant, {
      parameters: [{ name: 'x', type: 'integer', required: true }],
      nodes: [{ id: 'sub', type: 'subworkflow', config: { workflow_id: childId, inputs: { n: '${params.x}' } } }],
    });
    const parent = await runToEnd(api, token, parentId, { x: 7 });
    expect(parent.status).toBe('completed');
    const childRunId = parent.node_states.sub.child_run_id;
    expect(childRunId).toMatch(UUID);
    expect(parent.parent).toBeNull();

    const listed = await listRuns(childId);
    expect(listed.map((r) => r.id)).toEqual([childRunId]);
    expect(listed[0]).toMatchObject({
      status: 'completed',
      workflow_id: childId,
      workflow_version: 1,
      trigger: { type: 'subworkflow', parentRunId: parent.id, parentWorkflowId: parentId, nodeId: 'sub' },
      parent: { run_id: parent.id, workflow_id: parentId, node_id: 'sub' },
      created_by: parent.created_by,
    });
    // the parent's list holds the parent only
    expect((await listRuns(parentId)).map((r) => r.id)).toEqual([parent.id]);

    const child = await getRun(childId, childRunId);
    expect(child).toMatchObject({
      id: childRunId,
      status: 'completed',
      parameters: { n: 7 },
      results: { sq: { result: 49 } },
      node_states: { sq: { status: 'completed', attempts: 1 } },
      parent: { run_id: parent.id, workflow_id: parentId, node_id: 'sub' },
    });
    expect(child.completed_at).not.toBeNull();
    expect(parent.node_states.sub.output).toEqual(child.results);
    // the run id is the child's Temporal workflow id, as for every run
    expect(child.links.temporal).toMatch(new RegExp(`/workflows/${childRunId}$`));
    const description = await api.deps.temporal.workflow.getHandle(childRunId).describe();
    expect(description.searchAttributes.LoomRunKind).toEqual(['subworkflow']);
    expect(description.status.name).toBe('COMPLETED');
  });

  test('a failing child is a failed run; the parent node fails with its error', async () => {
    const childId = await createWorkflowFixture(api, tenant, {
      name: 'broken child',
      nodes: [toolNode('boom', 'fail', { mode: 'non_retryable', code: 'CHILD_BROKE' })],
    });
    const parentId = await createWorkflowFixture(api, tenant, { nodes: [{ id: 'sub', type: 'subworkflow', config: { workflow_id: childId } }] });
    const parent = await runToEnd(api, token, parentId);
    expect(parent.status).toBe('failed');
    expect(parent.node_states.sub).toMatchObject({ status: 'failed', error: { code: 'CHILD_BROKE' } });
    const child = await getRun(childId, parent.node_states.sub.child_run_id);
    expect(child.status).toBe('failed');
    expect(child.errors).toMatchObject([{ node: 'boom', code: 'CHILD_BROKE' }]);
  });

  test('each item of a loop over a subworkflow is a child run, its node `<loop>[<i>]`', async () => {
    const childId = await createWorkflowFixture(api, tenant, {
      name: 'item child',
      parameters: [{ name: 'n', type: 'integer', required: true }],
      nodes: [square('sq')],
    });
    const parentId = await createWorkflowFixture(api, tenant, {
      nodes: [
        {
          id: 'each',
          type: 'loop',
          config: { items: '[1, 2, 3]', iterator: 'item', template: { type: 'subworkflow', config: { workflow_id: childId, inputs: { n: '${item}' } } } },
        },
      ],
    });
    const parent = await runToEnd(api, token, parentId);
    expect(parent.status).toBe('completed');
    const children = await listRuns(childId);
    expect(children).toHaveLength(3);
    expect(children.map((r) => r.parent.node_id).sort()).toEqual(['each[0]', 'each[1]', 'each[2]']);
    for (const child of children) expect(child).toMatchObject({ status: 'completed', parent: { run_id: parent.id, workflow_id: parentId } });
  });
});

describe('cancellation', () => {
  async function startWithRunningChild(): Promise<{ childId: string; parentId: string; parentRun: RunBody; childRunId: string }> {
    const childId = await createWorkflowFixture(api, tenant, { name: 'slow child', nodes: [slow('wait')] });
    const parentId = await createWorkflowFixture(api, tenant, { nodes: [{ id: 'sub', type: 'subworkflow', config: { workflow_id: childId } }] });
    const parentRun = await startRun(api, token, parentId);
    const running = await waitForRun(api, token, parentId, parentRun.id, (r) => r.node_states?.sub?.child_run_id !== undefined);
    const childRunId = running.node_states.sub.child_run_id;
    await waitForChild(childId, childRunId, (r) => r.node_states?.wait?.status === 'running');
    return { childId, parentId, parentRun, childRunId };
  }

  test('the child shows running while it runs, and is not counted as an API-started open run', async () => {
    const { childId, parentId, parentRun, childRunId } = await startWithRunningChild();
    const child = await getRun(childId, childRunId);
    expect(child.status).toBe('running');
    expect(child.node_states.wait.status).toBe('running');
    // one open run for the admission cap (the parent), although two rows are open
    expect(await api.deps.db('workflow_runs').where({ organization_id: tenant.organizationId }).whereIn('status', ['pending', 'running']).count('* as n')).toEqual([{ n: '2' }]);
    expect(await countOpenRuns(api.deps.db, tenant.organizationId, 100)).toBe(1);
    await api.request('POST', `/api/v1/workflows/${parentId}/runs/${parentRun.id}/cancel`, { token });
    await waitForChild(childId, childRunId);
  });

  test('cancelling the parent cancels the child: its row ends cancelled', async () => {
    const { childId, parentId, parentRun, childRunId } = await startWithRunningChild();
    const res = await api.request('POST', `/api/v1/workflows/${parentId}/runs/${parentRun.id}/cancel`, { token });
    expect(res.status).toBe(200);
    const parent = await waitForRun(api, token, parentId, parentRun.id);
    expect(parent.status).toBe('cancelled');
    expect(parent.node_states.sub.status).toBe('cancelled');
    const child = await waitForChild(childId, childRunId);
    expect(child.status).toBe('cancelled');
    expect(child.node_states.wait.status).toBe('cancelled');
    expect(child.completed_at).not.toBeNull();
    expect((await api.deps.temporal.workflow.getHandle(childRunId).describe()).status.name).toBe('CANCELLED');
  });

  test('cancelling the child run itself fails the parent node with SUBWORKFLOW_CANCELLED', async () => {
    const { childId, parentId, parentRun, childRunId } = await startWithRunningChild();
    const res = await api.request('POST', `/api/v1/workflows/${childId}/runs/${childRunId}/cancel`, { token });
    expect(res.status).toBe(200);
    expect(['cancelled', 'cancelling']).toContain(res.body.status);
    expect((await waitForChild(childId, childRunId)).status).toBe('cancelled');
    const parent = await waitForRun(api, token, parentId, parentRun.id);
    expect(parent.status).toBe('failed');
    expect(parent.node_states.sub).toMatchObject({ status: 'failed', error: { code: 'SUBWORKFLOW_CANCELLED' }, child_run_id: childRunId });
  });
});

describe('tenancy and cleanup', () => {
  test('another organization cannot read the child run (404)', async () => {
    const childId = await createWorkflowFixture(api, tenant, { name: 'private child', parameters: [{ name: 'n', type: 'integer', default: 2 }], nodes: [square('sq')] });
    const parentId = await createWorkflowFixture(api, tenant, { nodes: [{ id: 'sub', type: 'subworkflow', config: { workflow_id: childId } }] });
    const parent = await runToEnd(api, token, parentId);
    const childRunId = parent.node_states.sub.child_run_id;
    const other = await createTestTenant(api);
    const res = await api.request('GET', `/api/v1/workflows/${childId}/runs/${childRunId}`, { token: other.owner.token });
    expect(res.status).toBe(404);
  });

  test('deleting the parent workflow keeps the child runs, unlinked; deleting the child workflow deletes them', async () => {
    const childId = await createWorkflowFixture(api, tenant, { name: 'kept child', parameters: [{ name: 'n', type: 'integer', default: 3 }], nodes: [square('sq')] });
    const parentId = await createWorkflowFixture(api, tenant, { nodes: [{ id: 'sub', type: 'subworkflow', config: { workflow_id: childId } }] });
    const parent = await runToEnd(api, token, parentId);
    const childRunId = parent.node_states.sub.child_run_id;

    const deleted = await api.request('DELETE', `/api/v1/workflows/${parentId}`, { token });
    expect(deleted.status).toBe(204);
    const child = await getRun(childId, childRunId);
    expect(child).toMatchObject({ status: 'completed', parent: null, trigger: { type: 'subworkflow', parentRunId: parent.id } });

    const childDeleted = await api.request('DELETE', `/api/v1/workflows/${childId}`, { token });
    expect(childDeleted.status).toBe(204);
    expect(await api.deps.db('workflow_runs').where({ id: childRunId }).first()).toBeUndefined();
  });

  test('a child workflow with an open child run is not deleted under it', async () => {
    const childId = await createWorkflowFixture(api, tenant, { name: 'busy child', nodes: [slow('wait')] });
    const parentId = await createWorkflowFixture(api, tenant, { nodes: [{ id: 'sub', type: 'subworkflow', config: { workflow_id: childId } }] });
    const parentRun = await startRun(api, token, parentId);
    await waitForRun(api, token, parentId, parentRun.id, (r) => r.node_states?.sub?.child_run_id !== undefined);
    const res = await api.request('DELETE', `/api/v1/workflows/${childId}`, { token });
    expect(res.status).toBe(409);
    await api.request('POST', `/api/v1/workflows/${parentId}/runs/${parentRun.id}/cancel`, { token });
    await waitForRun(api, token, parentId, parentRun.id);
  });
});
