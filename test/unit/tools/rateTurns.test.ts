import { performance } from 'node:perf_hooks';
import { MockActivityEnvironment } from '@temporalio/testing';
import { CancelledFailure } from '@temporalio/common';
import { z } from 'zod';
import type { ActivityDeps } from '../../../activities/deps';
import { runTool } from '../../../activities/runs/toolActivities';
import { defineTool } from '../../../activities/tools/types';
import type { DestinationTurns } from '../../../domain/destinationLimits/service';
import type { ReservedTurn, ToolActivityInput } from '../../../lib/runs/types';
import { toolActivityInput } from '../../helpers/toolInput';

/**
 * How a tool call waits for its turn under rate limits (activities/runs/rateTurns.ts, through the tool wrapper),
 * against a stand-in for the turns PostgreSQL hands out: in place when near, handed back to the run when far (only
 * when the run can wait), a turn handed back taken by the next call's first attempt only, a late start queueing again.
 */

const LIMIT = 'key:partner';

/**
 * Answers the waits given (from when it answers), one per turn taken; records what was asked. `lateToleranceMs`:
 * tests whose subject is not lateness take a wide one, so that a loaded machine's late wake-up does not re-take.
 */
function fakeTurns(waitsMs: number[], offeredWaitMs = 0, lateToleranceMs = 25): DestinationTurns & { taken: number; offered: ReservedTurn[] } {
  const fake = {
    taken: 0,
    offered: [] as ReservedTurn[],
    lateToleranceMs,
    async limitsOf({ nodeLimit }: { nodeLimit: unknown }) {
      return nodeLimit ? [{ key: LIMIT, costUs: 100_000 }] : [];
    },
    async take() {
      const waitMs = waitsMs[fake.taken++] ?? 0;
      return { turn: { atUs: (Date.now() + waitMs) * 1000, limits: [LIMIT] }, dueMs: performance.now() + waitMs };
    },
    async dueOf(turn: ReservedTurn) {
      fake.offered.push(turn);
      return performance.now() + offeredWaitMs;
    },
  };
  return fake;
}

const echoTool = defineTool({
  id: 'echo_now',
  name: 'echo_now',
  category: 'custom',
  description: 'answers when it was called',
  input: z.object({}),
  output: z.unknown(),
  sideEffect: 'none',
  execute: async () => ({ at: performance.now() }),
});

const base = toolActivityInput({ largeOutputBytes: 1 << 20, rateLimit: { requests: 10, per: '1s', key: 'partner' } });
const deps = { logger: { info: jest.fn() } } as unknown as ActivityDeps;

const call = (input: ToolActivityInput, turns: DestinationTurns, attempt = 1) =>
  new MockActivityEnvironment({ attempt }).run(runTool, deps, echoTool, input, turns);

test('a call under no limit takes no turn', async () => {
  const turns = fakeTurns([]);
  const answer = await call({ ...base, rateLimit: undefined }, turns);
  expect(answer).toMatchObject({ output: { at: expect.any(Number) }, attempt: 1 });
  expect(turns.taken).toBe(0);
});

test('a near turn is waited for in place, and the call starts at it', async () => {
  const turns = fakeTurns([120]);
  const before = performance.now();
  const answer = await call(base, turns);
  expect((answer as { output: { at: number } }).output.at - before).toBeGreaterThanOrEqual(120);
  expect(turns.taken).toBe(1);
});

test('a distant turn is handed back to a run that can wait, with no call made and the attempt not spent', async () => {
  const turns = fakeTurns([5_000]);
  const before = performance.now();
  const answer = await call({ ...base, attemptBase: 2, turns: { defer: true } }, turns, 2);
  // The wait left is the turn's 5 s less the time the call took to hand it back (2 ms once on a loaded machine).
  const spentMs = Math.ceil(performance.now() - before);
  expect(answer).toEqual({
    deferred: { turn: { atUs: expect.any(Number), limits: [LIMIT] }, waitMs: expect.any(Number), until: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    attempt: 4,
  });
  const { waitMs } = (answer as { deferred: { waitMs: number } }).deferred;
  expect(waitMs).toBeLessThanOrEqual(5_000);
  expect(waitMs).toBeGreaterThanOrEqual(5_000 - spentMs);
});

test('without `turns` (older runs, tool test runs) the call waits in place, however long', async () => {
  const turns = fakeTurns([2_200]);
  const before = performance.now();
  const answer = await call(base, turns);
  expect((answer as { output: { at: number } }).output.at - before).toBeGreaterThanOrEqual(2_200);
}, 10_000);

test("a turn handed back is taken by the next call's first attempt, and by nothing else", async () => {
  const reserved: ReservedTurn = { atUs: Date.now() * 1000, limits: [LIMIT] };
  // A wide tolerance: a 30 ms wait that a loaded machine wakes from 25 ms late is lateness, tested below.
  const first = fakeTurns([], 30, 5_000);
  expect(await call({ ...base, turns: { defer: true, reserved } }, first)).toMatchObject({ output: expect.anything() });
  expect({ taken: first.taken, offered: first.offered }).toEqual({ taken: 0, offered: [reserved] });

  // a retry is another call: it queues
  const retry = fakeTurns([0]);
  await call({ ...base, turns: { defer: true, reserved } }, retry, 2);
  expect({ taken: retry.taken, offered: retry.offered }).toEqual({ taken: 1, offered: [] });

  // a call now under other limits (the organization changed them) queues in those
  const changed = fakeTurns([0]);
  await call({ ...base, turns: { defer: true, reserved: { ...reserved, limits: ['host:a.example'] } } }, changed);
  expect(changed.taken).toBe(1);
});

test('a turn handed back that is still far (a timer that fired early) is handed back again, not queued again', async () => {
  const reserved: ReservedTurn = { atUs: Date.now() * 1000, limits: [LIMIT] };
  const turns = fakeTurns([], 3_000);
  const answer = await call({ ...base, turns: { defer: true, reserved } }, turns);
  expect(answer).toMatchObject({ deferred: { turn: reserved, waitMs: 3_000 } });
  expect(turns.taken).toBe(0);
});

test('a call that starts later than the tolerance after its turn gives it up and takes another', async () => {
  const turns = fakeTurns([20, 0]);
  // the event loop is busy when the turn comes: the wake-up is ~60 ms late
  setTimeout(() => {
    const until = performance.now() + 70;
    while (performance.now() < until);
  }, 5);
  const answer = await call(base, turns);
  expect(answer).toMatchObject({ output: expect.anything() });
  expect(turns.taken).toBe(2);
  expect(deps.logger.info).toHaveBeenCalledWith(expect.objectContaining({ limits: [LIMIT] }), expect.stringContaining('late for its turn'));
});

test('a turn whose answer was read later than the tolerance after it is given up: the delay is lateness, not wait', async () => {
  // the first answer says the turn was due 40 ms ago (the event loop read it late)
  const turns = fakeTurns([-40, 0]);
  expect(await call(base, turns)).toMatchObject({ output: expect.anything() });
  expect(turns.taken).toBe(2);
});

test('cancelled while waiting for its turn: the attempt was never made', async () => {
  const turns = fakeTurns([10_000]);
  const env = new MockActivityEnvironment({ attempt: 3 });
  const running = env.run(runTool, deps, echoTool, base, turns);
  setTimeout(() => env.cancel(), 50);
  const err = await running.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CancelledFailure);
  expect((err as CancelledFailure).details).toEqual([{ attempt: 2 }]);
});
