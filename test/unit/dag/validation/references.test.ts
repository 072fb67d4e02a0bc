import type { NodeDef } from '../../../../lib/dag/model';
import type { TypedConfig } from '../../../../lib/dag/nodeConfig';
import { loopNodeChecks, loopLocals } from '../../../../lib/dag/validation/loopNode';
import { nodeBodyChecks } from '../../../../lib/dag/validation/nodeBodies';
import { NODE_TYPE_SPECS, toolNodeBindings } from '../../../../lib/dag/nodeTypes';
import { nodeOutputs } from '../../../../lib/dag/validation/outputs';
import {
  loopItemsProblems,
  nodeReference,
  parameterReference,
  staticReference,
  templateReferenceProblems,
  type ReferenceScope,
} from '../../../../lib/dag/validation/references';
import { subworkflowBody } from '../../../../lib/dag/validation/subworkflowBody';
import { boundName, toolBodyProblems } from '../../../../lib/dag/validation/toolBody';
import { toolConfigProblems, topField } from '../../../../lib/dag/validation/toolConfig';
import { checkDeclaredTools, toolsUsed } from '../../../../lib/dag/validation/toolsList';
import { fakeEnv } from './fakeEnv';

const UUID = '3f1c2f7e-8a7b-4c1d-9e2f-0123456789ab';
/** a -> b -> c; `a` is an echo tool, `s` a subworkflow without declared outputs; `c` is not below `s`. */
const scope: ReferenceScope = {
  hasNode: (id) => ['a', 'b', 'c', 's'].includes(id),
  ancestors: (id) => new Set(({ b: ['a'], c: ['a', 'b'] } as Record<string, string[]>)[id] ?? []),
  outputsOf: (id) => ({ a: { out: 'string' as const, list: 'array' as const }, b: {}, c: {} } as Record<string, Record<string, 'string' | 'array'>>)[id] ?? null,
  parameters: [{ name: 'n', type: 'integer', required: false }],
};
const none = new Set<string>();

describe('references', () => {
  test('a node reference: unknown, itself, not an ancestor, undeclared output, then the output type', () => {
    expect(nodeReference(scope, 'c', 'zz', 'x', 'P').problems).toEqual([{ path: 'P', problem: 'unknown node "zz"' }]);
    expect(nodeReference(scope, 'c', 'c', 'x', 'P').problems).toEqual([{ path: 'P', problem: 'node "c" cannot reference its own output' }]);
    expect(nodeReference(scope, 'a', 'b', 'x', 'P').problems[0]!.problem).toBe('"b" is not an ancestor of "a": add an edge path b -> ... -> a');
    expect(nodeReference(scope, 'c', 'a', 'nope', 'P').problems[0]!.problem).toBe('node "a" does not declare output "nope" (it has: out, list)');
    expect(nodeReference(scope, 'c', 'b', 'nope', 'P').problems[0]!.problem).toBe('node "b" does not declare output "nope"');
    expect(nodeReference(scope, 'c', 'a', 'list', 'P')).toEqual({ value: 'array', problems: [] });
    expect(nodeReference(scope, 'c', 'a', null, 'P')).toEqual({ value: 'any', problems: [] });
  });
  test('parameters by name, the whole params object, and static references', () => {
    expect(parameterReference(scope, 'n', 'P')).toEqual({ value: 'integer', problems: [] });
    expect(parameterReference(scope, null, 'P')).toEqual({ value: 'object', problems: [] });
    expect(parameterReference(scope, 'zz', 'P').problems).toEqual([{ path: 'P', problem: 'unknown parameter "zz"' }]);
    expect(staticReference(scope, 'c', 'not a ref', 'P').problems[0]!.problem).toBe('references look like <node_id>.<output_name> or params.<name>');
    expect(staticReference(scope, 'c', 'params.n', 'P').value).toBe('integer');
    expect(staticReference(scope, 'c', 'a.out', 'P').value).toBe('string');
  });
  test('templates: syntax first, then each name (parameters, nodes, locals, unknown names)', () => {
    expect(templateReferenceProblems(scope, fakeEnv, 'c', { x: '${a.out} ${' }, 'T', none)).toEqual([{ path: 'T.x', problem: 'unclosed ${' }]);
    expect(templateReferenceProblems(scope, fakeEnv, 'c', { x: '${params.zz} ${a.out} ${it} ${who}' }, 'T', new Set(['it']))).toEqual([
      { path: 'T.x', problem: 'unknown parameter "zz"' },
      { path: 'T.x', problem: 'unknown name "who": use params.<name>, nodes.<id>.<output> or <id>.<output>' },
    ]);
  });
  test('loop items: a reference to a list, a template, or neither', () => {
    expect(loopItemsProblems(scope, fakeEnv, 'c', 'a.list', 'I')).toEqual([]);
    expect(loopItemsProblems(scope, fakeEnv, 'c', 'params.n', 'I')).toEqual([{ path: 'I', problem: '"params.n" is of type integer, not a list' }]);
    expect(loopItemsProblems(scope, fakeEnv, 'c', '${who}', 'I')[0]!.problem).toMatch(/^unknown name "who"/);
    expect(loopItemsProblems(scope, fakeEnv, 'c', 'literal', 'I')[0]!.problem).toMatch(/^items must be a reference to a list/);
  });
});

