import type { ParameterDecl } from '../model';
import type { Problem } from '../problems';
import { parseReference } from '../references';
import type { Checked, OutputType, ValidationEnv } from './types';

/** What references can reach: the graph's nodes, their ancestry and outputs, and the declared parameters. */
export interface ReferenceScope {
  hasNode(id: string): boolean;
  ancestors(id: string): Set<string>;
  /** outputs by name, or null when any output name goes */
  outputsOf(id: string): Record<string, OutputType> | null;
  parameters: readonly ParameterDecl[];
}

/** A reference to `target.output` made by node `from`: the target exists, is an ancestor and declares the output. */
export function nodeReference(
  scope: ReferenceScope,
  from: string,
  target: string,
  output: string | null,
  path: string,
): Checked<OutputType | null> {
  const fail = (problem: string): Checked<OutputType | null> => ({ value: null, problems: [{ path, problem }] });
  if (!scope.hasNode(target)) return fail(`unknown node "${target}"`);
  if (target === from) return fail(`node "${from}" cannot reference its own output`);
  if (!scope.ancestors(from).has(target)) {
    return fail(`"${target}" is not an ancestor of "${from}": add an edge path ${target} -> ... -> ${from}`);
  }
  const outputs = scope.outputsOf(target);
  if (!outputs || output === null) return { value: 'any', problems: [] };
  if (!(output in outputs)) {
    const list = Object.keys(outputs);
    return fail(`node "${target}" does not declare output "${output}"${list.length ? ` (it has: ${list.join(', ')})` : ''}`);
  }
  return { value: outputs[output]!, problems: [] };
}

/** A reference to a workflow parameter (`params.<name>`); the whole `params` object when `name` is null. */
export function parameterReference(scope: ReferenceScope, name: string | null, path: string): Checked<OutputType | null> {
  if (name === null) return { value: 'object', problems: [] };
  const decl = scope.parameters.find((p) => p.name === name);
  if (!decl) return { value: null, problems: [{ path, problem: `unknown parameter "${name}"` }] };
  return { value: decl.type, problems: [] };
}

/** A static `from` reference (`<node_id>.<output>` or `params.<name>`), with the type of what it names. */
export function staticReference(scope: ReferenceScope, from: string, text: string, path: string): Checked<OutputType | null> {
  const ref = parseReference(text);
  if (!ref) return { value: null, problems: [{ path, problem: 'references look like <node_id>.<output_name> or params.<name>' }] };
  return ref.kind === 'param' ? parameterReference(scope, ref.name, path) : nodeReference(scope, from, ref.nodeId, ref.output, path);
}

/**
 * Every `${...}` template in a value: valid, and each name it uses is a parameter, an ancestor's output or one of
 * `locals` (a loop's iterator). References are checked only once the templates parse.
 */
export function templateReferenceProblems(
  scope: ReferenceScope,
  env: Pick<ValidationEnv, 'templateProblems' | 'templateReferences'>,
  from: string,
  value: unknown,
  basePath: string,
  locals: ReadonlySet<string>,
): Problem[] {
  const syntax = env.templateProblems(value, basePath);
  if (syntax.length) return syntax;
  return env.templateReferences(value, basePath).flatMap((ref): Problem[] => {
    if (ref.kind === 'param') return parameterReference(scope, ref.name, ref.path).problems;
    if (ref.kind === 'node') return nodeReference(scope, from, ref.nodeId, ref.output, ref.path).problems;
    if (locals.has(ref.name)) return [];
    if (scope.hasNode(ref.name)) return nodeReference(scope, from, ref.name, ref.field, ref.path).problems;
    return [{ path: ref.path, problem: `unknown name "${ref.name}": use params.<name>, nodes.<id>.<output> or <id>.<output>` }];
  });
}

/**
 * The names a bare CEL expression uses (a condition, a switch's value or case, a repeat's while/until, an event
 * match), checked like a template's, once the expression parses. Its syntax is the caller's to report
 * (`env.expressionProblems`, as it is): a syntax error is listed once, not again in its template form
 * (`${...}: invalid expression: ...`).
 */
export function expressionReferenceProblems(
  scope: ReferenceScope,
  env: Pick<ValidationEnv, 'expressionProblems' | 'templateProblems' | 'templateReferences'>,
  from: string,
  expression: string,
  path: string,
  locals: ReadonlySet<string>,
): Problem[] {
  if (env.expressionProblems(expression).length) return [];
  return templateReferenceProblems(scope, env, from, `\${${expression}}`, path, locals);
}

/** A loop's `items`: a static reference to a list, or a `${...}` expression. */
export function loopItemsProblems(
  scope: ReferenceScope,
  env: Pick<ValidationEnv, 'templateProblems' | 'templateReferences' | 'hasTemplates'>,
  from: string,
  items: string,
  path: string,
): Problem[] {
  if (parseReference(items)) {
    const { value: type, problems } = staticReference(scope, from, items, path);
    if (type && type !== 'array' && type !== 'any') return [...problems, { path, problem: `"${items}" is of type ${type}, not a list` }];
    return problems;
  }
  if (env.hasTemplates(items)) return templateReferenceProblems(scope, env, from, items, path, new Set());
  return [{ path, problem: 'items must be a reference to a list (<node_id>.<output>, params.<name>) or a ${...} expression' }];
}
