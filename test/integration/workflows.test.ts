import { randomUUID } from 'node:crypto';
import { createServices } from '../../domain/services';
import { loadWorkflowVersion } from '../../domain/workflows/queries';
import type { TestApi } from '../helpers/stack';
import { addTestMember, createTestTenant, startApiWithTenant, type TestTenant } from '../helpers/tenants';

let api: TestApi;
let tenant: TestTenant;
let token: string;

beforeAll(async () => {
  ({ api, tenant, token } = await startApiWithTenant());
});
afterAll(() => api.close());

const jt = (id: string, expression = '$') => ({ id, type: 'tool', config: { tool: 'json_transform', config: { expression } } });

function simpleWorkflow(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Simple',
    description: 'two steps',
    dag: { nodes: [jt('a'), jt('b')], edges: [{ from: 'a', to: 'b' }] },
    metadata: { tags: ['t1'], category: 'demo', estimatedDuration: 30 },
    parameters: [{ name: 'n', type: 'integer', default: 1 }],
    ...overrides,
  };
}

async function create(body: unknown, as = token) {
  return api.request('POST', '/api/v1/workflows', { token: as, body });
}

describe('create and read', () => {
  test('201 with the spec fields, status draft, version 1, derived entry/exit points', async () => {
    const res = await create(simpleWorkflow());
    expect(res.status).toBe(201);
    const wf = res.body;
    expect(wf).toMatchObject({
      name: 'Simple',
      description: 'two steps',
      organizationID: tenant.organizationId,
      status: 'draft',
      version: 1,
      metadata: { tags: ['t1'], category: 'demo', estimatedDuration: 30 },
      triggers: [],
      parameters: [{ name: 'n', type: 'integer', default: 1, required: false }],
      createdBy: tenant.owner.userId,
    });
    expect(wf.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(wf.dag.entryPoints).toEqual(['a']);
    expect(wf.dag.exitPoints).toEqual(['b']);
    expect(wf.tools.map((t: { id: string }) => t.id)).toEqual(['json_transform']);
    expect(wf.tools[0].input_schema).toBeDefined();
    expect(wf.error_handling.default_strategy).toBe('retry');
    expect(new Date(wf.createdAt).toISOString()).toBe(wf.createdAt);

    const read = await api.request('GET', `/api/v1/workflows/${wf.id}`, { token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(wf);
  });

  test('loadWorkflowVersion gives the compiled workflow, null for other organizations', async () => {
    const wf = (await create(simpleWorkflow())).body;
    const loaded = await loadWorkflowVersion(api.deps.db, tenant.organizationId, wf.id);
    expect(loaded?.workflow).toEqual({ id: wf.id, organizationId: tenant.organizationId, name: 'Simple', status: 'draft', currentVersion: 1 });
    expect(loaded?.compiled.dag.entryPoints).toEqual(['a']);
    expect(loaded?.compiled.version).toBe(1);
    expect(await loadWorkflowVersion(api.deps.db, randomUUID(), wf.id)).toBeNull();
    expect(await loadWorkflowVersion(api.deps.db, tenant.organizationId, wf.id, 2)).toBeNull();
    expect(await loadWorkflowVersion(api.deps.db, tenant.organizationId, 'not-a-uuid')).toBeNull();
  });

  test('a YAML definition document compiles to the same model', async () => {
    const yaml = [
      'name: From YAML',
      'version: "2.1"',
      'metadata: { tags: [yaml] }',
      'parameters:',
      '  - { name: limit, type: number, default: 10 }',
      'nodes:',
      '  - id: first',
      '    type: tool',
      '    tool: json_transform',
      '    inputs: { expression: "$count(x)", data: "${params.limit}" }',
      '  - id: gate',
      '    type: condition',
      '    expression: "first.result > 0"',
      '    true_branch: yes',
      '    depends_on: [first]',
      '  - { id: "yes", type: tool, tool: json_transform, config: { expression: "1" } }',
      'error_handling:',
      '  default_strategy: fail_fast',
    ].join('\n');
    const res = await api.request('POST', '/api/v1/workflows', {
      token,
      rawBody: yaml,
      headers: { 'content-type': 'application/yaml' },
    });
    expect(res.status).toBe(201);
    expect(res.body.metadata).toEqual({ tags: ['yaml'], definitionVersion: '2.1' });
    expect(res.body.dag.nodes[1]).toEqual({ id: 'gate', type: 'condition', config: { expression: 'first.result > 0', trueBranch: 'yes' } });
    expect(res.body.dag.exitPoints).toEqual(['yes']);
    expect(res.body.error_handling.default_strategy).toBe('fail_fast');
  });

  test('422 WORKFLOW_INVALID lists every problem with node and field', async () => {
    const res = await create({
      name: 'Broken',
      dag: {
        nodes: [jt('a'), jt('b'), { id: 'c', type: 'condition', config: { expression: 'a.result >', trueBranch: 'ghost' } }, { id: 'd', type: 'tool', config: { tool: 'teleport' } }],
        edges: [{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }, { from: 'a', to: 'zz' }],
      },
      parameters: [{ name: 'p', type: 'integer', default: 'x' }],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('WORKFLOW_INVALID');
    const paths = res.body.error.details.map((d: { path: string }) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'dag.nodes.a',
        'dag.edges[2].to',
        'dag.nodes.c.config.trueBranch',
        'dag.nodes.c.config.expression',
        'dag.nodes.d.config.tool',
        'parameters[0].default',
      ]),
    );
    expect(res.body.error.details.find((d: { path: string }) => d.path === 'dag.nodes.a').problem).toBe('cycle: a -> b -> a');
  });

  test('hostile input: deep configs and deeply nested expressions answer 4xx, never 500', async () => {
    const body = (depth: number) =>
      `{"name":"deep","dag":{"nodes":[{"id":"a","type":"tool","config":{"tool":"json_transform","config":{"expression":"$","data":${
        '{"a":'.repeat(depth) + '"x"' + '}'.repeat(depth)
      }}}}]}}`;
    const post = (rawBody: string) => api.request('POST', '/api/v1/workflows', { token, rawBody, headers: { 'content-type': 'application/json' } });
    // Past 256 levels the platform's JSON reader refuses the body (400); 200 levels: parsed, then refused by validation.
    for (const depth of [10_000, 1000]) {
      const refused = await post(body(depth));
      expect({ status: refused.status, code: refused.body.error.code }).toEqual({ status: 400, code: 'INVALID_JSON' });
    }
    const res = await post(body(200));
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ path: 'dag.nodes.a.config.config', problem: 'value nested deeper than 64' }]);
    const nested = await create({
      name: 'nested',
      dag: { nodes: [{ id: 'c', type: 'condition', config: { expression: '('.repeat(3000) + '1' + ')'.repeat(3000), trueBranch: 'c2' } }, jt('c2')] },
    });
    expect(nested.status).toBe(422);
  });

  test('a document with problems answers 422 with document paths', async () => {
    const res = await create({ name: 'Doc', nodes: [{ id: 'x', type: 'tool', tool: 'nope' }] });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ path: 'nodes.x.config.tool', problem: 'unknown tool "nope"' }]);
  });

  test('a mistyped tool id or field gets a "did you mean"', async () => {
    const tool = await create({ name: 'Typo', nodes: [{ id: 'x', type: 'tool', tool: 'json_tranform', config: { expression: '$' } }] });
    expect(tool.status).toBe(422);
    expect(tool.body.error.details).toEqual([{ path: 'nodes.x.config.tool', problem: 'unknown tool "json_tranform" (did you mean "json_transform"?)' }]);
    const field = await create({ ...simpleWorkflow(), descripton: 'x' });
    expect(field.status).toBe(400);
    expect(field.body.error.details).toEqual([{ path: 'body.descripton', problem: 'unknown field (did you mean "description"?)' }]);
    expect(field.body.error.request_id).toBe(field.headers.get('x-request-id'));
  });

  test('400 for unknown top-level fields and a missing name; malformed YAML', async () => {
    const res = await create({ ...simpleWorkflow(), colour: 'red' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'body.colour', problem: 'unknown field' }]);
    const noName = await create({ dag: simpleWorkflow().dag });
    expect(noName.status).toBe(400);
    const yaml = await api.request('POST', '/api/v1/workflows', { token, rawBody: 'a: [', headers: { 'content-type': 'application/yaml' } });
    expect(yaml.status).toBe(400);
  });

  test('subworkflows: another organization is refused like an unknown id', async () => {
    const other = await createTestTenant(api);
    const foreign = (await create(simpleWorkflow(), other.owner.token)).body;
    const mine = (await create(simpleWorkflow())).body;
    const res = await create({
      name: 'Parent',
      dag: {
        nodes: [
          { id: 'ok', type: 'subworkflow', config: { workflow_id: mine.id } },
          { id: 'theirs', type: 'subworkflow', config: { workflow_id: foreign.id } },
        ],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      { path: 'dag.nodes.theirs.config.workflow_id', problem: `no workflow ${foreign.id} in this organization` },
    ]);
  });

  test('subworkflows: inputs are checked against the child\'s declared parameters at save time (422 naming the input)', async () => {
    const child = (
      await create(simpleWorkflow({ name: 'typed child', parameters: [{ name: 'count', type: 'integer', required: true }, { name: 'n', type: 'integer', default: 1 }] }))
    ).body;
    const call = (inputs: Record<string, unknown>) =>
      create({ name: 'caller', parameters: [{ name: 'x', type: 'integer', default: 2 }], dag: { nodes: [{ id: 's', type: 'subworkflow', config: { workflow_id: child.id, inputs } }] } });
    const res = await call({ count: 'many', colour: 'red' });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      { path: 'dag.nodes.s.config.inputs.count', problem: `parameter count of workflow ${child.id} must be of type integer` },
      { path: 'dag.nodes.s.config.inputs.colour', problem: `workflow ${child.id} declares no parameter colour (declared: count, n)` },
    ]);
    const missing = await call({ n: 3 });
    expect(missing.status).toBe(422);
    expect(missing.body.error.details).toEqual([
      { path: 'dag.nodes.s.config.inputs', problem: `required parameter count of workflow ${child.id} is missing` },
    ]);
    // a template is checked when the run renders it
    expect((await call({ count: '${params.x}' })).status).toBe(201);
  });

  test('subworkflows: a cycle through subworkflows is refused on update', async () => {
    const child = (await create(simpleWorkflow({ name: 'child' }))).body;
    const parent = (await create({ name: 'parent', dag: { nodes: [{ id: 's', type: 'subworkflow', config: { workflow_id: child.id } }] } })).body;
    expect(parent.id).toBeDefined();
    const res = await api.request('PUT', `/api/v1/workflows/${child.id}`, {
      token,
      body: { dag: { nodes: [{ id: 'back', type: 'subworkflow', config: { workflow_id: parent.id } }] } },
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details[0]).toEqual({
      path: 'dag.nodes.back.config.workflow_id',
      problem: `subworkflow cycle: ${child.id} -> ${parent.id} -> ${child.id}`,
    });
  });
});

