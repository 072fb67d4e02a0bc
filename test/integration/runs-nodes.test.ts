import type { TestApi } from '../helpers/stack';
import { addTestMember, createTestTenant, type TestTenant } from '../helpers/tenants';
import { createWorkflowFixture, runToEnd, startRun, toolNode, waitForRun, useRunApi } from '../helpers/runs';

/** Node semantics of the interpreter, parameters, listing and tenancy of runs (docs/runs.md). */

let api: TestApi;
let tenant: TestTenant;
let token: string;

useRunApi((started) => ({ api, tenant, token } = started));

const transform = (id: string, expression: string, data: unknown, extra: Record<string, unknown> = {}) =>
  toolNode(id, 'json_transform', { expression, data }, extra);

describe('tool nodes', () => {
  test('templates and from bindings feed a chain of tool activities; results are the exit outputs', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      parameters: [{ name: 'x', type: 'integer', required: true }],
      nodes: [
        transform('double', '$ * 2', '${params.x}'),
        toolNode('plus_one', 'json_transform', { expression: '$ + 1' }, { inputs: [{ name: 'data', from: 'double.result' }] }),
      ],
      edges: [{ from: 'double', to: 'plus_one' }],
    });
    const started = await startRun(api, token, workflowId, { x: 20 });
    expect(started).toMatchObject({ workflow_id: workflowId, workflow_version: 1, trigger: { type: 'manual' } });
    expect(['pending', 'running']).toContain(started.status);
    const run = await waitForRun(api, token, workflowId, started.id);
    expect(run.status).toBe('completed');
    expect(run.results).toEqual({ plus_one: { result: 41 } });
    expect(run.node_states.double).toMatchObject({ status: 'completed', attempts: 1, output: { result: 40 }, error: null });
    expect(run.node_states.plus_one.startedAt >= run.node_states.double.finishedAt).toBe(true);
    expect(run.errors).toEqual([]);
    expect(typeof run.duration).toBe('number');
    expect(run.completed_at).not.toBeNull();
    expect(run.links.temporal).toBe(`${api.config.temporal.uiUrl}/namespaces/${api.config.temporal.namespace}/workflows/${run.id}`);
    // the execution carries the run's search attributes
    const description = await api.deps.temporal.workflow.getHandle(run.id).describe();
    expect(description.searchAttributes.LoomOrganizationId).toEqual([tenant.organizationId]);
    expect(description.searchAttributes.LoomWorkflowVersion).toEqual([1]);
  });

  test('an output larger than RUN_LARGE_OUTPUT_BYTES travels by reference and downstream nodes read it', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [
        transform('big', "$pad('', 5000, 'x')", null),
        toolNode('measure', 'json_transform', { expression: '$length($)' }, { inputs: [{ name: 'data', from: 'big.result' }] }),
      ],
      edges: [{ from: 'big', to: 'measure' }],
    });
    const run = await runToEnd(api, token, workflowId);
    expect(run.status).toBe('completed');
    expect(run.results.measure).toEqual({ result: 5000 });
    const ref = run.node_states.big.output;
    expect(ref.$ref).toMatch(new RegExp(`^s3://${api.config.minio.bucket}/org/${tenant.organizationId}/runs/${run.id}/big\\.json$`));
    const download = await fetch(ref.download_url);
    expect(((await download.json()) as { result: string }).result).toHaveLength(5000);
  });

  test('a parameter repeating a reference to a large output fails the node VALUE_TOO_LARGE, without retries', async () => {
    const producer = await createWorkflowFixture(api, tenant, { nodes: [transform('big', "$pad('', 1000000, 'x')", null)] });
    const first = await runToEnd(api, token, producer);
    expect(first.status).toBe('completed');
    const ref = { $ref: first.node_states.big.output.$ref as string };
    // 100 copies of a 1 MB value: 100 MB once resolved, past the 64 MiB a node may read (docs/runs.md#large-values)
    const consumer = await createWorkflowFixture(api, tenant, {
      parameters: [{ name: 'list', type: 'array', required: true }],
      nodes: [toolNode('measure', 'json_transform', { expression: '$count($)' }, { inputs: [{ name: 'data', from: 'params.list' }] })],
    });
    const run = await runToEnd(api, token, consumer, { list: Array.from({ length: 100 }, () => ref) });
    expect(run.status).toBe('failed');
    expect(run.node_states.measure).toMatchObject({ status: 'failed', attempts: 1, error: { code: 'VALUE_TOO_LARGE' } });
  });
});

