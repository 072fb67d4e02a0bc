import type { ParameterDecl } from '../../lib/dag/model';

/**
 * Run parameters against the declared parameters: unknown names, required, type, enum; defaults applied.
 * Pure: the API checks top-level runs with it and the interpreter applies it to subworkflow inputs.
 */
export interface ParameterProblem {
  path: string;
  problem: string;
}

function typeMatches(type: ParameterDecl['type'], value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function checkParameters(
  declared: ParameterDecl[],
  given: Record<string, unknown>,
): { values: Record<string, unknown>; problems: ParameterProblem[] } {
  const problems: ParameterProblem[] = [];
  const values: Record<string, unknown> = {};
  const names = new Set(declared.map((d) => d.name));
  for (const name of Object.keys(given)) {
    if (!names.has(name)) problems.push({ path: `parameters.${name}`, problem: 'is not a declared parameter' });
  }
  for (const decl of declared) {
    const path = `parameters.${decl.name}`;
    let value = given[decl.name];
    if (value === undefined || value === null) {
      if (decl.default !== undefined) value = decl.default;
      else if (decl.required) {
        problems.push({ path, problem: `is required (${decl.type})` });
        continue;
      } else continue;
    }
    if (!typeMatches(decl.type, value)) {
      problems.push({ path, problem: `must be of type ${decl.type}` });
      continue;
    }
    if (decl.enum && !decl.enum.some((allowed) => sameValue(allowed, value))) {
      problems.push({ path, problem: `must be one of ${decl.enum.map((v) => JSON.stringify(v)).join(', ')}` });
      continue;
    }
    values[decl.name] = value;
  }
  return { values, problems };
}