describe('list', () => {
  test('filters by status, tag and category; paginates newest first', async () => {
    const t = await createTestTenant(api);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const body = simpleWorkflow({ name: `wf${i}`, metadata: { tags: i % 2 ? ['odd'] : ['even'], category: i < 2 ? 'low' : 'high' } });
      ids.push((await create(body, t.owner.token)).body.id);
    }
    await api.request('POST', `/api/v1/workflows/${ids[4]}/activate`, { token: t.owner.token });

    const page1 = await api.request('GET', '/api/v1/workflows?limit=2', { token: t.owner.token });
    expect(page1.status).toBe(200);
    expect(page1.body.data.map((w: { id: string }) => w.id)).toEqual([ids[4], ids[3]]);
    const page2 = await api.request('GET', `/api/v1/workflows?limit=2&cursor=${page1.body.nextCursor}`, { token: t.owner.token });
    const page3 = await api.request('GET', `/api/v1/workflows?limit=2&cursor=${page2.body.nextCursor}`, { token: t.owner.token });
    expect(page2.body.data.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[1]]);
    expect(page3.body.data.map((w: { id: string }) => w.id)).toEqual([ids[0]]);
    expect(page3.body.nextCursor).toBeNull();

    const ofTag = await api.request('GET', '/api/v1/workflows?tag=odd', { token: t.owner.token });
    expect(ofTag.body.data.map((w: { id: string }) => w.id)).toEqual([ids[3], ids[1]]);
    const ofCategory = await api.request('GET', '/api/v1/workflows?category=low', { token: t.owner.token });
    expect(ofCategory.body.data.map((w: { id: string }) => w.id)).toEqual([ids[1], ids[0]]);
    const active = await api.request('GET', '/api/v1/workflows?status=active', { token: t.owner.token });
    expect(active.body.data.map((w: { id: string }) => w.id)).toEqual([ids[4]]);
    const bad = await api.request('GET', '/api/v1/workflows?cursor=garbage', { token: t.owner.token });
    expect(bad.status).toBe(400);
  });
});

