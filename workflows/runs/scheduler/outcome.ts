import type { SchedulerGraph, SchedulerStates } from './state';

/**
 * Which failed nodes fail the run (docs/runs.md#joins). A failure fails the run unless it was handled:
 * - dead-lettered (`via: 'dead_letter'`): the failure was put aside for a replay;
 * - in a branch of a parallel node whose join was met (the parallel node completed): the join no longer needed that
 *   branch (`wait_any` after another branch completed, `wait_n` with n others), like a rejected promise that
 *   `Promise.any` does not need. The failure stays in the node's state and in the run's `errors`.
 */
export function failuresFailingTheRun(graph: SchedulerGraph, states: SchedulerStates): string[] {
  const tolerated = toleratedFailures(graph, states);
  return graph.order.filter((id) => {
    const s = states[id]!;
    return s.status === 'failed' && s.via !== 'dead_letter' && !tolerated.has(id);
  });
}

/** Failed members of the branches of completed parallel nodes: failures their join did not need. */
export function toleratedFailures(graph: SchedulerGraph, states: SchedulerStates): Set<string> {
  const tolerated = new Set<string>();
  for (const id of graph.order) {
    const node = graph.nodes.get(id)!;
    if (node.type !== 'parallel' || states[id]!.status !== 'completed') continue;
    for (const branch of node.config.branches) {
      for (const member of branch.nodes) if (states[member]?.status === 'failed') tolerated.add(member);
    }
  }
  return tolerated;
}
