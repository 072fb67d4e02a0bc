import { errorHandlingSchema, type ErrorHandling } from '../../../lib/dag/model';
import { mayRetryWithinSecond, planAttempts, retryDelayMs, SERVER_TIMER_FLOOR_MS } from '../../../workflows/runs/strategy';

/**
 * Sub-second retry delays (workflows/runs/strategy.ts, docs/runs.md#sub-second-retry-delays): which plans the
 * interpreter steps itself, and the delay it waits after each failed attempt (Temporal's formula).
 */

const eh = (retry_config: Record<string, unknown>): ErrorHandling => errorHandlingSchema.parse({ retry_config });
const delays = (plan: ReturnType<typeof planAttempts>) => Array.from({ length: plan.maxAttempts - 1 }, (_, i) => retryDelayMs(plan, i + 1));
const subsecond = { subsecondDelays: true };

describe('stepped plans', () => {
  test('a first delay under the server timer floor is stepped by the interpreter, one call per attempt', () => {
    const plan = planAttempts(undefined, eh({ max_attempts: 4, backoff: 'fixed', initial_delay: 300 }), 'retry', 5000, subsecond);
    expect(plan).toMatchObject({ mode: 'stepped', maxAttempts: 4, timeoutMs: 5000, retry: { maximumAttempts: 1 } });
    expect(delays(plan)).toEqual([300, 300, 300]);
  });

  test('exponential doubles from the first delay; Temporal\'s default cap is 100 × the first delay', () => {
    expect(delays(planAttempts(undefined, eh({ max_attempts: 5, backoff: 'exponential', initial_delay: 300 }), 'retry', 1000, subsecond))).toEqual([
      300, 600, 1200, 2400,
    ]);
    const capped = planAttempts({ max_attempts: 12, backoff: 'exponential', initial_delay: 10 }, undefined, 'retry', 1000, subsecond);
    expect(delays(capped).slice(-3)).toEqual([1000, 1000, 1000]);
  });

  test('max_delay caps the delays; non-retryable errors carry over', () => {
    const plan = planAttempts(
      { max_attempts: 5, backoff: 'exponential', initial_delay: 200, max_delay: 500, non_retryable_errors: ['X'] },
      undefined,
      'retry',
      1000,
      subsecond,
    );
    expect(delays(plan)).toEqual([200, 400, 500, 500]);
    expect(plan.retry.nonRetryableErrorTypes).toEqual(['X']);
  });

  test('a zero delay waits 1 ms, as Temporal\'s smallest interval', () => {
    expect(delays(planAttempts({ max_attempts: 3, backoff: 'fixed', initial_delay: 0 }, undefined, 'retry', 1000, subsecond))).toEqual([1, 1]);
  });

  test('a first delay of a second or more, one attempt, or runs without the patch: Temporal retries the activity', () => {
    expect(planAttempts(undefined, eh({ backoff: 'fixed', initial_delay: SERVER_TIMER_FLOOR_MS }), 'retry', 1000, subsecond).mode).toBe('temporal');
    expect(planAttempts({ max_attempts: 1, initial_delay: 10 }, undefined, 'retry', 1000, subsecond).mode).toBe('temporal');
    const old = planAttempts(undefined, eh({ max_attempts: 4, backoff: 'fixed', initial_delay: 300 }), 'retry', 1000);
    expect(old).toMatchObject({ mode: 'temporal', retry: { maximumAttempts: 4, initialInterval: 300, backoffCoefficient: 1 } });
  });

  test('linear keeps its own plan; its delays grow by the first one', () => {
    const plan = planAttempts(undefined, eh({ max_attempts: 4, backoff: 'linear', initial_delay: 100 }), 'retry', 1000, subsecond);
    expect(plan.mode).toBe('linear');
    expect(delays(plan)).toEqual([100, 200, 300]);
  });
});

describe('which runs ask for the patch', () => {
  const node = (retryPolicy?: Record<string, unknown>, config: unknown = {}) => ({ config, retryPolicy });
  test('a sub-second first delay in retry_config, a node\'s retryPolicy or a loop template\'s retryPolicy', () => {
    expect(mayRetryWithinSecond(eh({ initial_delay: 999 }), [])).toBe(true);
    expect(mayRetryWithinSecond(undefined, [node({ initial_delay: 0 })])).toBe(true);
    expect(mayRetryWithinSecond(undefined, [node(undefined, { template: { type: 'tool', retryPolicy: { initial_delay: 500 } } })])).toBe(true);
  });

  test('not the defaults (1,000 ms) nor longer delays', () => {
    expect(mayRetryWithinSecond(eh({}), [node(), node({ max_attempts: 5 })])).toBe(false);
    expect(mayRetryWithinSecond(undefined, [node({ initial_delay: 1000 }), node(undefined, { template: { type: 'tool' } })])).toBe(false);
    expect(mayRetryWithinSecond(undefined, [node(undefined, null)])).toBe(false);
  });
});
