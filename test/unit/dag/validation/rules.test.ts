import type { TypedConfig } from '../../../../lib/dag/nodeConfig';
import { dependencyStructure } from '../../../../lib/dag/structure';
import { conditionProblems, unwrapTemplate } from '../../../../lib/dag/validation/conditions';
import { cycleProblems } from '../../../../lib/dag/validation/cycles';
import { errorHandlingGraphProblems, parseErrorHandling } from '../../../../lib/dag/validation/errorHandling';
import { nodeTypeProblems } from '../../../../lib/dag/validation/nodeTypeRules';
import { parallelBranchProblems, parallelJoinProblems } from '../../../../lib/dag/validation/parallel';
import { dagPaths } from '../../../../lib/dag/validation/paths';
import { switchProblems, switchTargets } from '../../../../lib/dag/validation/switchNode';
import { isComputedTime, waitProblems } from '../../../../lib/dag/validation/waitNode';
import type { ReferenceScope } from '../../../../lib/dag/validation/references';
import { checkEntryAndExitPoints, parsePointList, pointProblems } from '../../../../lib/dag/validation/points';
import { fakeEnv } from './fakeEnv';

const paths = dagPaths('dag');
const ids = (...list: string[]) => new Set(list);
const parallel = (branches: { id: string; nodes: string[] }[], extra: { joinStrategy?: 'wait_all' | 'wait_any' | 'wait_n'; n?: number } = {}) => ({
  branches,
  joinStrategy: extra.joinStrategy ?? 'wait_all',
  ...(extra.n === undefined ? {} : { n: extra.n }),
});

describe('conditions', () => {
  test('unwrapTemplate strips one ${...} around the whole expression only', () => {
    expect(unwrapTemplate(' ${a > 1} ')).toBe('a > 1');
    expect(unwrapTemplate('${a} + ${b}')).toBe('${a} + ${b}');
  });
  test('branches to unknown nodes or to itself, no branch, bad CEL', () => {
    const base = 'dag.nodes.c';
    expect(conditionProblems('c', { expression: 'x >', trueBranch: 'ghost', falseBranch: 'c' }, base, ids('c'), fakeEnv)).toEqual([
      { path: `${base}.config.trueBranch`, problem: '"ghost" is not a node of the graph' },
      { path: `${base}.config.falseBranch`, problem: 'a condition cannot branch to itself' },
      { path: `${base}.config.expression`, problem: 'invalid expression: unexpected end' },
    ]);
    expect(conditionProblems('c', { expression: 'true' }, base, ids('c'), fakeEnv)).toEqual([
      { path: `${base}.config`, problem: 'a condition needs trueBranch, falseBranch or both' },
    ]);
  });
});

describe('switches', () => {
  const base = 'dag.nodes.s';
  test('one mode for every case: a value with equals, or a when in each case', () => {
    const byValue = { value: 'params.r', cases: [{ equals: 'eu', next: 'a' }, { when: 'true', next: 'b' }] };
    expect(switchProblems('s', byValue, base, ids('s', 'a', 'b'), fakeEnv)).toEqual([
      { path: `${base}.config.cases[1].equals`, problem: 'required: the switch has a `value`, so each case matches a value' },
      { path: `${base}.config.cases[1].when`, problem: 'not used when the switch has a `value`: give `equals` instead' },
    ]);
    const byCondition = { cases: [{ when: 'true', next: 'a' }, { equals: 1, next: 'b' }] };
    expect(switchProblems('s', byCondition, base, ids('s', 'a', 'b'), fakeEnv)).toEqual([
      { path: `${base}.config.cases[1].when`, problem: 'required: without a `value`, each case is a condition (or give the switch a `value` and the cases `equals`)' },
      { path: `${base}.config.cases[1].equals`, problem: 'only used with the switch\'s `value`' },
    ]);
    // `equals: null` is a value like any other
    expect(switchProblems('s', { value: 'params.r', cases: [{ equals: null, next: 'a' }] }, base, ids('s', 'a'), fakeEnv)).toEqual([]);
  });

  test('targets are other nodes of the graph; expressions are CEL', () => {
    const config = { value: 'x >', cases: [{ equals: 1, next: 'ghost' }, { equals: 2, next: 's' }], default: 'nowhere' };
    expect(switchProblems('s', config, base, ids('s'), fakeEnv)).toEqual([
      { path: `${base}.config.cases[0].next`, problem: '"ghost" is not a node of the graph' },
      { path: `${base}.config.cases[1].next`, problem: 'a switch cannot lead to itself' },
      { path: `${base}.config.default`, problem: '"nowhere" is not a node of the graph' },
      { path: `${base}.config.value`, problem: 'invalid expression: unexpected end' },
    ]);
    expect(switchTargets({ cases: [{ when: 'a', next: 'x' }, { when: 'b', next: 'y' }], default: 'z' })).toEqual(['x', 'y', 'z']);
  });

  test('a switch implies an edge to each of its targets', () => {
    const configs = new Map<string, TypedConfig>([['s', { type: 'switch', config: { cases: [{ when: 'true', next: 'a' }], default: 'b' } }]]);
    expect(dependencyStructure(['s', 'a', 'b'], [], configs).edges).toEqual([{ from: 's', to: 'a' }, { from: 's', to: 'b' }]);
  });
});