describe('outputs', () => {
  const node = (type: NodeDef['type'], outputs?: NodeDef['outputs']): NodeDef => ({ id: 'x', type, config: {}, ...(outputs ? { outputs } : {}) });
  test("a tool's schema outputs and declared ones, a type's implicit ones, a subworkflow's only when declared", () => {
    const tool: TypedConfig = { type: 'tool', config: { tool: 'echo', config: {}, inputs: [], outputs: [{ name: 'extra', type: 'number' }] } };
    expect(nodeOutputs(node('tool'), tool, fakeEnv)).toEqual({ out: 'string', list: 'array', extra: 'number' });
    const loop = { type: 'loop', config: {} } as TypedConfig;
    expect(nodeOutputs(node('loop', [{ name: 'x', type: 'string' }]), loop, fakeEnv)).toEqual({ ...NODE_TYPE_SPECS.loop.implicitOutputs, x: 'string' });
    const sub: TypedConfig = { type: 'subworkflow', config: { workflow_id: UUID, inputs: {}, inherit_context: false } };
    expect(nodeOutputs(node('subworkflow'), sub, fakeEnv)).toBeNull();
    expect(nodeOutputs(node('subworkflow', [{ name: 'r', type: 'any' }]), sub, fakeEnv)).toEqual({ r: 'any' });
  });
});

describe('tool bodies', () => {
  test('toolConfigProblems ignores fields filled at run time and names an unknown tool', () => {
    expect(toolConfigProblems('nope', {}, [], 'N.config', fakeEnv)).toEqual([{ path: 'N.config.tool', problem: 'unknown tool "nope"' }]);
    expect(toolConfigProblems('echo', { n: 'x' }, [], 'N.config', fakeEnv)).toEqual([{ path: 'N.config.config.n', problem: 'must be a number' }]);
    expect(toolConfigProblems('echo', { n: '${a.out}' }, [], 'N.config', fakeEnv)).toEqual([]);
    expect(toolConfigProblems('echo', { token: '{{secret.N}}' }, [], 'N.config', fakeEnv)).toEqual([]);
    // A reference outside the tool's secret fields is refused, naming the field and where the tool takes them.
    expect(toolConfigProblems('echo', { n: '{{secret.N}}' }, [], 'N.config', fakeEnv)).toEqual([
      { path: 'N.config.config.n', problem: expect.stringContaining('the echo tool accepts secret references only in token') },
    ]);
    expect(toolConfigProblems('echo', { n: 'x' }, ['n'], 'N.config', fakeEnv)).toEqual([]);
    expect(topField('N.config.config.headers[0].x', 'N.config.config')).toBe('headers');
  });
  test('boundName: the binding name, else the output name of its reference', () => {
    expect(boundName({ from: 'a.out' })).toBe('out');
    expect(boundName({ from: 'a.out', name: 'data' })).toBe('data');
  });
  test('toolBodyProblems: bindings, config, templates (locals in scope), secrets, in that order', () => {
    const bindings = [{ binding: { from: 'zz.x' }, fromPath: 'B' }];
    const problems = toolBodyProblems(scope, fakeEnv, 'c', { tool: 'echo', config: { n: 'x', t: '${it} ${who}', s: '{{secrets.x}}' } }, bindings, 'N.config', new Set(['it']));
    expect(problems.map((p) => p.path)).toEqual(['B', 'N.config.config.n', 'N.config.config.t', 'N.config.config.s']);
  });
  test('toolNodeBindings: node-level inputs first, then the config inputs, each at its own path', () => {
    const node: NodeDef = { id: 'c', type: 'tool', config: {}, inputs: [{ from: 'a.out' }] };
    const config = { tool: 'echo', config: {}, inputs: [{ from: 'b.x' }], outputs: [] };
    expect(toolNodeBindings(node, config, 'N').map((b) => b.fromPath)).toEqual(['N.inputs[0].from', 'N.config.inputs[0].from']);
  });
});