describe('condition', () => {
  const spec = {
    parameters: [{ name: 'flag', type: 'boolean', required: true }],
    nodes: [
      { id: 'check', type: 'condition', config: { expression: 'params.flag == true', trueBranch: 'yes', falseBranch: 'no' } },
      transform('yes', '"yes"', null),
      transform('no', '"no"', null),
      transform('after_no', '"after no"', null),
      transform('merge', '"merged"', null),
    ],
    edges: [
      { from: 'no', to: 'after_no' },
      { from: 'yes', to: 'merge' },
      { from: 'after_no', to: 'merge' },
    ],
  };

  test('runs the true branch, skips the other and its descendants, and the merge still runs', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, spec);
    const run = await runToEnd(api, token, workflowId, { flag: true });
    expect(run.status).toBe('completed');
    expect(run.node_states.check.output).toEqual({ result: true, branch: 'yes' });
    expect(run.node_states.yes.status).toBe('completed');
    expect(run.node_states.no.status).toBe('skipped');
    expect(run.node_states.after_no.status).toBe('skipped');
    expect(run.node_states.merge.status).toBe('completed');
  });

  test('an expression written as a ${...} template is the same CEL at run time as at save', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      ...spec,
      nodes: [{ id: 'check', type: 'condition', config: { expression: '${params.flag == true}', trueBranch: 'yes', falseBranch: 'no' } }, ...spec.nodes.slice(1)],
    });
    const run = await runToEnd(api, token, workflowId, { flag: true });
    expect(run.errors).toEqual([]);
    expect(run.node_states.check.output).toEqual({ result: true, branch: 'yes' });
  });

  test('false takes the false branch', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, spec);
    const run = await runToEnd(api, token, workflowId, { flag: false });
    expect(run.node_states.yes.status).toBe('skipped');
    expect(run.node_states.no.status).toBe('completed');
    expect(run.node_states.after_no.status).toBe('completed');
    expect(run.node_states.merge.status).toBe('completed');
  });
});

