import { defineTool } from './types';

/**
 * Test tool: waits `ms` milliseconds (heartbeating, cancellable) and returns `value`. Useful to exercise
 * cancellation, wait_any joins and timeouts without a real service.
 */
export default defineTool<{ ms: number; value?: unknown }, { waitedMs: number; value: unknown }>({
  id: 'delay',
  name: 'Delay (test tool)',
  category: 'custom',
  description: 'Test tool: sleeps `ms` milliseconds (max 10 minutes), then returns `value`. Cancellable.',
  inputSchema: {
    type: 'object',
    required: ['ms'],
    additionalProperties: false,
    properties: { ms: { type: 'integer', minimum: 0, maximum: 600_000 }, value: {} },
  },
  outputSchema: {
    type: 'object',
    required: ['waitedMs'],
    properties: { waitedMs: { type: 'integer' }, value: {} },
  },
  sideEffect: 'none',
  defaultTimeoutMs: 660_000,
  async execute(input, ctx) {
    const started = Date.now();
    await new Promise<void>((resolve, reject) => {
      const done = (): void => {
        clearInterval(beat);
        clearTimeout(timer);
      };
      const timer = setTimeout(() => {
        done();
        resolve();
      }, input.ms);
      // Heartbeats let Temporal deliver a cancellation to a long sleep.
      const beat = setInterval(() => ctx.heartbeat?.({ waitedMs: Date.now() - started }), 1000);
      ctx.signal?.addEventListener('abort', () => {
        done();
        reject(ctx.signal.reason instanceof Error ? ctx.signal.reason : new Error('cancelled'));
      });
    });
    return { waitedMs: Date.now() - started, value: input.value ?? null };
  },
});
