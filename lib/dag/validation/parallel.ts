import type { ParallelConfig } from '../nodeConfig';
import type { Problem } from '../problems';

/**
 * A parallel node's branches: unique branch ids, members that are other nodes, each member in one branch of one
 * parallel node. `branchOwner` (member -> parallel node) is shared by the graph's parallel nodes, in node order:
 * this records the members this node claims.
 */
export function parallelBranchProblems(
  nodeId: string,
  config: ParallelConfig,
  base: string,
  mentionedIds: ReadonlySet<string>,
  branchOwner: Map<string, string>,
): Problem[] {
  const problems: Problem[] = [];
  const branchIds = new Set<string>();
  config.branches.forEach((branch, b) => {
    const bp = `${base}.config.branches[${b}]`;
    if (branchIds.has(branch.id)) problems.push({ path: `${bp}.id`, problem: `duplicate branch id "${branch.id}"` });
    branchIds.add(branch.id);
    branch.nodes.forEach((member, m) => {
      const mp = `${bp}.nodes[${m}]`;
      const owner = branchOwner.get(member);
      if (!mentionedIds.has(member)) problems.push({ path: mp, problem: `unknown node "${member}"` });
      else if (member === nodeId) problems.push({ path: mp, problem: 'a parallel node cannot contain itself' });
      else if (owner !== undefined) problems.push({ path: mp, problem: `"${member}" is already a branch node of "${owner}"` });
      else branchOwner.set(member, nodeId);
    });
  });
  return problems;
}

/** `n` goes with joinStrategy wait_n, and cannot exceed the number of branches. */
export function parallelJoinProblems(config: ParallelConfig, base: string): Problem[] {
  const { branches, joinStrategy, n } = config;
  const path = `${base}.config.n`;
  if (joinStrategy !== 'wait_n') return n === undefined ? [] : [{ path, problem: 'only used with joinStrategy wait_n' }];
  if (n === undefined) return [{ path, problem: 'required for joinStrategy wait_n' }];
  if (n > branches.length) return [{ path, problem: `n (${n}) exceeds the ${branches.length} branches` }];
  return [];
}
