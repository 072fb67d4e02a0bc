import { parameterSchema, type ParameterDecl } from './model';
import { zodProblems } from './nodeConfig';
import type { Problem } from './problems';
import { matchesType, sameJson } from './runParameters';

export { matchesType, resolveRunParameters } from './runParameters';

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
      problems.push(...zodProblems(parsed.error, where, parameterSchema));
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
