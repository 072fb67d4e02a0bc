import { findCycles } from '../graph';
import type { Problem } from '../problems';
import type { DagStructure } from '../structure';
import type { DagPaths } from './paths';

/** Every cycle of the dependency graph (declared and implied edges), named at its first node. */
export function cycleProblems(structure: DagStructure, paths: DagPaths): Problem[] {
  return findCycles(structure.graph).map((cycle) => ({ path: paths.node(cycle[0]!), problem: `cycle: ${cycle.join(' -> ')}` }));
}