describe('update and versions', () => {
  test('graph changes add a version; metadata-only edits do not; old versions stay readable', async () => {
    const wf = (await create(simpleWorkflow())).body;
    const meta = await api.request('PUT', `/api/v1/workflows/${wf.id}`, {
      token,
      body: { name: 'Renamed', metadata: { tags: ['new'] } },
    });
    expect(meta.status).toBe(200);
    expect(meta.body).toMatchObject({ name: 'Renamed', version: 1, metadata: { tags: ['new'] } });

    const same = await api.request('PUT', `/api/v1/workflows/${wf.id}`, { token, body: { dag: wf.dag } });
    expect(same.body.version).toBe(1);

    const changed = await api.request('PUT', `/api/v1/workflows/${wf.id}`, {
      token,
      body: { dag: { nodes: [jt('a'), jt('b'), jt('c')], edges: [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }] } },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.version).toBe(2);
    expect(changed.body.dag.exitPoints).toEqual(['c']);
    expect(changed.body.parameters).toEqual(wf.parameters);

    const triggers = await api.request('PUT', `/api/v1/workflows/${wf.id}`, {
      token,
      body: { triggers: [{ type: 'schedule', config: { cron: '0 * * * *', timezone: 'UTC' } }] },
    });
    expect(triggers.body.version).toBe(3);

    const versions = await api.request('GET', `/api/v1/workflows/${wf.id}/versions?limit=2`, { token });
    expect(versions.body.data.map((v: { version: number }) => v.version)).toEqual([3, 2]);
    const rest = await api.request('GET', `/api/v1/workflows/${wf.id}/versions?limit=2&cursor=${versions.body.nextCursor}`, { token });
    expect(rest.body.data.map((v: { version: number }) => v.version)).toEqual([1]);
    expect(rest.body.nextCursor).toBeNull();

    const v1 = await api.request('GET', `/api/v1/workflows/${wf.id}/versions/1`, { token });
    expect(v1.status).toBe(200);
    expect(v1.body.dag.nodes.map((n: { id: string }) => n.id)).toEqual(['a', 'b']);
    expect((await api.request('GET', `/api/v1/workflows/${wf.id}/versions/9`, { token })).status).toBe(404);

    const invalid = await api.request('PUT', `/api/v1/workflows/${wf.id}`, { token, body: { dag: { nodes: [] } } });
    expect(invalid.status).toBe(422);
  });
});

