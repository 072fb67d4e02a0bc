/**
 * The names under which a workflow reads its run parameters: `params`, and `parameters` as its alias. Both work
 * wherever a parameter can be named: a `from` reference (`params.x`, `parameters.x`), a loop's `items`, and a
 * `${...}` expression (docs/workflows.md, "Parameter references").
 *
 * One list, read by the save-time checks (./references.ts, lib/expressions/templates.ts), the run-time resolution
 * (activities/runs/resolve.ts) and the interpreter's static reads (workflows/runs/graph.ts): when these were
 * written separately, `from: 'parameters.x'` passed validation and then failed every run with MISSING_INPUT.
 * Pure, no imports: bundled into workflow code.
 */
export const PARAMETER_ROOTS = ['params', 'parameters'] as const;

export type ParameterRoot = (typeof PARAMETER_ROOTS)[number];

/** The root under which expressions reach every node's outputs by id (`nodes.<id>.<output>`). */
export const NODES_ROOT = 'nodes';

/** Names every expression context binds besides node ids: no node id or loop iterator may take one. */
export const RESERVED_ROOTS: ReadonlySet<string> = new Set([...PARAMETER_ROOTS, NODES_ROOT]);

export function isParameterRoot(name: string): name is ParameterRoot {
  return (PARAMETER_ROOTS as readonly string[]).includes(name);
}

/** `params|parameters`, for the patterns that find parameter names in a value's text (workflows/runs/graph.ts). */
export const PARAMETER_ROOTS_ALTERNATION = PARAMETER_ROOTS.join('|');
