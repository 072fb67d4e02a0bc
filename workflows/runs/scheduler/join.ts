import type { ParallelConfig } from '../graph';
import { isOpen, type SchedulerStates } from './state';

/** A parallel node's output: each completed branch's member outputs, and the ids of the completed branches. */
export interface JoinOutput {
  branches: Record<string, Record<string, unknown>>;
  completed: string[];
}

/** Same shape as execute.ts's NodeFailure (not imported: that module pulls in the Temporal workflow API). */
export interface JoinFailure {
  code: 'JOIN_FAILED';
  message: string;
  attempts: 1;
}

export type JoinDecision =
  /** `cancel`: every member of the branches still open, in branch order; they lose the race. */
  | { kind: 'completeJoin'; node: string; output: JoinOutput; cancel: string[] }
  /** `cancel`: every member of the branches still open, in branch order; they can no longer help (FAILED_JOIN_CANCELS_PATCH). */
  | { kind: 'failJoin'; node: string; failure: JoinFailure; cancel: string[] };

type BranchVerdict = 'open' | 'ok' | 'bad';

/** A branch is open while a member is; it counts as completed when every member completed or was skipped. */
function branchVerdict(members: string[], states: SchedulerStates): BranchVerdict {
  const memberStates = members.map((id) => states[id]!);
  if (memberStates.some((s) => isOpen(s.status))) return 'open';
  return memberStates.every((s) => s.status === 'completed' || s.status === 'skipped') ? 'ok' : 'bad';
}

/** Completed branches the join strategy needs: all, one, or `n` (at most the number of branches). */
export function branchesNeeded(config: ParallelConfig): number {
  const { branches, joinStrategy, n } = config;
  if (joinStrategy === 'wait_all') return branches.length;
  if (joinStrategy === 'wait_any') return 1;
  return Math.min(n ?? branches.length, branches.length);
}

/**
 * The join of a running parallel node: completed once enough branches completed (the open ones are cancelled),
 * failed once too few can still complete, otherwise undecided (null).
 */
export function settleJoin(node: { id: string; config: ParallelConfig }, states: SchedulerStates): JoinDecision | null {
  const { branches, joinStrategy } = node.config;
  const verdicts = branches.map((branch) => branchVerdict(branch.nodes, states));
  const ok = verdicts.filter((v) => v === 'ok').length;
  const open = verdicts.filter((v) => v === 'open').length;
  const need = branchesNeeded(node.config);
  const cancel = branches.flatMap((branch, i) => (verdicts[i] === 'open' ? branch.nodes : []));
  if (ok >= need) {
    const output: JoinOutput = { branches: {}, completed: [] };
    branches.forEach((branch, i) => {
      if (verdicts[i] !== 'ok') return;
      output.completed.push(branch.id);
      output.branches[branch.id] = Object.fromEntries(branch.nodes.map((id) => [id, states[id]!.output]));
    });
    return { kind: 'completeJoin', node: node.id, output, cancel };
  }
  if (ok + open < need) {
    return {
      kind: 'failJoin',
      node: node.id,
      failure: {
        code: 'JOIN_FAILED',
        message: `${joinStrategy} needs ${need} completed branches; ${branches.length - ok - open} failed or were cancelled`,
        attempts: 1,
      },
      cancel,
    };
  }
  return null;
}