describe('status transitions', () => {
  test('draft -> active <-> paused -> archived (final, read-only); others 409', async () => {
    const wf = (await create(simpleWorkflow())).body;
    const post = (action: string) => api.request('POST', `/api/v1/workflows/${wf.id}/${action}`, { token });
    expect((await post('pause')).status).toBe(409);
    expect((await post('activate')).body.status).toBe('active');
    expect((await post('activate')).status).toBe(409);
    expect((await post('pause')).body.status).toBe('paused');
    expect((await post('activate')).body.status).toBe('active');
    expect((await post('archive')).body.status).toBe('archived');
    const again = await post('activate');
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('INVALID_STATE');
    const edit = await api.request('PUT', `/api/v1/workflows/${wf.id}`, { token, body: { name: 'x' } });
    expect(edit.status).toBe(409);
    expect((await post('archive')).status).toBe(409);
  });

  test('listeners hear status changes', async () => {
    const heard: string[] = [];
    const services = createServices(api.deps, { admitRunStarts: false });
    services.workflowListeners.onStatusChange.push(async (e) => {
      heard.push(`${e.from}->${e.to}@${e.version}`);
    });
    services.workflowListeners.onStatusChange.push(async () => {
      throw new Error('a failing listener does not undo the change');
    });
    const wf = (await create(simpleWorkflow())).body;
    const actor = {
      role: 'owner' as const,
      userId: tenant.owner.userId,
      audit: { type: 'user' as const, id: tenant.owner.userId, ip: '127.0.0.1', userAgent: null },
    };
    await services.workflows.transition(tenant.organizationId, actor, wf.id, 'active');
    expect(heard).toEqual(['draft->active@1']);
    expect((await services.workflows.get(tenant.organizationId, wf.id)).status).toBe('active');
    await services.close();
  });
});

