import { validateDefinition, unwrapTemplate, type DefinitionInput } from '../../../lib/dag/validate';
import { loadSubworkflowGraph, subworkflowIdsOf, subworkflowProblems } from '../../../lib/dag/subworkflows';
import { validationEnv } from '../../../domain/workflows/validationEnv';

const tool = (id: string, t: string, config: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  id,
  type: 'tool',
  config: { tool: t, config, ...extra },
});
const jt = (id: string, expression = '$', extra: Record<string, unknown> = {}) =>
  tool(id, 'json_transform', { expression }, extra);

function problemsOf(input: DefinitionInput): { path: string; problem: string }[] {
  const r = validateDefinition(input, validationEnv);
  return r.ok ? [] : r.problems;
}

function expectProblem(input: DefinitionInput, path: string, problem: RegExp | string): void {
  const problems = problemsOf(input);
  const match = problems.find((p) => p.path === path && (typeof problem === 'string' ? p.problem === problem : problem.test(p.problem)));
  if (!match) throw new Error(`expected ${path}: ${problem}; got ${JSON.stringify(problems, null, 1)}`);
}

describe('validateDefinition: a valid workflow', () => {
  test('compiles with derived entry and exit points and the tools it uses', () => {
    const r = validateDefinition(
      {
        dag: {
          nodes: [
            jt('fetch'),
            { id: 'check', type: 'condition', config: { expression: 'fetch.result > params.limit', trueBranch: 'big', falseBranch: 'small' } },
            jt('big', '$', { inputs: [{ from: 'fetch.result', name: 'data' }] }),
            tool('small', 'json_transform', { expression: '${"$count(" + string(params.limit) + ")"}' }),
            { id: 'each', type: 'loop', config: { items: 'params.list', template: { type: 'tool', config: { tool: 'json_transform', config: { expression: '$', data: '${item} #${item_index}' } } } } },
          ],
          edges: [
            { from: 'fetch', to: 'check' },
            { from: 'big', to: 'each' },
            { from: 'small', to: 'each' },
          ],
        },
        parameters: [
          { name: 'limit', type: 'integer', default: 5 },
          { name: 'list', type: 'array', default: [] },
        ],
        tools: ['delay'],
        errorHandling: { default_strategy: 'retry', node_overrides: { big: { strategy: 'fallback', handler: 'small' } } },
      },
      validationEnv,
    );
    if (!r.ok) throw new Error(JSON.stringify(r.problems));
    expect(r.definition.dag.entryPoints).toEqual(['fetch']);
    expect(r.definition.dag.exitPoints).toEqual(['each']);
    expect(r.definition.tools).toEqual(['delay', 'json_transform']);
    expect(r.definition.errorHandling.retry_config).toBeUndefined();
    expect(r.definition.dag.nodes[4]!.config).toMatchObject({ items: 'params.list' });
  });

  test('unwrapTemplate accepts ${...} around a condition', () => {
    expect(unwrapTemplate(' ${a > 1} ')).toBe('a > 1');
    expect(unwrapTemplate('${a} + ${b}')).toBe('${a} + ${b}');
  });
});

