import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { z } from 'zod';
import { CancelledFailure } from '@temporalio/common';
import type { ActivityDeps } from '../../../activities/deps';
import { listTools } from '../../../activities/tools/registry';
import { defineTool } from '../../../activities/tools/types';
import { runTool } from '../../../activities/runs/toolActivities';
import { toolActivityInput } from '../../helpers/toolInput';

/**
 * Cancellation of tools (docs/runs.md#cancellation): every tool that runs as a regular activity observes
 * `ctx.signal` (directly or through a support helper that passes it on), unless it is listed below as bounded work;
 * and the wrapper reports a cancellation at once even for a tool that ignores the signal.
 */

const TOOLS_DIR = path.join(__dirname, '../../../activities/tools');
const source = (file: string): string => readFileSync(path.join(TOOLS_DIR, file), 'utf8');

/** Support helpers that take the tool's context and hand `ctx.signal` to the request they make. */
const SIGNAL_FORWARDING_HELPERS = ['toolHttp(ctx', 'llmPost(ctx', 'chatCompletion(ctx'];

/** Regular-activity tools that do not observe the signal: bounded work, abandoned by the wrapper when cancelled. */
const BOUNDED_TOOLS: Record<string, string> = {
  fail: 'test tool: fails or succeeds at once, waits on nothing',
  content_read: 'one object-storage read of a size-capped object',
  content_write: 'one object-storage write of a size-capped value',
  email_send: 'one SMTP send (at_least_once): abandoned if cancelled mid-send',
};

describe('every long-running tool observes its abort signal', () => {
  test('the support helpers pass the signal on', () => {
    expect(source('support/net.ts')).toContain('signal: ctx.signal');
    const llm = source('support/llm.ts');
    expect(llm).toContain('await toolHttp(ctx,');
    expect(llm).toMatch(/llmPost\(ctx,/);
  });

  test.each(listTools().filter((t) => !t.runsLocally).map((t) => t.id))('%s', (id) => {
    const text = source(`${id}.ts`);
    const observes = /\bsignal\b/.test(text) || SIGNAL_FORWARDING_HELPERS.some((h) => text.includes(h));
    if (BOUNDED_TOOLS[id]) {
      // listed as bounded: it must really not observe the signal, or the entry is stale
      expect(observes).toBe(false);
    } else {
      expect(observes).toBe(true);
    }
  });
});

describe('the tool wrapper', () => {
  const input = toolActivityInput();
  const deps = {} as ActivityDeps;

  test('reports a cancellation at once even when the tool ignores its signal, with the attempt it was making', async () => {
    let release: () => void = () => undefined;
    const deaf = defineTool({
      id: 'deaf',
      name: 'deaf',
      category: 'custom',
      description: 'ignores its signal',
      input: z.object({}),
      output: z.unknown(),
      sideEffect: 'none',
      execute: () => new Promise<unknown>((resolve) => (release = () => resolve({}))),
    });
    const env = new MockActivityEnvironment({ attempt: 2 });
    const running = env.run(runTool, deps, deaf, input);
    setImmediate(() => env.cancel());
    const err = await running.then(
      () => null,
      (e: unknown) => e,
    );
    release();
    expect(err).toBeInstanceOf(CancelledFailure);
    expect((err as CancelledFailure).details).toEqual([{ attempt: 2 }]);
  });
});