describe('waits', () => {
  const scope: ReferenceScope = { hasNode: (id) => id === 'a', ancestors: () => new Set(['a']), outputsOf: () => null, parameters: [] };
  const base = 'dag.nodes.w';
  test('one of duration or until, each a real value', () => {
    expect(waitProblems(scope, fakeEnv, 'w', {}, base)).toEqual([{ path: `${base}.config`, problem: expect.stringContaining('give one of duration') }]);
    expect(waitProblems(scope, fakeEnv, 'w', { duration: '1m', until: '2030-01-01' }, base)).toHaveLength(1);
    expect(waitProblems(scope, fakeEnv, 'w', { duration: '90s' }, base)).toEqual([]);
    expect(waitProblems(scope, fakeEnv, 'w', { duration: '367d' }, base)).toEqual([{ path: `${base}.config.duration`, problem: 'at most 366d' }]);
    expect(waitProblems(scope, fakeEnv, 'w', { duration: 'soon' }, base)[0]!.path).toBe(`${base}.config.duration`);
    expect(waitProblems(scope, fakeEnv, 'w', { until: '2030-01-01T09:00:00+01:00' }, base)).toEqual([]);
    expect(waitProblems(scope, fakeEnv, 'w', { until: 'tomorrow' }, base)[0]!.path).toBe(`${base}.config.until`);
    expect(waitProblems(scope, fakeEnv, 'w', { until: '12' }, base)[0]!.path).toBe(`${base}.config.until`);
  });
  test('a computed until is a template: its references are checked', () => {
    expect(isComputedTime('${nodes.a.result}')).toBe(true);
    expect(isComputedTime('2030-01-01')).toBe(false);
    expect(waitProblems(scope, fakeEnv, 'w', { until: '${ghost.due}' }, base).map((p) => p.path)).toEqual([`${base}.config.until`]);
  });
});

describe('parallel', () => {
  test('duplicate branch ids, unknown members, itself, a member of two branches', () => {
    const owner = new Map([['x', 'p0']]);
    const config = parallel([{ id: 'b', nodes: ['a', 'zz', 'p'] }, { id: 'b', nodes: ['a', 'x'] }]);
    expect(parallelBranchProblems('p', config, 'P', ids('a', 'p', 'x'), owner)).toEqual([
      { path: 'P.config.branches[0].nodes[1]', problem: 'unknown node "zz"' },
      { path: 'P.config.branches[0].nodes[2]', problem: 'a parallel node cannot contain itself' },
      { path: 'P.config.branches[1].id', problem: 'duplicate branch id "b"' },
      { path: 'P.config.branches[1].nodes[0]', problem: '"a" is already a branch node of "p"' },
      { path: 'P.config.branches[1].nodes[1]', problem: '"x" is already a branch node of "p0"' },
    ]);
    expect(owner.get('a')).toBe('p');
  });
  test('n belongs to wait_n and is at most the number of branches', () => {
    const two = [{ id: 'x', nodes: ['a'] }, { id: 'y', nodes: ['b'] }];
    expect(parallelJoinProblems(parallel(two, { joinStrategy: 'wait_n' }), 'P')).toEqual([{ path: 'P.config.n', problem: 'required for joinStrategy wait_n' }]);
    expect(parallelJoinProblems(parallel(two, { joinStrategy: 'wait_n', n: 3 }), 'P')).toEqual([{ path: 'P.config.n', problem: 'n (3) exceeds the 2 branches' }]);
    expect(parallelJoinProblems(parallel(two, { joinStrategy: 'wait_n', n: 2 }), 'P')).toEqual([]);
    expect(parallelJoinProblems(parallel(two, { n: 1 }), 'P')).toEqual([{ path: 'P.config.n', problem: 'only used with joinStrategy wait_n' }]);
  });
  test('nodeTypeProblems keeps node order across types and shares branch ownership', () => {
    const nodes = ['p1', 'c', 'p2'].map((id) => ({ id, type: 'tool' as const, config: {} }));
    const configs = new Map<string, TypedConfig>([
      ['p1', { type: 'parallel', config: parallel([{ id: 'x', nodes: ['a'] }]) }],
      ['c', { type: 'condition', config: { expression: 'true' } }],
      ['p2', { type: 'parallel', config: parallel([{ id: 'x', nodes: ['a'] }]) }],
    ]);
    expect(nodeTypeProblems(nodes, configs, ids('a', 'p1', 'c', 'p2'), paths, fakeEnv).map((p) => p.path)).toEqual([
      'dag.nodes.c.config',
      'dag.nodes.p2.config.branches[0].nodes[0]',
    ]);
  });
});

