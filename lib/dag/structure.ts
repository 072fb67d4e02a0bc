import { buildGraph, sinks, sources, type Graph } from './graph';
import type { Edge } from './model';
import type { TypedConfig } from './nodeConfig';
import { specOf } from './nodeTypes';

/**
 * The dependency graph a run follows, derived from the declared edges plus the edges node types imply:
 * - a node that chooses a branch (a condition C, lib/dag/nodeTypes.ts `branchTargets`): C -> trueBranch, C -> falseBranch;
 * - parallel P with branch nodes B: P -> b for every b in B (they start when P starts), and b -> S for every
 *   successor S of P (successors wait for the join). The join strategy decides at run time when P is done.
 * Branch members are "inside" their parallel node: they are never entry or exit points themselves.
 */
export interface DagStructure {
  graph: Graph;
  /** declared + implied edges */
  edges: Edge[];
  /** branch member -> its parallel node */
  parallelOf: Map<string, string>;
}

export function dependencyStructure(
  nodeIds: string[],
  declaredEdges: Edge[],
  configs: Map<string, TypedConfig>,
): DagStructure {
  const known = new Set(nodeIds);
  const edges: Edge[] = declaredEdges.filter((e) => known.has(e.from) && known.has(e.to));
  const parallelOf = new Map<string, string>();
  for (const [id, typed] of configs) {
    const targets = specOf(typed.type).branchTargets?.(typed.config) ?? [];
    for (const target of targets) if (target && known.has(target)) edges.push({ from: id, to: target });
  }
  for (const [id, typed] of configs) {
    if (typed.type !== 'parallel') continue;
    const members = typed.config.branches.flatMap((b) => b.nodes).filter((n) => known.has(n) && n !== id);
    const after = declaredEdges.filter((e) => e.from === id && known.has(e.to)).map((e) => e.to);
    for (const member of members) {
      parallelOf.set(member, id);
      edges.push({ from: id, to: member });
      for (const successor of after) edges.push({ from: member, to: successor });
    }
  }
  return { graph: buildGraph(nodeIds, edges), edges, parallelOf };
}

/** Entry points when none are declared: nodes without predecessors. */
export function deriveEntryPoints(structure: DagStructure): string[] {
  return sources(structure.graph).filter((n) => !structure.parallelOf.has(n));
}

/**
 * Exit points when none are declared: nodes without successors (the run's `results` are their outputs). A branch
 * member's successors are its parallel node's, so a parallel block at the end exits through the parallel node.
 */
export function deriveExitPoints(structure: DagStructure): string[] {
  const exits = new Set(sinks(structure.graph).filter((n) => !structure.parallelOf.has(n)));
  for (const parallel of new Set(structure.parallelOf.values())) {
    const hasOwnSuccessors = structure.graph.successors
      .get(parallel)!
      .some((s) => structure.parallelOf.get(s) !== parallel);
    if (!hasOwnSuccessors) exits.add(parallel);
  }
  return structure.graph.nodes.filter((n) => exits.has(n));
}
