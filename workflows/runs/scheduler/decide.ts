import { settleJoin, type JoinDecision } from './join';
import { readiness } from './readiness';
import type { SchedulerGraph, SchedulerState, SchedulerStates } from './state';

/**
 * The interpreter's scheduling decisions as a pure function: given the graph and the node states, what happens
 * now. The interpreter applies the actions in the order given (it does the I/O: activities, child workflows,
 * cancellation scopes), so node states and the order of commands are those of a live loop over the states.
 */

export type SchedulerAction =
  /** finish the pending node as skipped */
  | { kind: 'skip'; node: string }
  /** mark the parallel node running: its branches' members may start */
  | { kind: 'openParallel'; node: string }
  /** execute the node (tool, condition, loop or subworkflow) */
  | { kind: 'start'; node: string }
  | JoinDecision;

export interface DecideOptions {
  /** nodes executing now */
  inFlight: number;
  /** at most this many nodes execute at once; a ready node beyond it stays pending for a later call */
  maxConcurrentNodes: number;
}

/** The status (and a join's output) each action leaves behind; cancelled members only when still pending. */
function applyAction(states: Record<string, SchedulerState>, action: SchedulerAction): void {
  const state = states[action.node]!;
  switch (action.kind) {
    case 'skip':
      state.status = 'skipped';
      return;
    case 'openParallel':
    case 'start':
      state.status = 'running';
      return;
    case 'completeJoin':
      for (const member of action.cancel) if (states[member]!.status === 'pending') states[member]!.status = 'cancelled';
      state.status = 'completed';
      state.output = action.output;
      return;
    case 'failJoin':
      state.status = 'failed';
      return;
  }
}

/**
 * Decides every node that can be decided now, in graph order, pass after pass until nothing changes (a skip or a
 * join can unblock a node earlier in the order). Each decision sees the ones before it, as the live loop did.
 */
export function decide(graph: SchedulerGraph, states: SchedulerStates, options: DecideOptions): SchedulerAction[] {
  const working: Record<string, SchedulerState> = {};
  for (const id of graph.order) {
    const { status, via, output } = states[id]!;
    working[id] = { status, via, output };
  }
  const actions: SchedulerAction[] = [];
  const take = (action: SchedulerAction): void => {
    applyAction(working, action);
    actions.push(action);
  };
  let inFlight = options.inFlight;
  let changed = true;
  while (changed) {
    changed = false;
    for (const id of graph.order) {
      const node = graph.nodes.get(id)!;
      const status = working[id]!.status;
      if (status === 'running' && node.type === 'parallel') {
        const join = settleJoin(node, working);
        if (join) {
          take(join);
          changed = true;
        }
        continue;
      }
      if (status !== 'pending') continue;
      const ready = readiness(graph, working, id);
      if (ready === 'wait') continue;
      if (ready === 'skip') {
        take({ kind: 'skip', node: id });
        changed = true;
      } else if (node.type === 'parallel') {
        take({ kind: 'openParallel', node: id });
        changed = true;
      } else if (inFlight < options.maxConcurrentNodes) {
        take({ kind: 'start', node: id });
        inFlight++;
        changed = true;
      }
    }
  }
  return actions;
}