describe('graph: cycles, entry and exit points', () => {
  const structureOf = (nodes: string[], edges: [string, string][], configs = new Map<string, TypedConfig>()) =>
    dependencyStructure(nodes, edges.map(([from, to]) => ({ from, to })), configs);

  test('cycles are named at their first node, implied edges included', () => {
    const configs = new Map<string, TypedConfig>([['c', { type: 'condition', config: { expression: 'true', trueBranch: 'a' } }]]);
    expect(cycleProblems(structureOf(['a', 'c'], [['a', 'c']], configs), paths)).toEqual([{ path: 'dag.nodes.a', problem: 'cycle: a -> c -> a' }]);
  });
  test('parsePointList: absent, not ids, empty', () => {
    expect(parsePointList(undefined, 'P')).toEqual({ value: null, problems: [] });
    expect(parsePointList(['a b'], 'P').problems).toEqual([{ path: 'P', problem: 'must be an array of node ids' }]);
    expect(parsePointList([], 'P').problems).toEqual([{ path: 'P', problem: 'must not be empty (omit it to derive it)' }]);
    expect(parsePointList(['a'], 'P')).toEqual({ value: ['a'], problems: [] });
  });
  test('pointProblems: unknown, with predecessors, a missing source, a branch member as exit', () => {
    const s = structureOf(['a', 'b', 'c'], [['a', 'b']]);
    expect(pointProblems('entryPoints', ['b', 'zz'], s, ids('a', 'b', 'c'), 'E')).toEqual([
      { path: 'E[0]', problem: '"b" has predecessors (a)' },
      { path: 'E[1]', problem: 'unknown node "zz"' },
      { path: 'E', problem: '"a" has no predecessors but is not an entry point' },
      { path: 'E', problem: '"c" has no predecessors but is not an entry point' },
    ]);
    const withParallel = structureOf(['p', 'm'], [], new Map([['p', { type: 'parallel', config: parallel([{ id: 'x', nodes: ['m'] }]) }]]));
    expect(pointProblems('exitPoints', ['m'], withParallel, ids('p', 'm'), 'X')).toEqual([{ path: 'X[0]', problem: '"m" is a branch node of "p"' }]);
  });
  test('checkEntryAndExitPoints derives both and refuses a graph without an entry', () => {
    const ok = checkEntryAndExitPoints({}, structureOf(['a', 'b'], [['a', 'b']]), ids('a', 'b'), paths);
    expect(ok).toEqual({ value: { entryPoints: null, exitPoints: null, derivedEntries: ['a'], derivedExits: ['b'] }, problems: [] });
    const loop = checkEntryAndExitPoints({}, structureOf(['a', 'b'], [['a', 'b'], ['b', 'a']]), ids('a', 'b'), paths);
    expect(loop.problems).toEqual([{ path: 'dag.entryPoints', problem: 'the graph has no entry point (every node has a predecessor)' }]);
  });
});

describe('error handling', () => {
  const graph = { nodeIds: ids('a', 'b'), mentionedIds: ids('a', 'b', 'bad') };
  test('a bad block is null with its problems', () => {
    expect(parseErrorHandling({ default_strategy: 'x' }, 'eh').value).toBeNull();
    expect(parseErrorHandling(undefined, 'eh').value?.node_overrides).toEqual({});
  });
  test('overrides against the graph: unknown nodes, fallback handlers, tool handler configs, a fallback default', () => {
    const eh = parseErrorHandling(
      {
        default_strategy: 'fallback',
        node_overrides: {
          zz: { strategy: 'retry', handler: 'b' },
          a: { strategy: 'fallback' },
          b: { strategy: 'fallback', handler: 'echo', handler_config: { n: 'x' } },
          bad: { strategy: 'fallback', handler: 'nope', handler_config: { k: '{{secrets.x}}' } },
        },
      },
      'eh',
    ).value!;
    expect(errorHandlingGraphProblems(eh, 'eh', graph, fakeEnv)).toEqual([
      { path: 'eh.node_overrides.zz', problem: 'unknown node "zz"' },
      { path: 'eh.node_overrides.zz.handler', problem: 'only used with the fallback strategy' },
      { path: 'eh.node_overrides.a.handler', problem: 'required for the fallback strategy' },
      { path: 'eh.node_overrides.b.handler_config.n', problem: 'must be a number' },
      { path: 'eh.node_overrides.bad.handler', problem: '"nope" is neither a node nor a tool' },
      { path: 'eh.node_overrides.bad.handler_config.k', problem: expect.stringMatching(/^malformed secret reference/) },
      { path: 'eh.default_strategy', problem: 'fallback needs a handler per node: use node_overrides with strategy fallback and a handler' },
    ]);
  });
  test('a handler config filled at run time is not checked against the tool now', () => {
    const eh = parseErrorHandling({ node_overrides: { a: { strategy: 'fallback', handler: 'echo', handler_config: { n: '${a.out}' } } } }, 'eh').value!;
    expect(errorHandlingGraphProblems(eh, 'eh', graph, fakeEnv)).toEqual([]);
  });
});
