import type { Problem } from '../problems';
import type { DagPaths } from './paths';

/** Graphs larger than this are refused before any node is read. */
export const MAX_NODES = 2000;
const DAG_FIELDS = new Set(['nodes', 'edges', 'entryPoints', 'exitPoints']);

export type DagObject =
  /** `stop`: nothing more can be checked (not an object, or too many nodes to read) */
  | { stop: true; problems: Problem[] }
  | { stop: false; dag: Record<string, unknown>; rawNodes: unknown[]; problems: Problem[] };

/** The graph's outer shape: an object with known fields and between 1 and MAX_NODES nodes. */
export function checkDagObject(raw: unknown, dagPath: string, paths: DagPaths): DagObject {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return { stop: true, problems: [{ path: dagPath || 'nodes', problem: 'required: an object with nodes and edges' }] };
  }
  const dag = raw as Record<string, unknown>;
  const problems: Problem[] = [];
  for (const key of Object.keys(dag)) {
    if (!DAG_FIELDS.has(key)) problems.push({ path: paths.at(key), problem: 'unknown field' });
  }
  const rawNodes = Array.isArray(dag.nodes) ? dag.nodes : null;
  if (!rawNodes || rawNodes.length === 0) problems.push({ path: paths.at('nodes'), problem: 'at least one node is required' });
  if (rawNodes && rawNodes.length > MAX_NODES) {
    problems.push({ path: paths.at('nodes'), problem: `at most ${MAX_NODES} nodes` });
    return { stop: true, problems };
  }
  return { stop: false, dag, rawNodes: rawNodes ?? [], problems };
}
