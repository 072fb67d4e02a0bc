import { checkDagObject, MAX_NODES } from '../../../../lib/dag/validation/dagObject';
import { dedupeProblems } from '../../../../lib/dag/validation/dedupe';
import { MAX_EDGES, parseEdges } from '../../../../lib/dag/validation/edges';
import { parseNodes } from '../../../../lib/dag/validation/nodes';
import { checkParameters } from '../../../../lib/dag/validation/parameters';
import { dagPaths } from '../../../../lib/dag/validation/paths';
import { checkTriggers } from '../../../../lib/dag/validation/triggers';

const paths = dagPaths('dag');
const tool = (id: string) => ({ id, type: 'tool', config: { tool: 'echo' } });

describe('dagPaths', () => {
  test('prefixes the graph path, or none at the document root', () => {
    expect(paths.at('edges[0]')).toBe('dag.edges[0]');
    expect(paths.node('a')).toBe('dag.nodes.a');
    expect(dagPaths('').at('entryPoints')).toBe('entryPoints');
  });
});

describe('checkParameters', () => {
  test('absent is no parameters; not an array is one problem', () => {
    expect(checkParameters(undefined)).toEqual({ value: [], problems: [] });
    expect(checkParameters({})).toEqual({ value: [], problems: [{ path: 'parameters', problem: 'must be an array' }] });
  });
  test('keeps the valid declarations and names the bad ones', () => {
    const r = checkParameters([{ name: 'p', type: 'integer' }, { name: 'p', type: 'string' }]);
    expect(r.value.map((p) => p.name)).toEqual(['p', 'p']);
    expect(r.problems).toEqual([{ path: 'parameters[1].name', problem: 'duplicate parameter "p"' }]);
  });
});

describe('checkTriggers', () => {
  test('not an array; a bad shape; deeper checks do not repeat a field the basic ones reported', () => {
    expect(checkTriggers('x', {}).problems).toEqual([{ path: 'triggers', problem: 'must be an array' }]);
    const deeper = jest.fn(() => [
      { path: 'triggers[1].config.cron', problem: 'deeper: cron' },
      { path: 'triggers[1].config.timezone', problem: 'deeper: zone' },
    ]);
    const r = checkTriggers([{ type: 'nope' }, { type: 'schedule', config: { cron: 'bad' } }], { triggerProblems: deeper });
    expect(r.value).toHaveLength(1);
    expect(deeper).toHaveBeenCalledWith([{ trigger: r.value[0], path: 'triggers[1]', index: 1 }]);
    expect(r.problems.map((p) => p.path)).toEqual(['triggers[0].type', 'triggers[1].config.cron', 'triggers[1].config.timezone']);
    expect(r.problems.find((p) => p.problem === 'deeper: cron')).toBeUndefined();
  });
});

describe('checkDagObject', () => {
  test('stops on a non-object graph, at the root path when there is none', () => {
    expect(checkDagObject([], 'dag', paths)).toEqual({ stop: true, problems: [{ path: 'dag', problem: 'required: an object with nodes and edges' }] });
    expect(checkDagObject(null, '', dagPaths('')).problems[0]!.path).toBe('nodes');
  });
  test('unknown fields and missing nodes are reported, the rest goes on', () => {
    const r = checkDagObject({ nodes: [], extra: 1 }, 'dag', paths);
    expect(r.stop).toBe(false);
    expect(r.problems).toEqual([
      { path: 'dag.extra', problem: 'unknown field' },
      { path: 'dag.nodes', problem: 'at least one node is required' },
    ]);
  });
  test('too many nodes stops before any is read', () => {
    const r = checkDagObject({ nodes: Array.from({ length: MAX_NODES + 1 }, () => ({})) }, 'dag', paths);
    expect(r).toEqual({ stop: true, problems: [{ path: 'dag.nodes', problem: `at most ${MAX_NODES} nodes` }] });
  });
});

describe('parseNodes', () => {
  test('duplicates are reported once and skipped; invalid nodes still mention their id', () => {
    const r = parseNodes([tool('a'), tool('a'), { id: 'b', type: 'nope', config: {} }, { id: 'params', type: 'tool', config: { tool: 'echo' } }], 'dag');
    expect(r.nodes.map((n) => n.id)).toEqual(['a', 'params']);
    expect([...r.mentionedIds]).toEqual(['a', 'b', 'params']);
    expect(r.problems).toEqual([
      { path: 'dag.nodes.a.id', problem: 'duplicate node id "a"' },
      { path: 'dag.nodes.b.type', problem: expect.any(String) },
      { path: 'dag.nodes.params.id', problem: '"params" is reserved in expressions; choose another id' },
    ]);
  });
  test('a node with a bad config is kept without a typed config', () => {
    const r = parseNodes([{ id: 'c', type: 'condition', config: {} }], 'dag');
    expect(r.nodeIds.has('c')).toBe(true);
    expect(r.configs.has('c')).toBe(false);
    expect(r.problems[0]!.path).toBe('dag.nodes.c.config.expression');
  });
});

describe('parseEdges', () => {
  const known = new Set(['a', 'b']);
  test('unknown ends, duplicates, bad shapes', () => {
    const r = parseEdges([{ from: 'a', to: 'zz' }, { from: 'a', to: 'b' }, { from: 'a', to: 'b' }, { from: 'a' }], known, paths);
    // A duplicate is reported, not dropped: the definition is refused anyway.
    expect(r.value).toEqual([{ from: 'a', to: 'b' }, { from: 'a', to: 'b' }]);
    expect(r.problems).toEqual([
      { path: 'dag.edges[0].to', problem: 'unknown node "zz"' },
      { path: 'dag.edges[2]', problem: 'duplicate edge a -> b' },
      { path: 'dag.edges[3].to', problem: expect.any(String) },
    ]);
  });
  test('absent is none; not an array; over the limit only the first MAX_EDGES are read', () => {
    expect(parseEdges(undefined, known, paths)).toEqual({ value: [], problems: [] });
    expect(parseEdges('x', known, paths).problems).toEqual([{ path: 'dag.edges', problem: 'must be an array' }]);
    const r = parseEdges(Array.from({ length: MAX_EDGES + 1 }, () => ({ from: 'a', to: 'b' })), known, paths);
    expect(r.problems[0]).toEqual({ path: 'dag.edges', problem: 'at most 10000 edges' });
    expect(r.problems).toHaveLength(MAX_EDGES);
  });
});

describe('dedupeProblems', () => {
  test('keeps the first of equal problems, in order', () => {
    const p = (path: string, problem = 'x') => ({ path, problem });
    expect(dedupeProblems([p('a'), p('b'), p('a'), p('a', 'y')])).toEqual([p('a'), p('b'), p('a', 'y')]);
  });
});
