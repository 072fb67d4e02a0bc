import {
  ancestorsOf,
  ancestorIndex,
  buildGraph,
  descendantsOf,
  findCycles,
  sinks,
  sources,
  stronglyConnectedComponents,
  topologicalOrder,
} from '../../../lib/dag/graph';

const e = (from: string, to: string) => ({ from, to });

describe('graph', () => {
  const diamond = buildGraph(['a', 'b', 'c', 'd'], [e('a', 'b'), e('a', 'c'), e('b', 'd'), e('c', 'd'), e('a', 'b')]);

  test('buildGraph dedupes edges and ignores unknown ends', () => {
    expect(diamond.successors.get('a')).toEqual(['b', 'c']);
    expect(diamond.predecessors.get('d')).toEqual(['b', 'c']);
    const g = buildGraph(['a'], [e('a', 'zz')]);
    expect(g.successors.get('a')).toEqual([]);
  });

  test('sources, sinks, topological order', () => {
    expect(sources(diamond)).toEqual(['a']);
    expect(sinks(diamond)).toEqual(['d']);
    expect(topologicalOrder(diamond)).toEqual(['a', 'b', 'c', 'd']);
  });

  test('ancestors and descendants', () => {
    expect([...ancestorsOf(diamond, 'd')].sort()).toEqual(['a', 'b', 'c']);
    expect([...descendantsOf(diamond, 'b')]).toEqual(['d']);
    const index = ancestorIndex(diamond);
    expect(index('c')).toBe(index('c'));
    expect([...index('a')]).toEqual([]);
  });

  test('cycles are found and named, one per component', () => {
    const g = buildGraph(['a', 'b', 'c', 'd', 'x'], [e('a', 'b'), e('b', 'c'), e('c', 'a'), e('c', 'd'), e('x', 'x')]);
    expect(findCycles(g)).toEqual([
      ['a', 'b', 'c', 'a'],
      ['x', 'x'],
    ]);
    expect(topologicalOrder(g)).toBeNull();
    expect(stronglyConnectedComponents(g).filter((c) => c.length > 1)).toEqual([['a', 'b', 'c']]);
    expect(findCycles(diamond)).toEqual([]);
  });

  test('a 5,000-node chain does not overflow the stack', () => {
    const ids = Array.from({ length: 5000 }, (_, i) => `n${i}`);
    const edges = ids.slice(1).map((id, i) => e(ids[i]!, id));
    const g = buildGraph(ids, [...edges, e('n4999', 'n0')]);
    const cycles = findCycles(g);
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toHaveLength(5001);
    expect(ancestorsOf(g, 'n10').size).toBe(5000);
  });
});