describe('validateDefinition: every problem, at once, naming node and field', () => {
  test('a cycle is named', () => {
    expectProblem(
      { dag: { nodes: [jt('a'), jt('b'), jt('c')], edges: [{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'b' }] } },
      'dag.nodes.b',
      'cycle: b -> c -> b',
    );
  });

  test('a cycle through a condition branch', () => {
    expectProblem(
      { dag: { nodes: [jt('a'), { id: 'c', type: 'condition', config: { expression: 'true', trueBranch: 'a' } }], edges: [{ from: 'a', to: 'c' }] } },
      'dag.nodes.a',
      'cycle: a -> c -> a',
    );
  });

  test('edges to unknown nodes, duplicate ids and duplicate edges', () => {
    const input = {
      dag: {
        nodes: [jt('a'), jt('a'), jt('b')],
        edges: [{ from: 'a', to: 'zz' }, { from: 'yy', to: 'b' }, { from: 'a', to: 'b' }, { from: 'a', to: 'b' }],
      },
    };
    expectProblem(input, 'dag.edges[0].to', 'unknown node "zz"');
    expectProblem(input, 'dag.edges[1].from', 'unknown node "yy"');
    expectProblem(input, 'dag.nodes.a.id', 'duplicate node id "a"');
    expectProblem(input, 'dag.edges[3]', 'duplicate edge a -> b');
  });

  test('entry and exit points: unknown, with predecessors, missing ones, none derivable', () => {
    const input = {
      dag: { nodes: [jt('a'), jt('b'), jt('c')], edges: [{ from: 'a', to: 'b' }], entryPoints: ['b', 'zz'], exitPoints: ['nope'] },
    };
    expectProblem(input, 'dag.entryPoints[0]', '"b" has predecessors (a)');
    expectProblem(input, 'dag.entryPoints[1]', 'unknown node "zz"');
    expectProblem(input, 'dag.entryPoints', '"a" has no predecessors but is not an entry point');
    expectProblem(input, 'dag.exitPoints[0]', 'unknown node "nope"');
    expectProblem(
      { dag: { nodes: [jt('a'), jt('b')], edges: [{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }] } },
      'dag.entryPoints',
      /no entry point/,
    );
  });

  test('condition branches that are not nodes, missing branches, bad CEL', () => {
    const input = {
      dag: {
        nodes: [
          { id: 'c', type: 'condition', config: { expression: 'x >', trueBranch: 'ghost' } },
          { id: 'd', type: 'condition', config: { expression: 'a.constructor' } },
        ],
      },
    };
    expectProblem(input, 'dag.nodes.c.config.trueBranch', '"ghost" is not a node of the graph');
    expectProblem(input, 'dag.nodes.c.config.expression', /^invalid expression/);
    expectProblem(input, 'dag.nodes.d.config', /needs trueBranch, falseBranch/);
    expectProblem(input, 'dag.nodes.d.config.expression', /constructor/);
  });

  test('parallel: unknown branch nodes, a node in two branches, wait_n without n or with too large n', () => {
    const input = {
      dag: {
        nodes: [
          { id: 'p', type: 'parallel', config: { branches: [{ id: 'x', nodes: ['a', 'ghost'] }, { id: 'y', nodes: ['a'] }], joinStrategy: 'wait_n' } },
          { id: 'q', type: 'parallel', config: { branches: [{ id: 'x', nodes: ['b'] }], joinStrategy: 'wait_n', n: 2 } },
          jt('a'),
          jt('b'),
        ],
      },
    };
    expectProblem(input, 'dag.nodes.p.config.branches[0].nodes[1]', 'unknown node "ghost"');
    expectProblem(input, 'dag.nodes.p.config.branches[1].nodes[0]', '"a" is already a branch node of "p"');
    expectProblem(input, 'dag.nodes.p.config.n', 'required for joinStrategy wait_n');
    expectProblem(input, 'dag.nodes.q.config.n', 'n (2) exceeds the 1 branches');
  });

  test('unknown tools, in nodes, loop templates and the tools list', () => {
    const input = {
      dag: {
        nodes: [
          tool('a', 'teleport'),
          { id: 'l', type: 'loop', config: { items: '${[1]}', template: { type: 'tool', config: { tool: 'warp' } } } },
        ],
      },
      tools: ['json_transform', 'nope', 3],
    };
    expectProblem(input, 'dag.nodes.a.config.tool', 'unknown tool "teleport"');
    expectProblem(input, 'dag.nodes.l.config.template.config.tool', 'unknown tool "warp"');
    expectProblem(input, 'tools[1]', 'unknown tool "nope"');
    expectProblem(input, 'tools[2]', /tool id/);
  });

  test('tool config against the input schema, unless templates or bindings fill the field', () => {
    const input = {
      dag: {
        nodes: [
          tool('a', 'json_transform', { expression: 5, extra: true }),
          tool('b', 'http_request', {}),
          tool('c', 'http_request', { url: '${params.e}' }),
          tool('d', 'http_request', {}, { inputs: [{ from: 'params.e', name: 'url' }] }),
          tool('e', 'json_transform', {}), // no expression: the identity
        ],
      },
      parameters: [{ name: 'e', type: 'string' }],
    };
    expectProblem(input, 'dag.nodes.a.config.config.expression', 'must be string');
    expectProblem(input, 'dag.nodes.a.config.config.extra', 'unknown property');
    expectProblem(input, 'dag.nodes.b.config.config.url', 'required: the http_request tool needs "url"; for example {"url":"https://api.example.com/items"}');
    const paths = problemsOf(input).map((p) => p.path);
    expect(paths.some((p) => p.startsWith('dag.nodes.c.'))).toBe(false);
    expect(paths.some((p) => p.startsWith('dag.nodes.d.'))).toBe(false);
    expect(paths.some((p) => p.startsWith('dag.nodes.e.'))).toBe(false);
  });

  test('from references: unknown node, not an ancestor, undeclared output, unknown parameter, self, malformed', () => {
    const input = {
      dag: {
        nodes: [
          jt('a'),
          jt('b', '$', { inputs: [{ from: 'a.result' }, { from: 'c.result' }, { from: 'a.nope' }, { from: 'ghost.x' }, { from: 'params.missing' }, { from: 'b.result' }] }),
          jt('c'),
          { id: 'd', type: 'tool', config: { tool: 'json_transform', config: { expression: '$' } }, inputs: [{ from: 'bad ref' }] },
        ],
        edges: [{ from: 'a', to: 'b' }],
      },
    };
    const paths = problemsOf(input).filter((p) => p.path.startsWith('dag.nodes.b.'));
    expect(paths.map((p) => p.path)).not.toContain('dag.nodes.b.config.inputs[0].from');
    expectProblem(input, 'dag.nodes.b.config.inputs[1].from', /"c" is not an ancestor of "b"/);
    expectProblem(input, 'dag.nodes.b.config.inputs[2].from', 'node "a" does not declare output "nope" (it has: result)');
    expectProblem(input, 'dag.nodes.b.config.inputs[3].from', 'unknown node "ghost"');
    expectProblem(input, 'dag.nodes.b.config.inputs[4].from', 'unknown parameter "missing"');
    expectProblem(input, 'dag.nodes.b.config.inputs[5].from', 'node "b" cannot reference its own output');
    expectProblem(input, 'dag.nodes.d.inputs[0].from', /references look like/);
  });

  test('template references get the same checks', () => {
    const input = {
      dag: {
        nodes: [jt('a'), tool('b', 'json_transform', { expression: '$', data: '${a.nope} ${nodes.c.result} ${params.zz} ${who}' }), jt('c')],
        edges: [{ from: 'a', to: 'b' }],
      },
    };
    expectProblem(input, 'dag.nodes.b.config.config.data', 'node "a" does not declare output "nope" (it has: result)');
    expectProblem(input, 'dag.nodes.b.config.config.data', /"c" is not an ancestor/);
    expectProblem(input, 'dag.nodes.b.config.config.data', 'unknown parameter "zz"');
    expectProblem(input, 'dag.nodes.b.config.config.data', /unknown name "who"/);
    expectProblem({ dag: { nodes: [tool('b', 'json_transform', { expression: '${a.constructor}' })] } }, 'dag.nodes.b.config.config.expression', /constructor/);
  });

  test('implicit outputs of conditions, loops, parallel and subworkflow nodes', () => {
    const sub = '00000000-0000-4000-8000-00000000000a';
    const input = {
      dag: {
        nodes: [
          { id: 'c', type: 'condition', config: { expression: 'true', trueBranch: 't' } },
          { id: 'l', type: 'loop', config: { items: '${[1]}', template: { type: 'tool', config: { tool: 'json_transform', config: { expression: '$' } } } } },
          { id: 's', type: 'subworkflow', config: { workflow_id: sub } },
          { id: 'p', type: 'parallel', config: { branches: [{ id: 'b', nodes: ['pa'] }] } },
          jt('pa'),
          tool('t', 'json_transform', { expression: '$', data: '${c.branch} ${l.results} ${l.count} ${s.anything} ${p.branches}' }),
          tool('u', 'json_transform', { expression: '$', data: '${l.nope}' }),
        ],
        edges: [{ from: 'l', to: 't' }, { from: 's', to: 't' }, { from: 'p', to: 't' }, { from: 'l', to: 'u' }],
      },
    };
    const problems = problemsOf(input);
    expect(problems.filter((p) => p.path.startsWith('dag.nodes.t.'))).toEqual([]);
    expectProblem(input, 'dag.nodes.u.config.config.data', 'node "l" does not declare output "nope" (it has: results, count)');
  });

  test('loops: items not a list reference, not a list, bad iterator, bad template', () => {
    const loop = (id: string, config: Record<string, unknown>) => ({ id, type: 'loop', config: { template: { type: 'tool', config: { tool: 'json_transform', config: { expression: '$' } } }, ...config } });
    const input = {
      dag: {
        nodes: [
          loop('l1', { items: 'just text' }),
          loop('l2', { items: 'params.n' }),
          loop('l3', { items: 'params.list', iterator: 'params' }),
          { id: 'l4', type: 'loop', config: { items: 'params.list', template: { type: 'condition', config: {} } } },
          loop('l5', { items: 'params.list', template: { type: 'tool', config: { tool: 'json_transform', config: { expression: '${other.x}' } } } }),
        ],
      },
      parameters: [{ name: 'n', type: 'integer' }, { name: 'list', type: 'array' }],
    };
    expectProblem(input, 'dag.nodes.l1.config.items', /must be a reference to a list/);
    expectProblem(input, 'dag.nodes.l2.config.items', '"params.n" is of type integer, not a list');
    expectProblem(input, 'dag.nodes.l3.config.iterator', /reserved/);
    expectProblem(input, 'dag.nodes.l4.config.template.type', /Invalid option/);
    expectProblem(input, 'dag.nodes.l5.config.template.config.config.expression', /unknown name "other"/);
  });

  test('bad parameter declarations and reserved node ids', () => {
    const input = { dag: { nodes: [jt('params')] }, parameters: [{ name: 'x', type: 'integer', default: 'no' }] };
    expectProblem(input, 'parameters[0].default', 'default "no" is not of type integer');
    expectProblem(input, 'dag.nodes.params.id', /reserved/);
  });

  test('error handling: unknown override nodes, fallback without or with a bad handler', () => {
    const input = {
      dag: { nodes: [jt('a'), jt('b')] },
      errorHandling: {
        default_strategy: 'fallback',
        node_overrides: {
          ghost: { strategy: 'retry' },
          a: { strategy: 'fallback' },
          b: { strategy: 'fallback', handler: 'nothing' },
        },
      },
    };
    expectProblem(input, 'error_handling.node_overrides.ghost', 'unknown node "ghost"');
    expectProblem(input, 'error_handling.node_overrides.a.handler', 'required for the fallback strategy');
    expectProblem(input, 'error_handling.node_overrides.b.handler', '"nothing" is neither a node nor a tool');
    expectProblem(input, 'error_handling.default_strategy', /needs a handler per node/);
    expectProblem({ dag: { nodes: [jt('a')] }, errorHandling: { default_strategy: 'sometimes' } }, 'error_handling.default_strategy', /Invalid option/);
  });

  test('shape problems of single nodes do not hide the others', () => {
    const problems = problemsOf({
      dag: { nodes: [{ id: 'a', type: 'rocket', config: {} }, { id: 'b', type: 'tool', config: { tool: 'nope' } }, { type: 'tool' }], edges: [{ from: 'a', to: 'b' }], extra: 1 },
    });
    const paths = problems.map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining(['dag.nodes.a.type', 'dag.nodes.b.config.tool', 'dag.nodes[2].id', 'dag.extra']));
    expect(paths).not.toContain('dag.edges[0].from');
  });

  test('a 10,000-deep tool config is a bounded problem, not a crash', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    const problems = problemsOf({ dag: { nodes: [tool('a', 'json_transform', { expression: '$', data: deep })] } });
    expect(problems).toEqual([{ path: 'dag.nodes.a.config.config', problem: 'value nested deeper than 64' }]);
  });

  test('missing dag, empty nodes, triggers', () => {
    expectProblem({ dag: undefined }, 'dag', /required/);
    expectProblem({ dag: { nodes: [] } }, 'dag.nodes', 'at least one node is required');
    expectProblem({ dag: { nodes: [jt('a')] }, triggers: [{ type: 'schedule', config: {} }] }, 'triggers[0].config.cron', 'required');
  });
});

