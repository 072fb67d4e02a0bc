import type { TestApi } from '../helpers/stack';
import { createTestTenant, type TestTenant } from '../helpers/tenants';
import { addWorkflowVersion, createWorkflowFixture, runToEnd, startRun, toolNode, useRunApi, waitForRun } from '../helpers/runs';

/**
 * Rerun of a finished run (docs/runs.md#rerun): from a node, with edited parameters, on the run's version or the
 * latest; what reruns and what is reused; and retry refusing what only a rerun does.
 */

let api: TestApi;
let tenant: TestTenant;
let token: string;

useRunApi((started) => ({ api, tenant, token } = started));

const transform = (id: string, expression: string, data: unknown) => toolNode(id, 'json_transform', { expression, data });

/** a reads the region; b reads a; c reads nothing; d reads b and c. */
const spec = (cExpression = '"c"') => ({
  status: 'active' as const,
  parameters: [{ name: 'region', type: 'string', required: true }],
  nodes: [
    transform('a', '"a-" & $', '${params.region}'),
    transform('b', '$ & "-b"', '${nodes.a.result}'),
    transform('c', cExpression, null),
    transform('d', '$', { b: '${nodes.b.result}', c: '${nodes.c.result}' }),
  ],
  edges: [
    { from: 'a', to: 'b' },
    { from: 'b', to: 'd' },
    { from: 'c', to: 'd' },
  ],
});

const rerun = (workflowId: string, runId: string, body: Record<string, unknown>, as = token) =>
  api.request('POST', `/api/v1/workflows/${workflowId}/runs/${runId}/rerun`, { token: as, body });

const vias = (run: { node_states: Record<string, { via?: string }> }) =>
  Object.fromEntries(Object.entries(run.node_states).map(([id, s]) => [id, s.via ?? 'ran']));

test('from a node: it and what follows run again, the rest is reused; the new run links to the old', async () => {
  const workflowId = await createWorkflowFixture(api, tenant, spec());
  const original = await runToEnd(api, token, workflowId, { region: 'eu' });
  expect(original.status).toBe('completed');

  const res = await rerun(workflowId, original.id, { from_node: 'b' });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({ retry_of: original.id, workflow_version: 1, trigger: { type: 'rerun', retryOf: original.id, fromNode: 'b' } });
  const run = await waitForRun(api, token, workflowId, res.body.id);
  expect(run.status).toBe('completed');
  expect(vias(run)).toEqual({ a: 'reused', b: 'ran', c: 'reused', d: 'ran' });
  expect(run.node_states.d.output).toEqual({ result: { b: 'a-eu-b', c: 'c' } });
});

test('edited parameters rerun the nodes that read them and what follows; without from_node, everything', async () => {
  const workflowId = await createWorkflowFixture(api, tenant, spec());
  const original = await runToEnd(api, token, workflowId, { region: 'eu' });

  const edited = await waitForRun(api, token, workflowId, (await rerun(workflowId, original.id, { from_node: 'd', parameters: { region: 'us' } })).body.id);
  expect(edited.parameters).toEqual({ region: 'us' });
  expect(vias(edited)).toEqual({ a: 'ran', b: 'ran', c: 'reused', d: 'ran' });
  expect(edited.node_states.d.output).toEqual({ result: { b: 'a-us-b', c: 'c' } });

  const fresh = await waitForRun(api, token, workflowId, (await rerun(workflowId, original.id, {})).body.id);
  expect(vias(fresh)).toEqual({ a: 'ran', b: 'ran', c: 'ran', d: 'ran' });
});

test('on the latest version, nodes it defines differently rerun with what follows', async () => {
  const workflowId = await createWorkflowFixture(api, tenant, spec());
  const original = await runToEnd(api, token, workflowId, { region: 'eu' });
  await addWorkflowVersion(api, tenant, workflowId, 2, spec('"c2"'));

  const same = await waitForRun(api, token, workflowId, (await rerun(workflowId, original.id, { from_node: 'd' })).body.id);
  expect(same.workflow_version).toBe(1);
  expect(same.node_states.d.output).toEqual({ result: { b: 'a-eu-b', c: 'c' } });

  const latest = await waitForRun(api, token, workflowId, (await rerun(workflowId, original.id, { from_node: 'd', version: 'latest' })).body.id);
  expect(latest.workflow_version).toBe(2);
  expect(vias(latest)).toEqual({ a: 'reused', b: 'reused', c: 'ran', d: 'ran' });
  expect(latest.node_states.d.output).toEqual({ result: { b: 'a-eu-b', c: 'c2' } });
  const numbered = await rerun(workflowId, original.id, { version: 2, from_node: 'c' });
  expect(numbered.status).toBe(201);
  expect(numbered.body.workflow_version).toBe(2);
  await waitForRun(api, token, workflowId, numbered.body.id);
});

