import { untakenBranches } from '../../../workflows/runs/scheduler/branch';
import { decide, type DecideOptions, type SchedulerAction } from '../../../workflows/runs/scheduler/decide';
import { readiness } from '../../../workflows/runs/scheduler/readiness';
import type { RunGraph } from '../../../workflows/runs/graph';
import type { NodeState } from '../../../lib/dag/model';
import { condition, graphOf, parallel, statesOf, switchNode, tool } from './fixtures';

/** The scheduler's decisions (workflows/runs/scheduler/decide.ts): what happens now, given the graph and node states. */

const idle: DecideOptions = { inFlight: 0, maxConcurrentNodes: 200 };

/** Actions as short strings: 'start a', 'skip b', 'openParallel p', 'completeJoin p', 'failJoin p'. */
const brief = (actions: SchedulerAction[]): string[] => actions.map((a) => `${a.kind} ${a.node}`);

const decided = (graph: RunGraph, states: Record<string, NodeState>, options: DecideOptions = idle): string[] =>
  brief(decide(graph, states, options));

describe('decide: chains and diamonds', () => {
  const chain = graphOf([tool('a'), tool('b'), tool('c')], ['a>b', 'b>c']);

  test('a chain runs one node at a time, each after its predecessor completed', () => {
    expect(decided(chain, statesOf(chain))).toEqual(['start a']);
    expect(decided(chain, statesOf(chain, { a: 'running' }))).toEqual([]);
    expect(decided(chain, statesOf(chain, { a: 'completed' }))).toEqual(['start b']);
    expect(decided(chain, statesOf(chain, { a: 'completed', b: 'completed', c: 'completed' }))).toEqual([]);
  });

  const diamond = graphOf([tool('a'), tool('b'), tool('c'), tool('d')], ['a>b', 'a>c', 'b>d', 'c>d']);

  test('a diamond fans out, and joins once every predecessor finished and one completed', () => {
    expect(decided(diamond, statesOf(diamond, { a: 'completed' }))).toEqual(['start b', 'start c']);
    expect(decided(diamond, statesOf(diamond, { a: 'completed', b: 'completed', c: 'running' }))).toEqual([]);
    expect(decided(diamond, statesOf(diamond, { a: 'completed', b: 'completed', c: 'completed' }))).toEqual(['start d']);
    expect(decided(diamond, statesOf(diamond, { a: 'completed', b: 'skipped', c: 'completed' }))).toEqual(['start d']);
    expect(decided(diamond, statesOf(diamond, { a: 'completed', b: 'skipped', c: 'cancelled' }))).toEqual(['skip d']);
  });

  test('roots all start at once', () => {
    const roots = graphOf([tool('a'), tool('b'), tool('c')]);
    expect(decided(roots, statesOf(roots))).toEqual(['start a', 'start b', 'start c']);
  });
});

describe('decide: failures', () => {
  const join = graphOf([tool('a'), tool('b'), tool('c'), tool('d')], ['a>c', 'b>c', 'c>d']);

  test('an unhandled failure skips its successors even when another predecessor completed, and the skip propagates', () => {
    expect(decided(join, statesOf(join, { a: 'failed', b: 'completed' }))).toEqual(['skip c', 'skip d']);
  });

  test('a dead-lettered failure was handled: it does not skip a node another predecessor completed', () => {
    const dead = { status: 'failed', via: 'dead_letter' } as const;
    expect(decided(join, statesOf(join, { a: dead, b: 'completed' }))).toEqual(['start c']);
    // ...but it completed nothing either: with no completed predecessor the node is skipped
    expect(decided(join, statesOf(join, { a: dead, b: dead }))).toEqual(['skip c', 'skip d']);
  });

  test('a fallback-completed predecessor counts as completed', () => {
    expect(decided(join, statesOf(join, { a: { status: 'completed', via: 'fallback' }, b: 'skipped' }))).toEqual(['start c']);
  });

  test('a skip reaches nodes earlier in the graph order in a further pass of the same call', () => {
    const backwards = graphOf([tool('z'), tool('a'), tool('b')], ['a>b', 'b>z']);
    expect(decided(backwards, statesOf(backwards, { a: 'failed' }))).toEqual(['skip b', 'skip z']);
  });
});

describe('decide: conditions', () => {
  const graph = graphOf([condition('c', 't', 'f'), tool('t'), tool('f'), tool('x'), tool('y')], ['t>x', 'f>y']);

  test('the untaken branch is the one to skip; both branches wait for the condition', () => {
    expect(decided(graph, statesOf(graph))).toEqual(['start c']);
    expect(readiness(graph, statesOf(graph, { c: 'running' }), 't')).toBe('wait');
    const c = graph.nodes.get('c')!;
    const taken = statesOf(graph, { c: { status: 'completed', output: { result: true, branch: 't' } } });
    expect(untakenBranches(c, taken)).toEqual(['f']);
    const notTaken = statesOf(graph, { c: { status: 'completed', output: { result: false, branch: 'f' } } });
    expect(untakenBranches(c, notTaken)).toEqual(['t']);
  });

  test('once the untaken branch is skipped, the taken one runs and the skip propagates down the other side', () => {
    const states = statesOf(graph, { c: { status: 'completed', output: { result: true } }, f: 'skipped' });
    expect(decided(graph, states)).toEqual(['start t', 'skip y']);
  });

  test('no branch to skip when both name the same node, when the branch is absent, or when it already finished', () => {
    const same = graphOf([condition('c', 't', 't'), tool('t')]);
    expect(untakenBranches(same.nodes.get('c')!, statesOf(same, { c: { status: 'completed', output: { result: false } } }))).toEqual([]);
    const single = graphOf([condition('c', 't'), tool('t')]);
    expect(untakenBranches(single.nodes.get('c')!, statesOf(single, { c: { status: 'completed', output: { result: true } } }))).toEqual([]);
    const c = graph.nodes.get('c')!;
    expect(untakenBranches(c, statesOf(graph, { c: { status: 'completed', output: { result: true } }, f: 'completed' }))).toEqual([]);
  });
});