describe('subworkflows', () => {
  const org = 'org-1';
  const A = '00000000-0000-4000-8000-00000000000a';
  const B = '00000000-0000-4000-8000-00000000000b';
  const C = '00000000-0000-4000-8000-00000000000c';
  const X = '00000000-0000-4000-8000-0000000000ff';
  const db = new Map([
    [A, { id: A, organizationId: org, subworkflowIds: [B] }],
    [B, { id: B, organizationId: org, subworkflowIds: [C] }],
    [C, { id: C, organizationId: org, subworkflowIds: [] }],
    [X, { id: X, organizationId: 'other', subworkflowIds: [] }],
  ]);
  const lookup = async (ids: string[]) => ids.flatMap((id) => (db.has(id) ? [db.get(id)!] : []));

  test('validation reports the references to resolve', () => {
    const r = validateDefinition(
      {
        dag: {
          nodes: [
            { id: 's', type: 'subworkflow', config: { workflow_id: A, inputs: { q: '${params.q}' } } },
            { id: 'l', type: 'loop', config: { items: '${[1, 2]}', template: { type: 'subworkflow', config: { workflow_id: B } } } },
          ],
        },
        parameters: [{ name: 'q', type: 'string' }],
      },
      validationEnv,
    );
    expect(r.subworkflows).toEqual([
      {
        path: 'dag.nodes.s.config.workflow_id',
        workflowId: A,
        inputs: { path: 'dag.nodes.s.config.inputs', values: { q: '${params.q}' }, inheritContext: false },
      },
      {
        path: 'dag.nodes.l.config.template.config.workflow_id',
        workflowId: B,
        inputs: { path: 'dag.nodes.l.config.template.config.inputs', values: {}, inheritContext: false },
      },
    ]);
    expect(r.ok && subworkflowIdsOf(r.definition)).toEqual([A, B]);
  });

  test('another organization, unknown ids, direct and indirect cycles', async () => {
    const graph = await loadSubworkflowGraph([A, X, '00000000-0000-4000-8000-000000000999'], lookup);
    expect([...graph.keys()].sort()).toEqual([A, B, C, X].sort());
    const refs = [
      { path: 'p1', workflowId: A },
      { path: 'p2', workflowId: X },
      { path: 'p3', workflowId: '00000000-0000-4000-8000-000000000999' },
      { path: 'p4', workflowId: C },
    ];
    // Saving C, which A -> B -> C already uses: C -> A closes the loop.
    expect(subworkflowProblems({ id: C, organizationId: org }, refs, graph)).toEqual([
      { path: 'p1', problem: `subworkflow cycle: ${C} -> ${A} -> ${B} -> ${C}` },
      { path: 'p2', problem: `no workflow ${X} in this organization` },
      { path: 'p3', problem: 'no workflow 00000000-0000-4000-8000-000000000999 in this organization' },
      { path: 'p4', problem: `subworkflow cycle: ${C} -> ${C}` },
    ]);
    expect(subworkflowProblems({ id: null, organizationId: org }, [{ path: 'p', workflowId: A }], graph)).toEqual([]);
  });

  test('a call\'s inputs are checked against the parameters the child declares', () => {
    const child = '00000000-0000-4000-8000-00000000000c';
    const graph = new Map([
      [
        child,
        {
          id: child,
          organizationId: org,
          subworkflowIds: [],
          parameters: [
            { name: 'count', type: 'integer' as const, required: true },
            { name: 'mode', type: 'string' as const, required: true, enum: ['a', 'b'] },
            { name: 'label', type: 'string' as const, required: true, default: 'x' },
          ],
        },
      ],
    ]);
    const call = (values: Record<string, unknown>, inheritContext = false) =>
      subworkflowProblems({ id: null, organizationId: org }, [{ path: 'n.workflow_id', workflowId: child, inputs: { path: 'n.inputs', values, inheritContext } }], graph);
    expect(call({ count: 3, mode: 'a' })).toEqual([]);
    // templates are checked when the run renders them; a default makes a required parameter optional
    expect(call({ count: '${params.n}', mode: '${params.m}' })).toEqual([]);
    expect(call({ count: 'three', mode: 'c', colour: 'red' })).toEqual([
      { path: 'n.inputs.count', problem: `parameter count of workflow ${child} must be of type integer` },
      { path: 'n.inputs.mode', problem: `parameter mode of workflow ${child} must be one of its enum values` },
      { path: 'n.inputs.colour', problem: `workflow ${child} declares no parameter colour (declared: count, mode, label)` },
    ]);
    expect(call({ count: 1 })).toEqual([{ path: 'n.inputs', problem: `required parameter mode of workflow ${child} is missing` }]);
    // inherit_context may pass it from the parent's parameters
    expect(call({ count: 1 }, true)).toEqual([]);
  });
});