describe('parallel joins', () => {
  const parallelSpec = (joinStrategy: string, n?: number) => ({
    nodes: [
      {
        id: 'fan',
        type: 'parallel',
        config: {
          joinStrategy,
          ...(n ? { n } : {}),
          branches: [
            { id: 'fast', nodes: ['fast_a'] },
            { id: 'slow', nodes: ['slow_a'] },
            { id: 'medium', nodes: ['medium_a', 'medium_b'] },
          ],
        },
      },
      toolNode('fast_a', 'delay', { ms: 10, value: 'fast' }),
      toolNode('slow_a', 'delay', { ms: joinStrategy === 'wait_all' ? 300 : 60_000, value: 'slow' }),
      toolNode('medium_a', 'delay', { ms: 200, value: 'medium' }),
      transform('medium_b', '"medium done"', null),
      transform('after', '"after"', null),
    ],
    edges: [
      { from: 'medium_a', to: 'medium_b' },
      { from: 'fan', to: 'after' },
    ],
  });

  test('wait_all waits for every branch', async () => {
    const run = await runToEnd(api, token, await createWorkflowFixture(api, tenant, parallelSpec('wait_all')));
    expect(run.status).toBe('completed');
    expect(run.node_states.fan.output.completed.sort()).toEqual(['fast', 'medium', 'slow']);
    expect(run.node_states.fan.output.branches.medium.medium_b).toEqual({ result: 'medium done' });
    expect(run.node_states.after.status).toBe('completed');
  });

  test('wait_any: the first completed branch wins and the others are cancelled', async () => {
    const run = await runToEnd(api, token, await createWorkflowFixture(api, tenant, parallelSpec('wait_any')));
    expect(run.status).toBe('completed');
    expect(run.node_states.fan.output.completed).toEqual(['fast']);
    expect(run.node_states.slow_a.status).toBe('cancelled');
    // a short node may finish before the cancellation reaches it
    expect(['cancelled', 'completed']).toContain(run.node_states.medium_a.status);
    expect(run.node_states.medium_b.status).toBe('cancelled');
    expect(run.node_states.after.status).toBe('completed');
  });

  test('a wait_all that can no longer be met cancels its open branches at once and fails', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      nodes: [
        { id: 'fan', type: 'parallel', config: { branches: [{ id: 'bad', nodes: ['broken'] }, { id: 'long', nodes: ['long_a', 'long_b'] }] } },
        toolNode('broken', 'fail', { mode: 'always', message: 'nope' }, { retryPolicy: { max_attempts: 1 } }),
        toolNode('long_a', 'delay', { ms: 20_000, value: 'late' }),
        transform('long_b', '"never"', null),
      ],
      edges: [{ from: 'long_a', to: 'long_b' }],
    });
    const run = await runToEnd(api, token, workflowId);
    expect(run.status).toBe('failed');
    expect(run.errors).toEqual(expect.arrayContaining([expect.objectContaining({ node: 'fan', code: 'JOIN_FAILED' })]));
    expect(run.node_states.long_a.status).toBe('cancelled');
    // before: the run waited for the 20 s branch it could no longer use, which then completed, and its successor ran
    expect(run.node_states.long_b.status).toBe('cancelled');
  });

  test('wait_n: n branches complete, the rest are cancelled', async () => {
    const run = await runToEnd(api, token, await createWorkflowFixture(api, tenant, parallelSpec('wait_n', 2)));
    expect(run.status).toBe('completed');
    expect(run.node_states.fan.output.completed.sort()).toEqual(['fast', 'medium']);
    expect(run.node_states.slow_a.status).toBe('cancelled');
    expect(run.node_states.after.status).toBe('completed');
  });
});

