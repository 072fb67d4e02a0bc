import { expressionContext } from '../../lib/expressions';
import { evaluateCel, renderTemplates } from '../../lib/expressions/sandbox';

/**
 * The runs activities' one door to the expression language: CEL with bounded size, depth and cost, evaluated in
 * the expression sandbox (lib/expressions/sandbox) under a deadline that really stops it. Scopes are built with
 * `scope()`: `params`, `nodes`, every node id at the top level, and locals (the loop iterator and
 * `<iterator>_index`).
 */

/** The organization a scope belongs to: its share of the sandbox lanes. A symbol, so no expression can name it. */
const TENANT = Symbol('tenant');

export type ExpressionScope = Record<string, unknown> & { readonly [TENANT]?: string };

export function scope(
  params: Record<string, unknown>,
  nodes: Record<string, unknown>,
  locals?: Record<string, unknown>,
  organizationId = '',
): ExpressionScope {
  // Not enumerable: the context sent to the sandbox (pruned or whole) is built from its enumerable keys only.
  return Object.defineProperty(expressionContext({ params, nodes, locals }), TENANT, { value: organizationId, enumerable: false });
}

export function evaluate(text: string, context: ExpressionScope): Promise<unknown> {
  return evaluateCel(text, context, {}, context[TENANT]);
}

export function render(value: unknown, context: ExpressionScope): Promise<unknown> {
  return renderTemplates(value, context, {}, context[TENANT]);
}
