import { z } from 'zod';
import { defineTool } from './types';

/**
 * Test tool: waits `ms` milliseconds (heartbeating, cancellable) and returns `value`. Useful to exercise
 * cancellation, wait_any joins and timeouts without a real service.
 */
export default defineTool({
  id: 'delay',
  name: 'Delay (test tool)',
  category: 'custom',
  description: 'Test tool: sleeps `ms` milliseconds (max 10 minutes), then returns `value`. Cancellable.',
  input: z.strictObject({ ms: z.int().min(0).max(600_000), value: z.unknown().optional() }),
  output: z.object({ waitedMs: z.int(), value: z.unknown().optional() }),
  sideEffect: 'none',
  testTool: true,
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
