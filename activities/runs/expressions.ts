import { evaluateExpression, expressionContext, renderTemplates } from '../../lib/expressions';

/**
 * The runs activities' one door to the expression language (lib/expressions: CEL with bounded size, depth and
 * cost). Scopes are built with `scope()`: `params`, `nodes`, every node id at the top level, and locals (the loop
 * iterator and `<iterator>_index`).
 */

export type ExpressionScope = Record<string, unknown>;

export function scope(params: Record<string, unknown>, nodes: Record<string, unknown>, locals?: Record<string, unknown>): ExpressionScope {
  return expressionContext({ params, nodes, locals });
}

export function evaluate(text: string, context: ExpressionScope): unknown {
  return evaluateExpression(text, context);
}

export function render(value: unknown, context: ExpressionScope): unknown {
  return renderTemplates(value, context);
}
