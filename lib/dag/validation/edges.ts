import { edgeSchema, type Edge } from '../model';
import { zodProblems } from '../nodeConfig';
import { echo } from '../../echo';
import type { Problem } from '../problems';
import type { DagPaths } from './paths';
import type { Checked } from './types';

export const MAX_EDGES = 10_000;

/** The declared edges: each well-shaped, between existing nodes, once. Only the valid ones are kept. */
export function parseEdges(raw: unknown, mentionedIds: ReadonlySet<string>, paths: DagPaths): Checked<Edge[]> {
  const list = raw ?? [];
  if (!Array.isArray(list)) return { value: [], problems: [{ path: paths.at('edges'), problem: 'must be an array' }] };
  const problems: Problem[] = [];
  const edges: Edge[] = [];
  if (list.length > MAX_EDGES) problems.push({ path: paths.at('edges'), problem: `at most ${MAX_EDGES} edges` });
  const seen = new Set<string>();
  list.slice(0, MAX_EDGES).forEach((item, i) => {
    const path = paths.at(`edges[${i}]`);
    const parsed = edgeSchema.safeParse(item);
    if (!parsed.success) {
      problems.push(...zodProblems(parsed.error, path, edgeSchema));
      return;
    }
    const edge = parsed.data;
    const unknownEnds = (['from', 'to'] as const)
      .filter((end) => !mentionedIds.has(edge[end]))
      .map((end) => ({ path: `${path}.${end}`, problem: `unknown node "${echo(edge[end])}"` }));
    problems.push(...unknownEnds);
    const ok = unknownEnds.length === 0;
    const key = `${edge.from}\u0000${edge.to}`;
    if (ok && seen.has(key)) problems.push({ path, problem: `duplicate edge ${edge.from} -> ${edge.to}` });
    seen.add(key);
    if (ok) edges.push(edge);
  });
  return { value: edges, problems };
}
