import { expressionContext } from '../../lib/expressions';
import { evaluateCel, renderTemplates } from '../../lib/expressions/sandbox';

/**
 * The runs activities' one door to the expression language: CEL with bounded size, depth and cost, evaluated in
 * the expression sandbox (lib/expressions/sandbox) under a deadline that really stops it. Scopes are built with
 * `scope()`: `params`, `nodes`, every node id at the top level, and locals (the loop iterator and
 * `<iterator>_index`).
 */

export type ExpressionScope = Record<string, unknown>;

export function scope(params: Record<string, unknown>, nodes: Record<string, unknown>, locals?: Record<string, unknown>): ExpressionScope {
  return expressionContext({ params, nodes, locals });
}

export function evaluate(text: string, context: ExpressionScope): Promise<unknown> {
  return evaluateCel(text, context);
}

export function render(value: unknown, context: ExpressionScope): Promise<unknown> {
  return renderTemplates(value, context);
}
