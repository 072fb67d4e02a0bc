import type { NodeDef } from '../model';
import type { TypedConfig } from '../nodeConfig';
import { specOf, type NodeBodies } from '../nodeTypes';
import type { ReferenceScope } from './references';
import type { ValidationEnv } from './types';

export type { NodeBodies };

/**
 * What each valid node does, checked against the graph by its type's entry (lib/dag/nodeTypes.ts): references,
 * tool configs, templates, secret references, loops and subworkflow calls. Node by node, in node order.
 */
export function nodeBodyChecks(
  nodes: readonly NodeDef[],
  configs: ReadonlyMap<string, TypedConfig>,
  nodeIds: ReadonlySet<string>,
  scope: ReferenceScope,
  env: ValidationEnv,
  nodePath: (id: string) => string,
): NodeBodies {
  const result: NodeBodies = { problems: [], subworkflows: [] };
  for (const node of nodes) {
    const typed = configs.get(node.id);
    if (!typed) continue;
    const checked = specOf(typed.type).checkBody({ node, config: typed.config, nodeIds, scope, env, base: nodePath(node.id) });
    result.problems.push(...checked.problems);
    result.subworkflows.push(...checked.subworkflows);
  }
  return result;
}