describe('validateDefinition: a CEL syntax error is listed once', () => {
  // The syntax check of a bare CEL expression and the check of the names it uses both read it; the names are only
  // checked once it parses, so the same error is not listed again in its template form ("${...}: invalid ...").
  const node = (id: string, type: string, config: Record<string, unknown>) => ({ id, type, config });
  const repeatTemplate = { type: 'tool', config: { tool: 'json_transform', config: { expression: '$' } } };
  test.each([
    ['condition', node('n', 'condition', { expression: 'a.result >', trueBranch: 'a2' }), 'dag.nodes.n.config.expression'],
    ['condition written as ${...}', node('n', 'condition', { expression: '${a.result == }', trueBranch: 'a2' }), 'dag.nodes.n.config.expression'],
    ['switch value', node('n', 'switch', { value: 'a.result +', cases: [{ equals: 1, next: 'a2' }] }), 'dag.nodes.n.config.value'],
    ['switch case', node('n', 'switch', { cases: [{ when: '(a.result', next: 'a2' }] }), 'dag.nodes.n.config.cases[0].when'],
    ['repeat while', node('n', 'repeat', { template: repeatTemplate, while: 'last ==' }), 'dag.nodes.n.config.while'],
    ['repeat until', node('n', 'repeat', { template: repeatTemplate, until: '&& last' }), 'dag.nodes.n.config.until'],
    ['event match', node('n', 'wait_for_event', { event: 'order.paid', match: 'event.data.id ==' }), 'dag.nodes.n.config.match'],
  ])('%s', (_kind, bad, path) => {
    const problems = problemsOf({
      dag: { nodes: [jt('a'), bad, jt('a2')], edges: [{ from: 'a', to: 'n' }, { from: 'n', to: 'a2' }] },
    }).filter((p) => p.path === path);
    expect(problems).toEqual([{ path, problem: expect.stringMatching(/^invalid expression: /) }]);
  });

  test('names are still checked in an expression that parses', () => {
    expectProblem(
      { dag: { nodes: [jt('a'), { id: 'n', type: 'condition', config: { expression: 'ghost.x > 1', trueBranch: 'a2' } }, jt('a2')], edges: [{ from: 'a', to: 'n' }, { from: 'n', to: 'a2' }] } },
      'dag.nodes.n.config.expression',
      /^unknown name "ghost"/,
    );
  });
});

