import { branchTargets, type TypedNode } from '../graph';
import type { SchedulerStates } from './state';

/**
 * The branches a completed condition or switch did not take that are still pending, and so must be skipped (their
 * skips then propagate through the scheduler): every target but the one taken (`output.branch`; a condition's
 * older outputs say only `result`). None for other node types, or when a branch already moved on.
 */
export function untakenBranches(node: TypedNode, states: SchedulerStates): string[] {
  const targets = branchTargets(node);
  if (!targets.length) return [];
  const output = states[node.id]!.output as { result?: boolean; branch?: string | null } | null;
  let taken: string | null | undefined;
  if (node.type === 'condition') taken = output?.result ? node.config.trueBranch : node.config.falseBranch;
  else taken = output?.branch;
  return [...new Set(targets)].filter((target) => target !== taken && states[target]?.status === 'pending');
}
