import type { ParameterDecl } from './model';
import type { Problem } from './problems';

/**
 * Run-time parameter rules, free of zod: bundled into workflow code (subworkflow parameters are checked there),
 * where every module is evaluated again for each execution. Save-time checks of declarations: ./parameters.ts.
 */

type ParameterType = ParameterDecl['type'];

/** Whether a JSON value is of a declared parameter (or output) type. */
export function matchesType(type: ParameterType | 'any', value: unknown): boolean {
  switch (type) {
    case 'any':
      return true;
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
      return value !== null && typeof value === 'object' && !Array.isArray(value);
  }
}

export function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Run-time parameters against the declarations: unknown names refused, required ones present, types and enums
 * respected, defaults applied. Returns every problem at once (422 INVALID_PARAMETERS).
 */
export function resolveRunParameters(
  decls: ParameterDecl[],
  given: Record<string, unknown> | undefined,
): { ok: true; values: Record<string, unknown> } | { ok: false; problems: Problem[] } {
  const input = given ?? {};
  const problems: Problem[] = [];
  const values: Record<string, unknown> = {};
  const declared = new Map(decls.map((d) => [d.name, d]));
  for (const name of Object.keys(input)) {
    if (!declared.has(name)) problems.push({ path: `parameters.${name}`, problem: 'not a declared parameter' });
  }
  for (const decl of decls) {
    const path = `parameters.${decl.name}`;
    const value = Object.prototype.hasOwnProperty.call(input, decl.name) ? input[decl.name] : undefined;
    if (value === undefined || value === null) {
      if (decl.default !== undefined) values[decl.name] = decl.default;
      else if (decl.required) problems.push({ path, problem: 'required' });
      continue;
    }
    if (!matchesType(decl.type, value)) {
      problems.push({ path, problem: `must be of type ${decl.type}` });
      continue;
    }
    if (decl.enum && !decl.enum.some((v) => sameJson(v, value))) {
      problems.push({ path, problem: `must be one of ${decl.enum.map((v) => JSON.stringify(v)).join(', ')}` });
      continue;
    }
    values[decl.name] = value;
  }
  return problems.length ? { ok: false, problems } : { ok: true, values };
}
