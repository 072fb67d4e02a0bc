import jsonata from 'jsonata';
import { regexProblem } from '../../lib/expressions/regexSafety';
import { defineTool, NonRetryableToolError } from './types';

/**
 * JSON transform with JSONata (>= 2.0.4: earlier versions allowed prototype pollution through `$merge`/paths).
 * Time-boxed: JSONata checks an evaluation deadline, a stack depth and a sequence length at every step; regular
 * expressions are vetted (see lib/expressions/regexSafety.ts) because a regex match cannot be interrupted.
 */
export const JSONATA_LIMITS = { timeoutMs: 2000, maxStack: 300, maxSequence: 100_000, maxExpressionLength: 10_000 };

/** JSONata constructs regexes through this class, so each pattern is checked before JavaScript compiles it. */
class VettedRegExp extends RegExp {
  constructor(pattern: string | RegExp, flags?: string) {
    const source = typeof pattern === 'string' ? pattern : pattern.source;
    const problem = regexProblem(source);
    if (problem) throw new NonRetryableToolError('UNSAFE_REGEX', problem);
    super(pattern, flags);
  }
}

interface JsonTransformInput {
  expression: string;
  data?: unknown;
  bindings?: Record<string, unknown>;
}

export async function runJsonata(
  expression: string,
  data: unknown,
  bindings: Record<string, unknown> = {},
  limits = JSONATA_LIMITS,
): Promise<unknown> {
  let compiled: jsonata.Expression;
  try {
    compiled = jsonata(expression, {
      timeout: limits.timeoutMs,
      stack: limits.maxStack,
      sequence: limits.maxSequence,
      RegexEngine: VettedRegExp as unknown as RegExpConstructor,
    });
  } catch (err) {
    if (err instanceof NonRetryableToolError) throw err;
    throw new NonRetryableToolError('INVALID_EXPRESSION', `JSONata syntax error: ${(err as Error).message}`);
  }
  try {
    const result = await compiled.evaluate(data, bindings);
    // JSONata sequences are arrays with extra flags; a JSON round trip gives plain data (and drops functions).
    return result === undefined ? null : (JSON.parse(JSON.stringify(result)) as unknown);
  } catch (err) {
    if (err instanceof NonRetryableToolError) throw err;
    const e = err as { code?: string; message?: string };
    throw new NonRetryableToolError('TRANSFORM_FAILED', `JSONata ${e.code ?? 'error'}: ${e.message ?? String(err)}`);
  }
}

export default defineTool<JsonTransformInput, { result: unknown }>({
  id: 'json_transform',
  name: 'JSON transform',
  category: 'data',
  description:
    'Transforms JSON with a JSONata expression (https://jsonata.org). `data` is the input document, `bindings` ' +
    'are extra $variables. Time-boxed (2 s, stack 300, sequences of 100k).',
  inputSchema: {
    type: 'object',
    required: ['expression'],
    additionalProperties: false,
    properties: {
      expression: { type: 'string', minLength: 1, maxLength: JSONATA_LIMITS.maxExpressionLength },
      data: {},
      bindings: { type: 'object' },
    },
  },
  outputSchema: { type: 'object', required: ['result'], properties: { result: {} } },
  sideEffect: 'none',
  runsLocally: true,
  defaultTimeoutMs: 10_000,
  async execute(input) {
    return { result: await runJsonata(input.expression, input.data ?? null, input.bindings ?? {}) };
  },
});