describe('validateDefinition: the order of problems', () => {
  // Clients read the list in order; this pins it across every stage (see the composition in lib/dag/validate.ts).
  test('parameters, triggers, graph shape, nodes, edges, node types, cycles, points, bodies, tools, error handling', () => {
    const input: DefinitionInput = {
      parameters: [{ name: 'p', type: 'integer', default: 'x' }],
      triggers: [{ type: 'schedule', config: { cron: 'bad' } }],
      errorHandling: { default_strategy: 'fallback', node_overrides: { ghost: { strategy: 'retry' } } },
      tools: ['nope'],
      dag: {
        extra: true,
        nodes: [
          jt('a', '${zz.out}'),
          jt('a'),
          { id: 'c', type: 'condition', config: { expression: 'a.result >', trueBranch: 'ghost' } },
          { id: 'p', type: 'parallel', config: { branches: [{ id: 'x', nodes: ['zz'] }], joinStrategy: 'wait_n' } },
          { id: 'l', type: 'loop', config: { items: 'params.p', template: { type: 'tool', config: { tool: 'nope' } } } },
        ],
        edges: [{ from: 'a', to: 'zz' }, { from: 'c', to: 'l' }, { from: 'l', to: 'c' }],
        entryPoints: ['l'],
      },
    };
    expect(problemsOf(input).map((p) => [p.path, p.problem])).toEqual([
      ['parameters[0].default', 'default "x" is not of type integer'],
      ['triggers[0].config.cron', 'not a cron expression (5 or 6 fields)'],
      ['dag.extra', 'unknown field'],
      ['dag.nodes.a.id', 'duplicate node id "a"'],
      ['dag.edges[0].to', 'unknown node "zz"'],
      ['dag.nodes.c.config.trueBranch', '"ghost" is not a node of the graph'],
      ['dag.nodes.c.config.expression', 'invalid expression: Unexpected token: EOF'],
      ['dag.nodes.p.config.branches[0].nodes[0]', 'unknown node "zz"'],
      ['dag.nodes.p.config.n', 'required for joinStrategy wait_n'],
      ['dag.nodes.c', 'cycle: c -> l -> c'],
      ['dag.entryPoints[0]', '"l" has predecessors (c)'],
      ['dag.entryPoints', '"a" has no predecessors but is not an entry point'],
      ['dag.entryPoints', '"p" has no predecessors but is not an entry point'],
      ['dag.nodes.a.config.config.expression', 'unknown name "zz": use params.<name>, nodes.<id>.<output> or <id>.<output>'],
      ['dag.nodes.l.config.items', '"params.p" is of type integer, not a list'],
      ['dag.nodes.l.config.template.config.tool', 'unknown tool "nope"'],
      ['tools[0]', 'unknown tool "nope"'],
      ['error_handling.node_overrides.ghost', 'unknown node "ghost"'],
      ['error_handling.default_strategy', 'fallback needs a handler per node: use node_overrides with strategy fallback and a handler'],
    ]);
  });
});
