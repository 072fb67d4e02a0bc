import { NODE_ID } from '../model';
import type { Problem } from '../problems';
import { deriveEntryPoints, deriveExitPoints, type DagStructure } from '../structure';
import type { DagPaths } from './paths';
import type { Checked } from './types';

export type PointKind = 'entryPoints' | 'exitPoints';

/** A declared list of entry or exit points: absent (null), or a non-empty array of node ids. */
export function parsePointList(raw: unknown, path: string): Checked<string[] | null> {
  if (raw === undefined || raw === null) return { value: null, problems: [] };
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string' || !NODE_ID.test(v))) {
    return { value: null, problems: [{ path, problem: 'must be an array of node ids' }] };
  }
  if (raw.length === 0) return { value: null, problems: [{ path, problem: 'must not be empty (omit it to derive it)' }] };
  return { value: raw as string[], problems: [] };
}

/**
 * Declared points against the graph: known nodes; entry points without predecessors, and every node without
 * predecessors listed (or it would never run); exit points outside parallel branches.
 */
export function pointProblems(
  kind: PointKind,
  points: readonly string[],
  structure: DagStructure,
  nodeIds: ReadonlySet<string>,
  path: string,
): Problem[] {
  const problems: Problem[] = [];
  points.forEach((id, i) => {
    const at = `${path}[${i}]`;
    if (!nodeIds.has(id)) problems.push({ path: at, problem: `unknown node "${id}"` });
    else if (kind === 'entryPoints') {
      const preds = structure.graph.predecessors.get(id)!;
      if (preds.length) problems.push({ path: at, problem: `"${id}" has predecessors (${preds.join(', ')})` });
    } else if (structure.parallelOf.has(id)) {
      problems.push({ path: at, problem: `"${id}" is a branch node of "${structure.parallelOf.get(id)}"` });
    }
  });
  if (kind === 'entryPoints') {
    for (const id of deriveEntryPoints(structure)) {
      if (!points.includes(id)) problems.push({ path, problem: `"${id}" has no predecessors but is not an entry point` });
    }
  }
  return problems;
}

export interface EntryAndExitPoints {
  /** as declared (null when absent or invalid) */
  entryPoints: string[] | null;
  exitPoints: string[] | null;
  /** as the graph implies, used when none are declared */
  derivedEntries: string[];
  derivedExits: string[];
}

/** The declared entry and exit points checked, the derived ones computed, and a graph with no entry refused. */
export function checkEntryAndExitPoints(
  dag: Record<string, unknown>,
  structure: DagStructure,
  nodeIds: ReadonlySet<string>,
  paths: DagPaths,
): Checked<EntryAndExitPoints> {
  const entryPath = paths.at('entryPoints');
  const exitPath = paths.at('exitPoints');
  const entries = parsePointList(dag.entryPoints, entryPath);
  const exits = parsePointList(dag.exitPoints, exitPath);
  const derivedEntries = deriveEntryPoints(structure);
  const problems = [
    ...entries.problems,
    ...exits.problems,
    ...(entries.value ? pointProblems('entryPoints', entries.value, structure, nodeIds, entryPath) : []),
    ...(exits.value ? pointProblems('exitPoints', exits.value, structure, nodeIds, exitPath) : []),
  ];
  if (!entries.value && derivedEntries.length === 0 && nodeIds.size > 0) {
    problems.push({ path: entryPath, problem: 'the graph has no entry point (every node has a predecessor)' });
  }
  const value = { entryPoints: entries.value, exitPoints: exits.value, derivedEntries, derivedExits: deriveExitPoints(structure) };
  return { value, problems };
}
