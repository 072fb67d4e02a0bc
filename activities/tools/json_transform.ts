import { z } from 'zod';
import { DEFAULT_JSONATA_LIMITS, ExpressionError, type JsonataLimits } from '../../lib/expressions';
import { evaluateJsonataForOutput } from '../../lib/expressions/sandbox';
import { joinBuffers } from '../../lib/largeBytes';
import { SerializedJson } from '../../lib/serializedJson';
import { defineTool, NonRetryableToolError } from './types';

/**
 * JSON transform with JSONata, evaluated in the expression sandbox (lib/expressions/sandbox): a deadline that
 * kills the evaluating process, JSONata's stack and sequence limits, a heap cap, and RE2 for regex literals.
 */
export const JSONATA_LIMITS: JsonataLimits = DEFAULT_JSONATA_LIMITS;

/**
 * Sandbox codes become the tool's error codes: a syntax error is EXPRESSION_INVALID, as for every expression (it was
 * INVALID_EXPRESSION here, a name the docs never gave), and a failure on the data TRANSFORM_FAILED; running too long
 * or doing too much keep the sandbox's own codes. All are
 * non-retryable: the same expression on the same data fails the same way.
 */
const TOOL_CODES: Partial<Record<ExpressionError['code'], string>> = {
  EXPRESSION_FAILED: 'TRANSFORM_FAILED',
  EXPRESSION_LIMIT: 'TRANSFORM_FAILED',
};

/** Sandbox failures as the tool's failures (TOOL_CODES); anything else as it is. */
async function asToolFailure<T>(evaluation: Promise<T>): Promise<T> {
  try {
    return await evaluation;
  } catch (err) {
    if (!(err instanceof ExpressionError)) throw err;
    throw new NonRetryableToolError(TOOL_CODES[err.code] ?? err.code, `JSONata: ${err.message}`);
  }
}

/**
 * `{ result }` of a transform, in the organization's share of the sandbox (another's deadline-long transforms never
 * hold this one up); a large result as the output's JSON bytes, for the worker to store as they are.
 */
export async function transform(
  expression: string,
  data: unknown,
  bindings: Record<string, unknown> = {},
  limits: JsonataLimits = JSONATA_LIMITS,
  organizationId = '',
): Promise<{ result: unknown } | SerializedJson> {
  const answer = await asToolFailure(evaluateJsonataForOutput(expression, data, bindings, limits, organizationId));
  if ('value' in answer) return { result: answer.value };
  return new SerializedJson(await joinBuffers([RESULT_OPEN, answer.json, RESULT_CLOSE]), ['result']);
}

const RESULT_OPEN = Buffer.from('{"result":');
const RESULT_CLOSE = Buffer.from('}');

export default defineTool({
  id: 'json_transform',
  name: 'JSON transform',
  category: 'data',
  description:
    'Transforms JSON with a JSONata expression (https://jsonata.org). `data` is the input document, `bindings` ' +
    'are extra $variables. Without `expression` it is the identity: the result is `data` as given. Sandboxed: stopped after 2 s, nested calls up to 300 deep, sequences up to 100k items, ' +
    'regular expressions run by RE2 (no backreferences or lookaround).',
  input: z.strictObject({
    /** Absent: the identity transform (the result is `data`). */
    expression: z.string().min(1).max(JSONATA_LIMITS.maxExpressionLength).optional(),
    data: z.unknown().optional(),
    bindings: z.record(z.string(), z.unknown()).optional(),
  }),
  output: z.object({ result: z.unknown() }),
  sideEffect: 'none',
  syntaxFields: { expression: 'jsonata' },
  runsLocally: true,
  defaultTimeoutMs: 10_000,
  async execute(input, ctx) {
    if (input.expression === undefined) return { result: input.data ?? null };
    return transform(input.expression, input.data ?? null, input.bindings ?? {}, JSONATA_LIMITS, ctx.organizationId);
  },
});