test("with an edited node input: the node gets exactly that input, what follows runs on it, the rest is reused", async () => {
  const workflowId = await createWorkflowFixture(api, tenant, spec());
  const original = await runToEnd(api, token, workflowId, { region: 'eu' });
  const res = await rerun(workflowId, original.id, { from_node: 'b', node_input: { expression: '$ & "-fixed"', data: 'hand-made' } });
  expect(res.status).toBe(201);
  expect(res.body.trigger).toMatchObject({ type: 'rerun', fromNode: 'b', nodeInputEdited: true });
  const run = await waitForRun(api, token, workflowId, res.body.id);
  expect(run.status).toBe('completed');
  expect(vias(run)).toEqual({ a: 'reused', b: 'ran', c: 'reused', d: 'ran' });
  expect(run.node_states.b.output).toEqual({ result: 'hand-made-fixed' });
  expect(run.node_states.d.output).toEqual({ result: { b: 'hand-made-fixed', c: 'c' } });
  // The workflow itself is unchanged: a plain rerun uses the saved node again.
  const plain = await waitForRun(api, token, workflowId, (await rerun(workflowId, original.id, { from_node: 'b' })).body.id);
  expect(plain.node_states.b.output).toEqual({ result: 'a-eu-b' });

  const refused = async (body: Record<string, unknown>) => {
    const answer = await rerun(workflowId, original.id, body);
    expect(answer.status).toBe(400);
    return answer.body.error.details.map((d: { path: string; problem: string }) => `${d.path}: ${d.problem}`).join('; ');
  };
  expect(await refused({ node_input: { data: 1 } })).toMatch(/body.node_input: give from_node/);
  expect(await refused({ from_node: 'b', node_input: { data: '${params.region}' } })).toMatch(/literal values only/);
  expect(await refused({ from_node: 'b', node_input: { expression: 5 } })).toMatch(/body.node_input.expression/);
  expect(await refused({ from_node: 'b', node_input: { expression: '$string(' } })).toMatch(/invalid JSONata/);
  expect(await refused({ from_node: 'b', node_input: { data: '{{secret.KEY}}' } })).toMatch(/secret/);
});

test('clear refusals: an open run, an unknown node, bad parameters, another organization; retry takes no options', async () => {
  const slow = await createWorkflowFixture(api, tenant, { status: 'active', nodes: [toolNode('wait', 'delay', { ms: 5000 })], edges: [] });
  const open = await startRun(api, token, slow);
  expect((await rerun(slow, open.id, {})).body.error.code).toBe('INVALID_STATE');

  const workflowId = await createWorkflowFixture(api, tenant, spec());
  const original = await runToEnd(api, token, workflowId, { region: 'eu' });
  const unknown = await rerun(workflowId, original.id, { from_node: 'zz' });
  expect(unknown.status).toBe(400);
  expect(unknown.body.error.details).toEqual([{ path: 'body.from_node', problem: 'no node "zz" in version 1 of the workflow' }]);
  const badParams = await rerun(workflowId, original.id, { parameters: { region: 5, extra: true } });
  expect(badParams.status).toBe(422);
  expect(badParams.body.error.code).toBe('INVALID_PARAMETERS');
  expect((await rerun(workflowId, original.id, { version: 'newest' })).status).toBe(400);
  expect((await rerun(workflowId, original.id, { version: 9 })).status).toBe(404);
  const other = await createTestTenant(api);
  expect((await rerun(workflowId, original.id, {}, other.owner.token)).status).toBe(404);

  const failed = await runToEnd(api, token, await createWorkflowFixture(api, tenant, { nodes: [toolNode('x', 'fail', { mode: 'always', message: 'no' }, { retryPolicy: { max_attempts: 1 } })], edges: [] }));
  const retryQuery = await api.request('POST', `/api/v1/workflows/${failed.workflow_id}/runs/${failed.id}/retry?version=latest`, { token });
  expect(retryQuery.status).toBe(400);
  const retryBody = await api.request('POST', `/api/v1/workflows/${failed.workflow_id}/runs/${failed.id}/retry`, { token, body: { version: 'latest' } });
  expect(retryBody.status).toBe(400);
  expect((await api.request('POST', `/api/v1/workflows/${failed.workflow_id}/runs/${failed.id}/retry`, { token })).status).toBe(201);
  await waitForRun(api, token, slow, open.id);
});