describe('loops', () => {
  const loopSpec = {
    parameters: [{ name: 'list', type: 'array', required: true }],
    nodes: [
      {
        id: 'each',
        type: 'loop',
        config: {
          items: 'params.list',
          iterator: 'n',
          concurrency: 5,
          template: { type: 'tool', config: { tool: 'json_transform', config: { expression: '$ * 10', data: '${n}' } } },
        },
      },
      toolNode('total', 'json_transform', { expression: '$sum($.result)' }, { inputs: [{ name: 'data', from: 'each.results' }] }),
    ],
    edges: [{ from: 'each', to: 'total' }],
  };

  test('a small loop runs every item in order with a concurrency limit', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, loopSpec);
    const run = await runToEnd(api, token, workflowId, { list: [3, 1, 2] });
    expect(run.status).toBe('completed');
    expect(run.node_states.each.output).toEqual({ results: [{ result: 30 }, { result: 10 }, { result: 20 }], count: 3 });
    expect(run.results.total).toEqual({ result: 60 });
  });

  test('a running loop shows how many of its items finished, live', async () => {
    // One item at a time, each a 150 ms delay: the run is read while the loop is part-way through.
    const slow = {
      nodes: [
        {
          id: 'each',
          type: 'loop',
          config: { items: '${[1,2,3,4,5,6,7,8,9,10,11,12]}', iterator: 'n', concurrency: 1, template: { type: 'tool', config: { tool: 'delay', config: { ms: 150 } } } },
        },
      ],
      edges: [],
    };
    const workflowId = await createWorkflowFixture(api, tenant, slow);
    const started = await startRun(api, token, workflowId);
    const seen: { total: number; done: number }[] = [];
    for (let i = 0; i < 200; i += 1) {
      const read = await api.request('GET', `/api/v1/workflows/${workflowId}/runs/${started.id}`, { token });
      const state = read.body.node_states?.each;
      if (state?.status === 'running' && state.items) seen.push(state.items);
      if (read.body.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const partWay = seen.filter((items) => items.done > 0 && items.done < 12);
    expect(partWay.length).toBeGreaterThan(0);
    expect(seen.every((items) => items.total === 12)).toBe(true);
    // never going back
    expect(seen.map((items) => items.done)).toEqual([...seen.map((items) => items.done)].sort((a, b) => a - b));
    const run = await waitForRun(api, token, workflowId, started.id);
    expect(run.node_states.each.items).toEqual({ total: 12, done: 12 });
    const picture = await api.request('GET', `/api/v1/workflows/${workflowId}/runs/${started.id}/picture.json`, { token });
    expect(picture.body.nodes.each.loop).toMatchObject({ total: 12, done: 12, text: '12 of 12 items' });
  });

  const picky = () => ({
    parameters: [{ name: 'list', type: 'array', required: true }],
    nodes: [
      {
        id: 'each',
        type: 'loop',
        config: {
          items: 'params.list',
          iterator: 'n',
          concurrency: 10,
          continue_on_error: true,
          template: { type: 'tool', config: { tool: 'json_transform', config: { expression: '$ % 7 = 3 ? $error("no threes") : $ * 10', data: '${n}' } } },
        },
      },
      toolNode('after', 'json_transform', { expression: '$count($)' }, { inputs: [{ name: 'data', from: 'each.failed' }] }),
    ],
    edges: [{ from: 'each', to: 'after' }],
  });

  test('continue_on_error: failed items are null and listed, the others and the successors run', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, picky());
    const run = await runToEnd(api, token, workflowId, { list: [1, 3, 5, 10, 2, 3] });
    expect(run.status).toBe('completed');
    expect(run.node_states.each.status).toBe('completed');
    const { results, count, failed } = run.node_states.each.output;
    expect(count).toBe(6);
    expect(results).toEqual([{ result: 10 }, null, { result: 50 }, null, { result: 20 }, null]);
    expect(failed).toEqual([
      { index: 1, code: 'TRANSFORM_FAILED', message: expect.stringContaining('no threes') },
      { index: 3, code: 'TRANSFORM_FAILED', message: expect.stringContaining('no threes') },
      { index: 5, code: 'TRANSFORM_FAILED', message: expect.stringContaining('no threes') },
    ]);
    expect(run.node_states.after.output).toEqual({ result: 3 });
  });

  test('continue_on_error across child batches: failures of every batch are listed in item order', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, picky());
    const list = Array.from({ length: 120 }, (_, i) => i);
    const run = await runToEnd(api, token, workflowId, { list });
    expect(run.status).toBe('completed');
    const output = run.node_states.each.output;
    const stored = (output.$ref ? await (await fetch(output.download_url)).json() : output) as { results: unknown[]; failed: { index: number }[] };
    const expected = list.filter((n) => n % 7 === 3);
    expect(stored.failed.map((f) => f.index)).toEqual(expected);
    expect(stored.results.filter((r) => r === null)).toHaveLength(expected.length);
    expect(stored.results[4]).toEqual({ result: 40 });
  });

  test('200 items run in child batch workflows and keep item order', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, { ...loopSpec, nodes: [{ ...(loopSpec.nodes[0] as object), config: { ...(loopSpec.nodes[0] as { config: object }).config, concurrency: 20 } }, loopSpec.nodes[1]] });
    const list = Array.from({ length: 200 }, (_, i) => i);
    const run = await runToEnd(api, token, workflowId, { list });
    expect(run.status).toBe('completed');
    expect(run.results.total).toEqual({ result: 10 * ((199 * 200) / 2) });
    // the loop's combined output is larger than the test threshold: it is a reference with a download link
    const output = run.node_states.each.output;
    expect(output.$ref).toBeDefined();
    const stored = (await (await fetch(output.download_url)).json()) as { results: { result: number }[]; count: number };
    expect(stored.count).toBe(200);
    expect(stored.results.map((r) => r.result)).toEqual(list.map((i) => i * 10));
    // 200 items / batches of 50 = 4 child workflows
    const children = await api.deps.temporal.workflow.getHandle(`${run.id}.each.batch-3`).describe();
    expect(children.status.name).toBe('COMPLETED');
  });

  test('items that are not a list fail the loop node with LOOP_ITEMS_NOT_LIST', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      ...loopSpec,
      parameters: [{ name: 'list', type: 'object', required: true }],
    });
    const run = await runToEnd(api, token, workflowId, { list: { not: 'a list' } });
    expect(run.status).toBe('failed');
    expect(run.node_states.each.error.code).toBe('LOOP_ITEMS_NOT_LIST');
    expect(run.node_states.total.status).toBe('skipped');
  });
});

