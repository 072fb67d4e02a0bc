import type { ActivityDeps } from '../deps';
import type { EvalContext } from '../../workflows/runs/types';
import { REFERENCE } from '../../lib/dag/model';
import { evaluate, render, type ExpressionScope } from './expressions';
import { resolveRefs } from './values';

/**
 * Node inputs are resolved in activities, never in workflow code, so an upgrade of the expression evaluator
 * cannot change what a replayed history computes.
 */

export class InputResolutionError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The scope expressions see: `params`, `nodes.<id>` (outputs, references resolved), the loop iterator, `loop.index`. */
export async function buildScope(deps: ActivityDeps, organizationId: string, context: EvalContext): Promise<ExpressionScope> {
  const nodes = (await resolveRefs(deps, organizationId, context.nodes)) as Record<string, unknown>;
  const params = (await resolveRefs(deps, organizationId, context.params)) as Record<string, unknown>;
  const scope: ExpressionScope = { params, nodes };
  if (context.iterator) {
    scope[context.iterator.name] = await resolveRefs(deps, organizationId, context.iterator.value);
    scope.loop = { index: context.iterator.index };
  }
  return scope;
}

export function readReference(scope: ExpressionScope, reference: string): unknown {
  const match = REFERENCE.exec(reference);
  if (!match) throw new InputResolutionError('INVALID_REFERENCE', `${reference} is not <node_id>.<output_name>`);
  const [, head, name] = match as unknown as [string, string, string];
  if (head === 'params') return (scope.params as Record<string, unknown>)[name];
  const nodes = scope.nodes as Record<string, unknown>;
  if (!(head in nodes)) throw new InputResolutionError('MISSING_INPUT', `${reference}: node ${head} has no output in this run`);
  const output = nodes[head];
  return output && typeof output === 'object' ? (output as Record<string, unknown>)[name] : undefined;
}

export function renderValue(value: unknown, scope: ExpressionScope): unknown {
  try {
    return render(value, scope);
  } catch (err) {
    throw new InputResolutionError('EXPRESSION_ERROR', `template: ${(err as Error).message}`);
  }
}

export function evaluateExpression(text: string, scope: ExpressionScope): unknown {
  try {
    return evaluate(text, scope);
  } catch (err) {
    throw new InputResolutionError('EXPRESSION_ERROR', `expression ${JSON.stringify(text.slice(0, 200))}: ${(err as Error).message}`);
  }
}

/** A tool's input: its config with `${...}` rendered, then each `from` binding set by name. */
export function toolInputFrom(
  config: Record<string, unknown>,
  bindings: { name?: string; from: string }[],
  scope: ExpressionScope,
): Record<string, unknown> {
  const rendered = renderValue(config, scope);
  const input: Record<string, unknown> =
    rendered && typeof rendered === 'object' && !Array.isArray(rendered) ? { ...(rendered as Record<string, unknown>) } : {};
  for (const binding of bindings) {
    const name = binding.name ?? binding.from.split('.')[1]!;
    input[name] = readReference(scope, binding.from);
  }
  return input;
}