describe('decide: switches', () => {
  const graph = graphOf([switchNode('s', ['a', 'b', 'a'], 'd'), tool('a'), tool('b'), tool('d'), tool('after_b')], ['b>after_b']);
  const s = graph.nodes.get('s')!;

  test('every target waits for the switch', () => {
    expect(decided(graph, statesOf(graph))).toEqual(['start s']);
    for (const target of ['a', 'b', 'd']) expect(readiness(graph, statesOf(graph, { s: 'running' }), target)).toBe('wait');
  });

  test('every target but the one taken is skipped, each once, and a skip propagates', () => {
    const states = statesOf(graph, { s: { status: 'completed', output: { branch: 'a', case: 2 } } });
    expect(untakenBranches(s, states)).toEqual(['b', 'd']);
    expect(decided(graph, statesOf(graph, { s: { status: 'completed', output: { branch: 'a', case: 2 } }, b: 'skipped', d: 'skipped' }))).toEqual(['start a', 'skip after_b']);
  });

  test('the default is taken like a case; with no branch taken every target is skipped', () => {
    expect(untakenBranches(s, statesOf(graph, { s: { status: 'completed', output: { branch: 'd', case: null } } }))).toEqual(['a', 'b']);
    expect(untakenBranches(s, statesOf(graph, { s: { status: 'completed', output: { branch: null, case: null } } }))).toEqual(['a', 'b', 'd']);
  });

  test('other node types choose no branch', () => {
    expect(untakenBranches(graph.nodes.get('a')!, statesOf(graph, { a: 'completed' }))).toEqual([]);
  });
});

describe('decide: parallel nodes', () => {
  const graph = graphOf([parallel('p', { b1: ['x'], b2: ['y'] }), tool('x'), tool('y'), tool('after')], ['p>after']);

  test('opening a parallel node starts its branches in the same call; its successor waits for the join', () => {
    expect(decided(graph, statesOf(graph))).toEqual(['openParallel p', 'start x', 'start y']);
    expect(decided(graph, statesOf(graph, { p: 'running', x: 'completed', y: 'running' }))).toEqual([]);
  });

  test('a completed join lets its successor start in the same call', () => {
    expect(decided(graph, statesOf(graph, { p: 'running', x: 'completed', y: 'completed' }))).toEqual(['completeJoin p', 'start after']);
  });

  test('a failed join skips its successor', () => {
    expect(decided(graph, statesOf(graph, { p: 'running', x: 'failed', y: 'running' }))).toEqual(['failJoin p', 'skip after']);
  });

  test('a member listed before its parallel node is started in the next pass', () => {
    const reversed = graphOf([tool('x'), parallel('p', { b1: ['x'] })]);
    expect(decided(reversed, statesOf(reversed))).toEqual(['openParallel p', 'start x']);
  });
});

describe('decide: concurrency cap (maxConcurrentNodes)', () => {
  const graph = graphOf([tool('a'), tool('b'), tool('c'), parallel('p', { b1: ['m'] }), tool('m'), tool('s'), tool('z')], ['z>s']);

  test('starts only as many nodes as the cap leaves room for, counting those already in flight', () => {
    expect(decided(graph, statesOf(graph, { z: 'completed' }), { inFlight: 0, maxConcurrentNodes: 2 })).toEqual(['start a', 'start b', 'openParallel p']);
    expect(decided(graph, statesOf(graph, { z: 'completed' }), { inFlight: 1, maxConcurrentNodes: 2 })).toEqual(['start a', 'openParallel p']);
  });

  test('at the cap, skips and parallel openings still happen; nothing starts', () => {
    const states = statesOf(graph, { z: 'failed' });
    expect(decided(graph, states, { inFlight: 2, maxConcurrentNodes: 2 })).toEqual(['openParallel p', 'skip s']);
  });
});

describe('decide: reused states (a retry of an earlier run)', () => {
  const graph = graphOf([tool('a'), tool('b'), tool('c')], ['a>b', 'b>c']);

  test('reused completed nodes are not run again; their successors start', () => {
    const reused = { status: 'completed', via: 'reused', output: { v: 1 } } as const;
    expect(decided(graph, statesOf(graph, { a: reused, b: reused }))).toEqual(['start c']);
  });
});

describe('decide is pure', () => {
  test('the states passed in are not changed; the same input gives the same actions', () => {
    const graph = graphOf([parallel('p', { b1: ['x'], b2: ['y'] }, 'wait_any'), tool('x'), tool('y'), tool('q')], ['x>q']);
    const states = statesOf(graph, { p: 'running', x: 'completed' });
    const before = structuredClone(states);
    const first = decide(graph, states, idle);
    expect(states).toEqual(before);
    expect(decide(graph, states, idle)).toEqual(first);
    expect(brief(first)).toEqual(['completeJoin p', 'start q']);
  });
});
