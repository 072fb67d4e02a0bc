import type { ParameterDecl } from '../dag/model';
import { resolveRunParameters } from '../dag/runParameters';

/**
 * Run parameters against the declared parameters (unknown names, required, type, enum; defaults applied), in the
 * shape the runs API and the interpreter use. The rules live in lib/dag/parameters.ts (shared with validation).
 */
export interface ParameterProblem {
  path: string;
  problem: string;
}

export function checkParameters(
  declared: ParameterDecl[],
  given: Record<string, unknown>,
): { values: Record<string, unknown>; problems: ParameterProblem[] } {
  const result = resolveRunParameters(declared, given);
  return result.ok ? { values: result.values, problems: [] } : { values: {}, problems: result.problems };
}