describe('subworkflows', () => {
  test('a subworkflow runs as a child workflow of the same organization; its results are the node output', async () => {
    const childId = await createWorkflowFixture(api, tenant, {
      name: 'child',
      parameters: [
        { name: 'n', type: 'integer', required: true },
        { name: 'label', type: 'string', default: 'child' },
      ],
      nodes: [transform('square', '{"square": $.n * $.n, "label": $.label}', { n: '${params.n}', label: '${params.label}' })],
    });
    const parentId = await createWorkflowFixture(api, tenant, {
      parameters: [{ name: 'x', type: 'integer', required: true }],
      nodes: [
        { id: 'sub', type: 'subworkflow', config: { workflow_id: childId, inputs: { n: '${params.x + 1}' } } },
        toolNode('use', 'json_transform', { expression: '$.result.square' }, { inputs: [{ name: 'data', from: 'sub.square' }] }),
      ],
      edges: [{ from: 'sub', to: 'use' }],
    });
    const run = await runToEnd(api, token, parentId, { x: 4 });
    expect(run.status).toBe('completed');
    expect(run.node_states.sub.output).toEqual({ square: { result: { square: 25, label: 'child' } } });
    expect(run.results.use).toEqual({ result: 25 });
    // the child's workflow id is its own run's id (docs/runs.md#subworkflow-runs)
    const child = await api.deps.temporal.workflow.getHandle(run.node_states.sub.child_run_id).describe();
    expect(child.searchAttributes.LoomRunKind).toEqual(['subworkflow']);
  });

  test('a subworkflow of another organization is not found', async () => {
    const other = await createTestTenant(api);
    const foreign = await createWorkflowFixture(api, other, { nodes: [transform('a', '1', null)] });
    const parentId = await createWorkflowFixture(api, tenant, {
      nodes: [{ id: 'sub', type: 'subworkflow', config: { workflow_id: foreign } }],
    });
    const run = await runToEnd(api, token, parentId);
    expect(run.status).toBe('failed');
    expect(run.node_states.sub.error.code).toBe('SUBWORKFLOW_NOT_FOUND');
  });
});

describe('starting runs', () => {
  const paramSpec = {
    parameters: [
      { name: 'name', type: 'string', required: true },
      { name: 'size', type: 'integer', default: 3 },
      { name: 'mode', type: 'string', enum: ['fast', 'slow'] },
    ],
    nodes: [transform('a', '$', '${params}')],
  };

  test('parameters are checked (required, type, enum, unknown names) with every problem at once', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, paramSpec);
    const res = await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, {
      token,
      body: { parameters: { size: 'big', mode: 'medium', extra: 1 } },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('INVALID_PARAMETERS');
    const paths = res.body.error.details.map((d: { path: string }) => d.path).sort();
    expect(paths).toEqual(['parameters.extra', 'parameters.mode', 'parameters.name', 'parameters.size']);
    expect(await api.deps.db('workflow_runs').where({ workflow_id: workflowId }).count()).toEqual([{ count: '0' }]);
  });

  test('defaults are applied and stored with the run', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, paramSpec);
    const run = await runToEnd(api, token, workflowId, { name: 'n1' });
    expect(run.parameters).toEqual({ name: 'n1', size: 3 });
    expect(run.results.a).toEqual({ result: { name: 'n1', size: 3 } });
  });

  test('paused and archived workflows refuse runs with 409; draft and active run', async () => {
    for (const status of ['paused', 'archived'] as const) {
      const workflowId = await createWorkflowFixture(api, tenant, { ...paramSpec, status });
      const res = await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, { token, body: { parameters: { name: 'x' } } });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('INVALID_STATE');
    }
    const active = await createWorkflowFixture(api, tenant, { ...paramSpec, status: 'active' });
    expect((await startRun(api, token, active, { name: 'x' })).id).toBeDefined();
  });

  test('an unknown body field is a 400; an unknown workflow a 404', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, paramSpec);
    const bad = await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, { token, body: { parameters: {}, extra: 1 } });
    expect(bad.status).toBe(400);
    const missing = await api.request('POST', `/api/v1/workflows/00000000-0000-4000-8000-000000000000/runs`, { token, body: {} });
    expect(missing.status).toBe(404);
    const notUuid = await api.request('GET', `/api/v1/workflows/nope/runs/also-nope`, { token });
    expect(notUuid.status).toBe(404);
  });
});

