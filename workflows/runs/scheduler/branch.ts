import type { ConditionConfig } from '../graph';
import type { SchedulerStates } from './state';

/**
 * The branch a completed condition did not take, when it is still pending and so must be skipped (its skip then
 * propagates through the scheduler). None when both branches name the same node, or the branch already moved on.
 */
export function untakenBranch(node: { id: string; config: ConditionConfig }, states: SchedulerStates): string | null {
  const result = (states[node.id]!.output as { result?: boolean } | null)?.result;
  const notTaken = result ? node.config.falseBranch : node.config.trueBranch;
  const taken = result ? node.config.trueBranch : node.config.falseBranch;
  if (notTaken && notTaken !== taken && states[notTaken]?.status === 'pending') return notTaken;
  return null;
}
