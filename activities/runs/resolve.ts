import type { ActivityDeps } from '../deps';
import type { EvalContext } from '../../lib/runs/types';
import { REFERENCE } from '../../lib/dag/model';
import { isParameterRoot } from '../../lib/dag/parameterRoots';
import { ExpressionError } from '../../lib/expressions';
import { InputResolutionError } from './inputResolutionError';
import { evaluate, render, scope, type ExpressionScope } from './expressions';
import { StoredValueReader } from './values';
import { takeOutPathTemplates } from './pathTemplates';

/**
 * Node inputs are resolved in activities, never in workflow code, so an upgrade of the expression evaluator
 * cannot change what a replayed history computes.
 */

export { InputResolutionError } from './inputResolutionError';

/**
 * The scope expressions see: `params`, `nodes.<id>` (outputs, references resolved), the loop iterator and its
 * position as `<iterator>_index` (`loop` is a reserved word in CEL, so `loop.index` could never be written).
 */
export async function buildScope(
  deps: ActivityDeps,
  organizationId: string,
  context: EvalContext,
  // One reader for the whole scope: its limits hold for params, outputs and iterator together (values.ts).
  reader: StoredValueReader = new StoredValueReader(deps, organizationId),
): Promise<ExpressionScope> {
  const nodes = (await reader.resolve(context.nodes)) as Record<string, unknown>;
  const params = (await reader.resolve(context.params)) as Record<string, unknown>;
  const locals = context.iterator
    ? {
        [context.iterator.name]: await reader.resolve(context.iterator.value),
        [`${context.iterator.name}_index`]: context.iterator.index,
      }
    : undefined;
  return scope(params, nodes, locals, organizationId);
}

/** A `from` reference's value: a run parameter (`params.x` or `parameters.x`, as validation accepts) or a node output. */
export function readReference(context: ExpressionScope, reference: string): unknown {
  const match = REFERENCE.exec(reference);
  if (!match) throw new InputResolutionError('INVALID_REFERENCE', `${reference} is not <node_id>.<output_name>`);
  const [, head, name] = match as unknown as [string, string, string];
  if (isParameterRoot(head)) return (context.params as Record<string, unknown>)[name];
  const nodes = context.nodes as Record<string, unknown>;
  if (!(head in nodes)) throw new InputResolutionError('MISSING_INPUT', `${reference}: node ${head} has no output in this run`);
  const output = nodes[head];
  return output && typeof output === 'object' ? (output as Record<string, unknown>)[name] : undefined;
}

function codeOf(err: unknown): string {
  return err instanceof ExpressionError ? err.code : 'EXPRESSION_FAILED';
}

export async function renderValue(value: unknown, context: ExpressionScope): Promise<unknown> {
  // Whole-string paths (`${nodes.a.result}`) are read here, as bindings are: the sandbox's 1 MB result cap is for
  // computed values (pathTemplates.ts).
  const { rest, putBack } = takeOutPathTemplates(value, context as Record<string, unknown>);
  try {
    return putBack(await render(rest, context));
  } catch (err) {
    throw new InputResolutionError(codeOf(err), `template: ${(err as Error).message}`);
  }
}

export async function evaluateExpression(text: string, context: ExpressionScope): Promise<unknown> {
  try {
    return await evaluate(text, context);
  } catch (err) {
    throw new InputResolutionError(codeOf(err), `expression ${JSON.stringify(text.slice(0, 200))}: ${(err as Error).message}`);
  }
}

/** A tool's input: its config with `${...}` rendered, then each `from` binding set by name. */
export async function toolInputFrom(
  config: Record<string, unknown>,
  bindings: { name?: string; from: string }[],
  context: ExpressionScope,
): Promise<Record<string, unknown>> {
  const rendered = await renderValue(config, context);
  const input: Record<string, unknown> =
    rendered && typeof rendered === 'object' && !Array.isArray(rendered) ? { ...(rendered as Record<string, unknown>) } : {};
  for (const binding of bindings) {
    const name = binding.name ?? binding.from.split('.')[1]!;
    input[name] = readReference(context, binding.from);
  }
  return input;
}
