import { z } from 'zod';
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
export default defineTool({
  id: 'fail',
  name: 'Fail (test tool)',
  category: 'custom',
  description:
    'Test tool: fails always, the first `times` attempts, or non-retryably, to exercise retries, fallback, ' +
    'dead-letter queue and circuit breaker. Returns { attempt, value } when it succeeds.',
  input: z.strictObject({
    mode: z.enum(['always', 'times', 'non_retryable', 'never']),
    times: z.int().min(0).max(100).optional(),
    code: z.string().max(100).optional(),
    message: z.string().max(1000).optional(),
    value: z.unknown().optional(),
  }),
  output: z.object({ attempt: z.int(), value: z.unknown().optional() }),
  sideEffect: 'none',
  testTool: true,
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
