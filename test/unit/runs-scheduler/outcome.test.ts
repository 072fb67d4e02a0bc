import { failuresFailingTheRun, toleratedFailures } from '../../../workflows/runs/scheduler/outcome';
import { graphOf, parallel, statesOf, tool } from './fixtures';

/** Which node failures fail the run (workflows/runs/scheduler/outcome.ts, docs/runs.md#joins). */

const members = [tool('x'), tool('y'), tool('z'), tool('after')];
const fan = (joinStrategy: string, n?: number) =>
  graphOf([parallel('p', { b1: ['x'], b2: ['y'], b3: ['z'] }, joinStrategy, n), ...members], ['p>after']);

describe('failures a met join no longer needs', () => {
  test('wait_any met by one branch: the failed branch does not fail the run, and stays failed', () => {
    const graph = fan('wait_any');
    const states = statesOf(graph, { p: 'completed', x: 'completed', y: 'failed', z: 'cancelled', after: 'completed' });
    expect([...toleratedFailures(graph, states)]).toEqual(['y']);
    expect(failuresFailingTheRun(graph, states)).toEqual([]);
    expect(states.y!.status).toBe('failed');
  });

  test('wait_n met by n branches tolerates the others; a member failure of a multi-node branch too', () => {
    const graph = graphOf([parallel('p', { b1: ['x'], b2: ['y', 'z'], b3: ['after'] }, 'wait_n', 2), tool('x'), tool('y'), tool('z'), tool('after')], ['y>z']);
    const states = statesOf(graph, { p: 'completed', x: 'completed', y: 'failed', z: 'skipped', after: 'completed' });
    expect(failuresFailingTheRun(graph, states)).toEqual([]);
  });

  test('an unmet join: the branch failures and the join fail the run', () => {
    const graph = fan('wait_n', 2);
    const states = statesOf(graph, { p: 'failed', x: 'completed', y: 'failed', z: 'failed', after: 'skipped' });
    expect(toleratedFailures(graph, states).size).toBe(0);
    expect(failuresFailingTheRun(graph, states).sort()).toEqual(['p', 'y', 'z']);
  });

  test('failures outside the branches of a met join still fail the run; dead-lettered ones never do', () => {
    const graph = graphOf([parallel('p', { b1: ['x'], b2: ['y'] }, 'wait_any'), tool('x'), tool('y'), tool('z'), tool('w')]);
    const states = statesOf(graph, {
      p: 'completed',
      x: 'completed',
      y: 'failed',
      z: 'failed',
      w: { status: 'failed', via: 'dead_letter' },
    });
    expect(failuresFailingTheRun(graph, states)).toEqual(['z']);
  });

  test('a failure while the join is still open is not tolerated (yet)', () => {
    const graph = fan('wait_any');
    const states = statesOf(graph, { p: 'running', x: 'running', y: 'failed', z: 'running' });
    expect(failuresFailingTheRun(graph, states)).toEqual(['y']);
  });
});
