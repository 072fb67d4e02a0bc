import { isOpen, type SchedulerGraph, type SchedulerStates } from './state';

export type Readiness = 'wait' | 'run' | 'skip';

/**
 * Whether a pending node can be decided now (docs/runs.md):
 * - it waits while a predecessor is open, or while a parallel node listing it in a branch has not started;
 * - an unhandled failure of a predecessor skips it (a dead-lettered failure does not: it was handled);
 * - otherwise it runs when at least one predecessor completed (or a parallel node containing it started), and is
 *   skipped when none did (every predecessor was skipped or cancelled: skips propagate);
 * - a node without predecessors runs.
 */
export function readiness(graph: SchedulerGraph, states: SchedulerStates, id: string): Readiness {
  const preds = graph.preds.get(id)!;
  const starts = graph.startPreds.get(id)!;
  if (preds.length === 0 && starts.length === 0) return 'run';
  let anyCompleted = false;
  for (const p of preds) {
    const s = states[p]!;
    if (isOpen(s.status)) return 'wait';
    if (s.status === 'failed' && s.via !== 'dead_letter') return 'skip';
    if (s.status === 'completed') anyCompleted = true;
  }
  for (const p of starts) {
    const s = states[p]!.status;
    if (s === 'pending') return 'wait';
    if (s === 'running' || s === 'completed') anyCompleted = true;
  }
  return anyCompleted ? 'run' : 'skip';
}
