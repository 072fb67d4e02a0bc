import type { NodeDef } from '../model';
import type { TypedConfig } from '../nodeConfig';
import type { Problem } from '../problems';
import { conditionProblems } from './conditions';
import { parallelBranchProblems, parallelJoinProblems } from './parallel';
import type { DagPaths } from './paths';
import type { ValidationEnv } from './types';

/** The rules of node types that need the set of nodes (condition branches, parallel members), node by node. */
export function nodeTypeProblems(
  nodes: readonly NodeDef[],
  configs: ReadonlyMap<string, TypedConfig>,
  mentionedIds: ReadonlySet<string>,
  paths: DagPaths,
  env: Pick<ValidationEnv, 'expressionProblems'>,
): Problem[] {
  const problems: Problem[] = [];
  const branchOwner = new Map<string, string>();
  for (const node of nodes) {
    const typed = configs.get(node.id);
    const base = paths.node(node.id);
    if (typed?.type === 'condition') problems.push(...conditionProblems(node.id, typed.config, base, mentionedIds, env));
    if (typed?.type === 'parallel') {
      problems.push(...parallelBranchProblems(node.id, typed.config, base, mentionedIds, branchOwner));
      problems.push(...parallelJoinProblems(typed.config, base));
    }
  }
  return problems;
}
