import { defineTool, NonRetryableToolError } from './types';

/**
 * Test tool for error handling: fails in a configurable way so retries, fallbacks, the dead-letter queue and the
 * circuit breaker can be exercised without a flaky service.
 * - `mode: "always"` fails every attempt (retryable);
 * - `mode: "times"` fails the first `times` attempts of the node, then succeeds;
 * - `mode: "non_retryable"` fails at once with a NonRetryableToolError;
 * - `mode: "never"` succeeds.
 * On success it returns `{ attempt, value }`.
 */
interface FailInput {
  mode: 'always' | 'times' | 'non_retryable' | 'never';
  times?: number;
  code?: string;
  message?: string;
  value?: unknown;
}

export default defineTool<FailInput, { attempt: number; value: unknown }>({
  id: 'fail',
  name: 'Fail (test tool)',
  category: 'custom',
  description:
    'Test tool: fails always, the first `times` attempts, or non-retryably, to exercise retries, fallback, ' +
    'dead-letter queue and circuit breaker. Returns { attempt, value } when it succeeds.',
  inputSchema: {
    type: 'object',
    required: ['mode'],
    additionalProperties: false,
    properties: {
      mode: { enum: ['always', 'times', 'non_retryable', 'never'] },
      times: { type: 'integer', minimum: 0, maximum: 100 },
      code: { type: 'string', maxLength: 100 },
      message: { type: 'string', maxLength: 1000 },
      value: {},
    },
  },
  outputSchema: {
    type: 'object',
    required: ['attempt'],
    properties: { attempt: { type: 'integer' }, value: {} },
  },
  sideEffect: 'none',
  async execute(input, ctx) {
    const code = input.code ?? 'TOOL_FAILED';
    const message = input.message ?? `fail tool: ${input.mode} (attempt ${ctx.attempt})`;
    switch (input.mode) {
      case 'non_retryable':
        throw new NonRetryableToolError(code, message);
      case 'always':
        throw Object.assign(new Error(message), { code });
      case 'times':
        if (ctx.attempt <= (input.times ?? 1)) throw Object.assign(new Error(message), { code });
        break;
      case 'never':
        break;
    }
    return { attempt: ctx.attempt, value: input.value ?? null };
  },
});