describe('listing, roles and tenancy', () => {
  test('lists newest first, filters by status and paginates with a cursor', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, {
      parameters: [{ name: 'ok', type: 'boolean', required: true }],
      nodes: [toolNode('a', 'fail', { mode: '${params.ok ? "never" : "non_retryable"}' })],
    });
    const ids: string[] = [];
    for (const ok of [true, false, true]) ids.push((await runToEnd(api, token, workflowId, { ok })).id);
    const page1 = await api.request('GET', `/api/v1/workflows/${workflowId}/runs?limit=2`, { token });
    expect(page1.status).toBe(200);
    expect(page1.body.data.map((r: { id: string }) => r.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.data[0].node_states).toBeUndefined();
    const page2 = await api.request('GET', `/api/v1/workflows/${workflowId}/runs?limit=2&cursor=${page1.body.nextCursor}`, { token });
    expect(page2.body.data.map((r: { id: string }) => r.id)).toEqual([ids[0]]);
    expect(page2.body.nextCursor).toBeNull();
    const failed = await api.request('GET', `/api/v1/workflows/${workflowId}/runs?status=failed`, { token });
    expect(failed.body.data.map((r: { id: string }) => r.id)).toEqual([ids[1]]);
    const badCursor = await api.request('GET', `/api/v1/workflows/${workflowId}/runs?cursor=zzz`, { token });
    expect(badCursor.status).toBe(400);
    const badStatus = await api.request('GET', `/api/v1/workflows/${workflowId}/runs?status=done`, { token });
    expect(badStatus.status).toBe(400);
  });

  test('viewers read runs but cannot start, cancel or retry them', async () => {
    const workflowId = await createWorkflowFixture(api, tenant, { nodes: [transform('a', '1', null)] });
    const run = await runToEnd(api, token, workflowId);
    const viewer = await addTestMember(api, tenant, 'viewer');
    expect((await api.request('GET', `/api/v1/workflows/${workflowId}/runs/${run.id}`, { token: viewer.token })).status).toBe(200);
    expect((await api.request('GET', `/api/v1/workflows/${workflowId}/runs`, { token: viewer.token })).status).toBe(200);
    const start = await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, { token: viewer.token, body: {} });
    expect(start.status).toBe(403);
    expect((await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${run.id}/retry`, { token: viewer.token })).status).toBe(403);
    const member = await addTestMember(api, tenant, 'member');
    expect((await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, { token: member.token, body: {} })).status).toBe(201);
  });

  test("another organization's workflows and runs answer 404", async () => {
    const workflowId = await createWorkflowFixture(api, tenant, { nodes: [transform('a', '1', null)] });
    const run = await runToEnd(api, token, workflowId);
    const other = await createTestTenant(api);
    const t = other.owner.token;
    expect((await api.request('GET', `/api/v1/workflows/${workflowId}/runs/${run.id}`, { token: t })).status).toBe(404);
    expect((await api.request('GET', `/api/v1/workflows/${workflowId}/runs`, { token: t })).status).toBe(404);
    expect((await api.request('POST', `/api/v1/workflows/${workflowId}/runs`, { token: t, body: {} })).status).toBe(404);
    expect((await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${run.id}/cancel`, { token: t })).status).toBe(404);
    expect((await api.request('POST', `/api/v1/workflows/${workflowId}/runs/${run.id}/retry`, { token: t })).status).toBe(404);
    // the run under another workflow id of the owner's organization is not found either
    const otherWorkflow = await createWorkflowFixture(api, tenant, { nodes: [transform('a', '1', null)] });
    expect((await api.request('GET', `/api/v1/workflows/${otherWorkflow}/runs/${run.id}`, { token })).status).toBe(404);
  });
});
