import type { ParameterDecl } from '../model';
import { parameterDeclProblems } from '../parameters';
import type { Checked } from './types';

/** The workflow's parameter declarations (an array, each declaration checked); the valid ones are kept. */
export function checkParameters(raw: unknown): Checked<ParameterDecl[]> {
  const list = raw ?? [];
  if (!Array.isArray(list)) return { value: [], problems: [{ path: 'parameters', problem: 'must be an array' }] };
  const checked = parameterDeclProblems(list);
  return { value: checked.decls, problems: checked.problems };
}