describe('subworkflows and loops', () => {
  test('a subworkflow body names the child and checks its inputs; secrets are refused there', () => {
    const body = subworkflowBody(scope, fakeEnv, 'c', { workflow_id: UUID, inputs: { x: '${who}', k: '{{secret.K}}' } }, 'N.config', none);
    expect(body.reference).toEqual({
      path: 'N.config.workflow_id',
      workflowId: UUID,
      inputs: { path: 'N.config.inputs', values: { x: '${who}', k: '{{secret.K}}' }, inheritContext: false },
    });
    expect(body.problems.map((p) => p.path)).toEqual(['N.config.inputs.x', 'N.config.inputs.k']);
  });
  test('loopLocals: the iterator and its index', () => {
    expect([...loopLocals('row')]).toEqual(['row', 'row_index']);
  });
  test('a loop: iterator clash, items, template parse problems or its body with the locals', () => {
    const template = { type: 'tool' as const, config: { tool: 'echo', config: { n: '${row}' }, inputs: [{ from: 'zz.x' }] } };
    const config = { items: 'literal', iterator: 'a', template, concurrency: 1, maxItems: 10, continue_on_error: false };
    const r = loopNodeChecks(scope, fakeEnv, 'c', config, 'L', new Set(['a', 'c']));
    expect(r.problems.map((p) => p.path)).toEqual(['L.config.iterator', 'L.config.items', 'L.config.template.config.inputs[0].from', 'L.config.template.config.config.n']);
    const ok = loopNodeChecks(scope, fakeEnv, 'c', { ...config, items: 'a.list', iterator: 'row' }, 'L', new Set(['a', 'c']));
    expect(ok.problems.map((p) => p.path)).toEqual(['L.config.template.config.inputs[0].from']);
    const sub = loopNodeChecks(scope, fakeEnv, 'c', { ...config, items: 'a.list', iterator: 'row', template: { type: 'subworkflow', config: { workflow_id: UUID } } }, 'L', new Set());
    expect(sub).toEqual({
      problems: [],
      subworkflows: [
        { path: 'L.config.template.config.workflow_id', workflowId: UUID, inputs: { path: 'L.config.template.config.inputs', values: {}, inheritContext: false } },
      ],
    });
    const bad = loopNodeChecks(scope, fakeEnv, 'c', { ...config, items: 'a.list', iterator: 'row', template: { type: 'tool', config: {} } }, 'L', new Set());
    expect(bad.problems.map((p) => p.path)).toEqual(['L.config.template.config.tool']);
  });
  test('nodeBodyChecks: in node order; node-level inputs of non-tool nodes after the type checks', () => {
    const nodes: NodeDef[] = [
      { id: 'c', type: 'condition', config: {}, inputs: [{ from: 'zz.x' }] },
      { id: 's', type: 'subworkflow', config: {} },
      { id: 'bad', type: 'tool', config: {} },
    ];
    const configs = new Map<string, TypedConfig>([
      ['c', { type: 'condition', config: { expression: 'who' } }],
      ['s', { type: 'subworkflow', config: { workflow_id: UUID, inputs: {}, inherit_context: false } }],
    ]);
    const r = nodeBodyChecks(nodes, configs, new Set(['c', 's', 'bad']), scope, fakeEnv, (id) => `N.${id}`);
    expect(r.problems.map((p) => p.path)).toEqual(['N.c.config.expression', 'N.c.inputs[0].from']);
    expect(r.subworkflows).toEqual([
      { path: 'N.s.config.workflow_id', workflowId: UUID, inputs: { path: 'N.s.config.inputs', values: {}, inheritContext: false } },
    ]);
  });
});

describe('tools list', () => {
  test('tools used by tool nodes and loop templates', () => {
    const configs = new Map<string, TypedConfig>([
      ['a', { type: 'tool', config: { tool: 'echo', config: {}, inputs: [], outputs: [] } }],
      ['l', { type: 'loop', config: { items: 'a.list', iterator: 'item', concurrency: 1, maxItems: 1, continue_on_error: false, template: { type: 'tool', config: { tool: 'other' } } } }],
    ]);
    const nodes = ['a', 'l'].map((id): NodeDef => ({ id, type: 'tool', config: {} }));
    expect([...toolsUsed(nodes, configs)]).toEqual(['echo', 'other']);
  });
  test('declared tools: ids or objects with an id, known ones kept', () => {
    expect(checkDeclaredTools(['echo', { id: 'echo' }, { id: 'nope' }, 3], fakeEnv)).toEqual({
      value: ['echo', 'echo'],
      problems: [
        { path: 'tools[2]', problem: 'unknown tool "nope"' },
        { path: 'tools[3]', problem: 'a tool id (or an object with an id)' },
      ],
    });
    expect(checkDeclaredTools({}, fakeEnv).problems).toEqual([{ path: 'tools', problem: 'must be an array of tool ids' }]);
  });
});
