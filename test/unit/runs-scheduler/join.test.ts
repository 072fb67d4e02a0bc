import { decide } from '../../../workflows/runs/scheduler/decide';
import { branchesNeeded, settleJoin } from '../../../workflows/runs/scheduler/join';
import type { ParallelConfig } from '../../../workflows/runs/graph';
import { graphOf, parallel, statesOf, tool } from './fixtures';

/** Joins of parallel nodes (workflows/runs/scheduler/join.ts): wait_all, wait_any, wait_n; cancel lists; JOIN_FAILED. */

const members = [tool('x'), tool('y'), tool('z')];
const three = (joinStrategy: string, n?: number) => graphOf([parallel('p', { b1: ['x'], b2: ['y'], b3: ['z'] }, joinStrategy, n), ...members]);
const parallelOf = (graph: ReturnType<typeof graphOf>) => {
  const node = graph.nodes.get('p')!;
  if (node.type !== 'parallel') throw new Error('p is not a parallel node');
  return node;
};
const settle = (joinStrategy: string, given: Parameters<typeof statesOf>[1], n?: number) => {
  const graph = three(joinStrategy, n);
  return settleJoin(parallelOf(graph), statesOf(graph, { p: 'running', ...given }));
};

describe('wait_all', () => {
  test('undecided while a branch is open', () => {
    expect(settle('wait_all', { x: 'completed', y: 'completed', z: 'running' })).toBeNull();
  });

  test('completes with every branch, outputs by branch and member; skipped members count as completed', () => {
    expect(settle('wait_all', { x: { status: 'completed', output: 1 }, y: { status: 'completed', output: 2 }, z: 'skipped' })).toEqual({
      kind: 'completeJoin',
      node: 'p',
      output: { branches: { b1: { x: 1 }, b2: { y: 2 }, b3: { z: null } }, completed: ['b1', 'b2', 'b3'] },
      cancel: [],
    });
  });

  test('fails as soon as one branch failed or was cancelled, without waiting for the others', () => {
    expect(settle('wait_all', { x: 'failed', y: 'running', z: 'pending' })).toEqual({
      kind: 'failJoin',
      node: 'p',
      failure: { code: 'JOIN_FAILED', message: 'wait_all needs 3 completed branches; 1 failed or were cancelled', attempts: 1 },
      // the branches still open can no longer help: they are cancelled (FAILED_JOIN_CANCELS_PATCH)
      cancel: ['y', 'z'],
    });
    expect(settle('wait_all', { x: 'cancelled', y: 'completed', z: 'completed' })?.kind).toBe('failJoin');
  });
});

describe('wait_any', () => {
  test('completes with the first completed branch and cancels every member of the open ones', () => {
    expect(settle('wait_any', { x: 'running', y: { status: 'completed', output: 'y!' }, z: 'pending' })).toEqual({
      kind: 'completeJoin',
      node: 'p',
      output: { branches: { b2: { y: 'y!' } }, completed: ['b2'] },
      cancel: ['x', 'z'],
    });
  });

  test('fails when every branch failed', () => {
    expect(settle('wait_any', { x: 'failed', y: 'failed', z: 'cancelled' })).toMatchObject({
      kind: 'failJoin',
      failure: { message: 'wait_any needs 1 completed branches; 3 failed or were cancelled' },
    });
  });

  test('a branch is open while any of its members is', () => {
    const graph = graphOf([parallel('p', { b1: ['x', 'y'], b2: ['z'] }, 'wait_any'), ...members]);
    const node = parallelOf(graph);
    expect(settleJoin(node, statesOf(graph, { p: 'running', x: 'completed', y: 'running', z: 'running' }))).toBeNull();
    expect(settleJoin(node, statesOf(graph, { p: 'running', x: 'completed', y: 'running', z: 'completed' }))).toMatchObject({ cancel: ['x', 'y'] });
  });
});

describe('wait_n', () => {
  test('completes with n branches, cancelling the rest', () => {
    expect(settle('wait_n', { x: 'completed', y: 'running', z: 'completed' }, 2)).toMatchObject({
      kind: 'completeJoin',
      output: { completed: ['b1', 'b3'] },
      cancel: ['y'],
    });
  });

  test('undecided while n can still be reached; fails once it cannot', () => {
    expect(settle('wait_n', { x: 'completed', y: 'failed', z: 'running' }, 2)).toBeNull();
    expect(settle('wait_n', { x: 'failed', y: 'failed', z: 'running' }, 2)).toMatchObject({
      kind: 'failJoin',
      failure: { message: 'wait_n needs 2 completed branches; 2 failed or were cancelled' },
      cancel: ['z'],
    });
  });

  test('branchesNeeded: all, one, n (at most the number of branches; all when n is absent)', () => {
    const branches = [{ id: 'a', nodes: [] }, { id: 'b', nodes: [] }];
    const config = (joinStrategy: ParallelConfig['joinStrategy'], n?: number): ParallelConfig => ({ branches, joinStrategy, ...(n ? { n } : {}) });
    expect(branchesNeeded(config('wait_all'))).toBe(2);
    expect(branchesNeeded(config('wait_any'))).toBe(1);
    expect(branchesNeeded(config('wait_n', 1))).toBe(1);
    expect(branchesNeeded(config('wait_n', 5))).toBe(2);
    expect(branchesNeeded(config('wait_n'))).toBe(2);
  });
});

describe('joins inside decide', () => {
  test('cancelled pending members are not started afterwards in the same call', () => {
    const graph = graphOf([parallel('p', { b1: ['x'], b2: ['y'] }, 'wait_any'), tool('x'), tool('y')]);
    const actions = decide(graph, statesOf(graph, { p: 'running', x: 'completed' }), { inFlight: 0, maxConcurrentNodes: 10 });
    expect(actions).toEqual([
      { kind: 'completeJoin', node: 'p', output: { branches: { b1: { x: null } }, completed: ['b1'] }, cancel: ['y'] },
    ]);
  });

  test('an outer join completed in the same call reads the output of an inner join decided before it', () => {
    const graph = graphOf([parallel('inner', { i1: ['x'] }), parallel('outer', { o1: ['inner'] }), tool('x')]);
    const actions = decide(graph, statesOf(graph, { outer: 'running', inner: 'running', x: { status: 'completed', output: 7 } }), {
      inFlight: 0,
      maxConcurrentNodes: 10,
    });
    expect(actions.map((a) => a.kind === 'completeJoin' && [a.node, a.output])).toEqual([
      ['inner', { branches: { i1: { x: 7 } }, completed: ['i1'] }],
      ['outer', { branches: { o1: { inner: { branches: { i1: { x: 7 } }, completed: ['i1'] } } }, completed: ['o1'] }],
    ]);
  });
});