describe('delete, roles and tenancy', () => {
  test('delete removes the workflow and its versions', async () => {
    const wf = (await create(simpleWorkflow())).body;
    const del = await api.request('DELETE', `/api/v1/workflows/${wf.id}`, { token });
    expect(del.status).toBe(204);
    expect((await api.request('GET', `/api/v1/workflows/${wf.id}`, { token })).status).toBe(404);
    expect(await api.deps.db('workflow_versions').where({ workflow_id: wf.id }).count().first()).toEqual({ count: '0' });
  });

  test('delete is refused while a run is open', async () => {
    const wf = (await create(simpleWorkflow())).body;
    const runId = randomUUID();
    await api.deps.db('workflow_runs').insert({ id: runId, organization_id: tenant.organizationId, workflow_id: wf.id, workflow_version: 1, status: 'running' });
    const refused = await api.request('DELETE', `/api/v1/workflows/${wf.id}`, { token });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('INVALID_STATE');
    await api.deps.db('workflow_runs').where({ id: runId }).update({ status: 'completed' });
    expect((await api.request('DELETE', `/api/v1/workflows/${wf.id}`, { token })).status).toBe(204);
  });

  test('viewer reads only; member manages own workflows; admin manages all', async () => {
    const t = await createTestTenant(api);
    const viewer = await addTestMember(api, t, 'viewer');
    const member = await addTestMember(api, t, 'member');
    const member2 = await addTestMember(api, t, 'member');
    const admin = await addTestMember(api, t, 'admin');

    const byOwner = (await create(simpleWorkflow(), t.owner.token)).body;
    expect((await create(simpleWorkflow(), viewer.token)).status).toBe(403);
    expect((await api.request('GET', `/api/v1/workflows/${byOwner.id}`, { token: viewer.token })).status).toBe(200);
    expect((await api.request('GET', '/api/v1/tools', { token: viewer.token })).status).toBe(200);
    expect((await api.request('POST', `/api/v1/workflows/${byOwner.id}/activate`, { token: viewer.token })).status).toBe(403);

    const byMember = await create(simpleWorkflow(), member.token);
    expect(byMember.status).toBe(201);
    const id = byMember.body.id;
    expect((await api.request('PUT', `/api/v1/workflows/${id}`, { token: member.token, body: { name: 'mine' } })).status).toBe(200);
    const notMine = await api.request('PUT', `/api/v1/workflows/${id}`, { token: member2.token, body: { name: 'theirs' } });
    expect(notMine.status).toBe(403);
    expect((await api.request('PUT', `/api/v1/workflows/${byOwner.id}`, { token: member.token, body: { name: 'x' } })).status).toBe(403);
    expect((await api.request('DELETE', `/api/v1/workflows/${id}`, { token: member2.token })).status).toBe(403);
    expect((await api.request('POST', `/api/v1/workflows/${id}/activate`, { token: admin.token })).status).toBe(200);
    expect((await api.request('DELETE', `/api/v1/workflows/${id}`, { token: member.token })).status).toBe(204);
  });

  test("another tenant's workflow is a 404 everywhere", async () => {
    const wf = (await create(simpleWorkflow())).body;
    const other = await createTestTenant(api);
    const as = other.owner.token;
    for (const [method, path, body] of [
      ['GET', `/api/v1/workflows/${wf.id}`],
      ['PUT', `/api/v1/workflows/${wf.id}`, { name: 'x' }],
      ['DELETE', `/api/v1/workflows/${wf.id}`],
      ['POST', `/api/v1/workflows/${wf.id}/activate`],
      ['GET', `/api/v1/workflows/${wf.id}/versions`],
      ['GET', `/api/v1/workflows/${wf.id}/versions/1`],
    ] as const) {
      const res = await api.request(method, path, { token: as, body });
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    const list = await api.request('GET', '/api/v1/workflows', { token: as });
    expect(list.body.data.map((w: { id: string }) => w.id)).not.toContain(wf.id);
    expect((await api.request('GET', '/api/v1/workflows/not-a-uuid', { token })).status).toBe(404);
  });
});

describe('GET /api/v1/tools', () => {
  test('lists every tool with schemas; filters by category', async () => {
    const res = await api.request('GET', '/api/v1/tools', { token });
    expect(res.status).toBe(200);
    const ids = res.body.data.map((t: { id: string }) => t.id);
    expect(ids).toEqual(expect.arrayContaining(['json_transform', 'delay', 'fail']));
    const jtTool = res.body.data.find((t: { id: string }) => t.id === 'json_transform');
    expect(jtTool).toMatchObject({ name: 'JSON transform', category: 'data', input_schema: { type: 'object' }, output_schema: { type: 'object' } });
    const data = await api.request('GET', '/api/v1/tools?category=data', { token });
    expect(data.body.data.every((t: { category: string }) => t.category === 'data')).toBe(true);
    expect((await api.request('GET', '/api/v1/tools')).status).toBe(401);
  });
});

describe('dry run: POST /api/v1/workflows/validate', () => {
  const validate = (body: unknown, query = '', as = token) => api.request('POST', `/api/v1/workflows/validate${query}`, { token: as, body });
  const workflowCount = async () => Number((await api.deps.db('workflows').where({ organization_id: tenant.organizationId }).count<{ count: string }[]>('* as count'))[0]!.count);

  test('a valid body answers the definition a save would store, and stores nothing', async () => {
    const before = await workflowCount();
    const res = await validate(simpleWorkflow());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ valid: true, name: 'Simple', dag: { entryPoints: ['a'], exitPoints: ['b'] } });
    expect(res.body.tools.map((t: { id: string }) => t.id)).toEqual(['json_transform']);
    expect(await workflowCount()).toBe(before);
  });

  test('problems answer exactly what the save would answer', async () => {
    const body = { name: 'Bad', dag: { nodes: [jt('a'), jt('b')], edges: [{ from: 'a', to: 'nowhere' }] } };
    const dry = await validate(body);
    const saved = await create(body);
    expect(dry.status).toBe(422);
    expect(saved.status).toBe(422);
    expect(dry.body.error.details).toEqual(saved.body.error.details);
    expect((await validate({ dag: simpleWorkflow().dag })).status).toBe(400); // a create needs a name
  });

  test('as an update of a workflow: given fields replace, the rest is kept; another tenant\'s id is 404', async () => {
    const wf = (await create(simpleWorkflow())).body;
    const res = await validate({ dag: { nodes: [jt('only')] } }, `?workflow_id=${wf.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: null, dag: { entryPoints: ['only'] }, parameters: [{ name: 'n' }] });
    expect((await api.request('GET', `/api/v1/workflows/${wf.id}`, { token })).body.version).toBe(1);
    const other = await createTestTenant(api);
    expect((await validate({ dag: { nodes: [jt('x')] } }, `?workflow_id=${wf.id}`, other.owner.token)).status).toBe(404);
    // Nor can a dry run call another tenant's workflow as a subworkflow.
    const foreign = await validate({ name: 'p', dag: { nodes: [{ id: 's', type: 'subworkflow', config: { workflow_id: wf.id } }] } }, '', other.owner.token);
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.details).toEqual([{ path: 'dag.nodes.s.config.workflow_id', problem: `no workflow ${wf.id} in this organization` }]);
  });

  test('viewers may not validate (it is a write check), and the route needs a session', async () => {
    const viewer = await addTestMember(api, tenant, 'viewer');
    expect((await validate(simpleWorkflow(), '', viewer.token)).status).toBe(403);
    expect((await api.request('POST', '/api/v1/workflows/validate', { body: simpleWorkflow() })).status).toBe(401);
  });
});
