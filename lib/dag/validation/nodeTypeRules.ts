import type { NodeDef } from '../model';
import type { TypedConfig } from '../nodeConfig';
import { specOf } from '../nodeTypes';
import type { Problem } from '../problems';
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
    const rules = typed && specOf(typed.type).graphRules;
    if (!typed || !rules) continue;
    problems.push(...rules({ nodeId: node.id, config: typed.config, base: paths.node(node.id), mentionedIds, env, branchOwner }));
  }
  return problems;
}
