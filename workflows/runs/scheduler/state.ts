import type { NodeState } from '../../../lib/dag/model';
import type { RunGraph } from '../graph';

/**
 * What the scheduler reads: the graph's dependency structure and, per node, its status, how a failure was handled
 * (`via`) and its output (a join collects its branches' outputs). Pure types and helpers: no Temporal imports, so
 * the scheduler runs in unit tests as it runs in the workflow.
 */

export type SchedulerGraph = Pick<RunGraph, 'order' | 'nodes' | 'preds' | 'startPreds'>;

export type SchedulerState = Pick<NodeState, 'status' | 'via' | 'output'>;

export type SchedulerStates = Readonly<Record<string, SchedulerState>>;

/** A node that has not finished: still waiting to start, or started and not settled. */
export function isOpen(status: NodeState['status']): boolean {
  return status === 'pending' || status === 'running';
}
