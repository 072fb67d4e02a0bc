import { parameterSchema, type ParameterDecl } from './model';
import { zodProblems } from './nodeConfig';
import type { Problem } from './problems';

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

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Save-time check of parameter declarations: shape, unique names, enum values and default of the declared type. */
export function parameterDeclProblems(
  raw: unknown[],
  path = 'parameters',
): { decls: ParameterDecl[]; problems: Problem[] } {
  const decls: ParameterDecl[] = [];
  const problems: Problem[] = [];
  const seen = new Set<string>();
  raw.forEach((item, i) => {
    const where = `${path}[${i}]`;
    const parsed = parameterSchema.safeParse(item);
    if (!parsed.success) {
      problems.push(...zodProblems(parsed.error, where));
      return;
    }
    const decl = parsed.data;
    if (seen.has(decl.name)) problems.push({ path: `${where}.name`, problem: `duplicate parameter "${decl.name}"` });
    seen.add(decl.name);
    decl.enum?.forEach((v, j) => {
      if (!matchesType(decl.type, v)) {
        problems.push({ path: `${where}.enum[${j}]`, problem: `enum value ${JSON.stringify(v)} is not of type ${decl.type}` });
      }
    });
    if (decl.default !== undefined) {
      if (!matchesType(decl.type, decl.default)) {
        problems.push({ path: `${where}.default`, problem: `default ${JSON.stringify(decl.default)} is not of type ${decl.type}` });
      } else if (decl.enum && !decl.enum.some((v) => sameJson(v, decl.default))) {
        problems.push({ path: `${where}.default`, problem: 'default is not one of the enum values' });
      }
    }
    decls.push(decl);
  });
  return { decls, problems };
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
