import { performance } from 'node:perf_hooks';
import type { Context } from '@temporalio/activity';
import type { DestinationTurns } from '../../domain/destinationLimits/service';
import type { ReservedTurn, ToolActivityDeferred, ToolActivityInput } from '../../lib/runs/types';
import { TURN_IN_PLACE_MAX_MS } from '../../lib/runs/turns';

/**
 * A tool call's turn under the rate limits on its destination (docs/runs.md#rate-limits-on-destinations), taken
 * after its input is resolved (the destination is known) and before it is made.
 *
 * The turn is taken in PostgreSQL (domain/destinationLimits), on the database's clock, and waited for on this
 * process's monotonic clock, through an estimate of how far apart the two are (`ClockOffset`), so that no two
 * processes' wall clocks need agree and the call never starts before its turn. A call that starts more than half of
 * TOOLS_RATE_LIMIT_MARGIN after its turn gives the turn up and takes a new one, or the next call could start closer to
 * it than the limit's spacing: a busy event loop that read the answer late or woke the wait late, a stalled worker, a
 * run that woke up late. The margin's other half covers the circuit breaker's admission and the tool's way to its
 * destination.
 */

export type TurnOutcome = { go: true } | ToolActivityDeferred['deferred'];

const GO: TurnOutcome = { go: true };

function sameLimits(a: readonly string[] | undefined, b: readonly string[]): boolean {
  return a !== undefined && a.length === b.length && a.every((key, i) => key === b[i]);
}

/** Sleeps until `deadline` on the monotonic clock; a cancellation of the activity ends it (CancelledFailure). */
async function sleepUntil(ctx: Context, deadline: number): Promise<void> {
  for (let remaining = deadline - performance.now(); remaining > 0; remaining = deadline - performance.now()) {
    await ctx.sleep(Math.ceil(remaining));
  }
}

/**
 * Waits for the call's turn in every limit it is under, then answers `go`. When the run can wait itself
 * (`input.turns`) and the turn is further away than TURN_IN_PLACE_MAX_MS, answers the turn instead: the run waits
 * with a durable timer and calls again with it (lib/runs/turns.ts). A turn handed back that way is this call's only
 * on the activity's first attempt: a retry is another call, and takes a turn of its own.
 */
export async function waitForTurn(
  turns: DestinationTurns,
  ctx: Context,
  input: ToolActivityInput,
  call: { toolId: string; toolInput: unknown },
  onLate: (lateMs: number, limits: readonly string[]) => void,
): Promise<TurnOutcome> {
  const limits = await turns.limitsOf({ organizationId: input.organizationId, toolId: call.toolId, toolInput: call.toolInput, nodeLimit: input.rateLimit });
  if (limits.length === 0) return GO;
  const keys = limits.map((l) => l.key);
  const reserved = input.turns?.reserved;
  let offered: ReservedTurn | null = ctx.info.attempt === 1 && reserved && sameLimits(reserved.limits, keys) ? reserved : null;
  for (;;) {
    let turn: ReservedTurn;
    let dueMs: number;
    if (offered) {
      turn = offered;
      dueMs = await turns.dueOf(offered);
      offered = null;
    } else {
      ({ turn, dueMs } = await turns.take(input.organizationId, limits));
    }
    const waitMs = dueMs - performance.now();
    if (input.turns?.defer && waitMs > TURN_IN_PLACE_MAX_MS) {
      return { turn, waitMs: Math.ceil(waitMs), until: new Date(Math.ceil(turn.atUs / 1000)).toISOString() };
    }
    await sleepUntil(ctx, dueMs);
    const lateMs = performance.now() - dueMs;
    if (lateMs <= turns.lateToleranceMs) return GO;
    onLate(lateMs, keys);
  }
}
