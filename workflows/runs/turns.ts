import { sleep } from '@temporalio/workflow';
import type { NodeState } from '../../lib/dag/model';
import { isDeferred, type ToolActivityAnswer, type ToolActivityInput, type ToolActivityResult } from '../../lib/runs/types';
import { TURN_LEAD_MS } from '../../lib/runs/turns';

/**
 * A tool call's distant turn under rate limits on destinations, waited for by the run (patch rate-limit-turns,
 * lib/runs/turns.ts, docs/runs.md#rate-limits-on-destinations).
 */

/** Where a node shows that it waits for its turn (its state in the run view), and stops showing it (null). */
export type TurnWaitSink = (wait: { until: string; limits: string[] } | null) => void;

/**
 * The interpreter's sink for one node: `waiting_until` and `waiting_for` on its state while it waits, removed when
 * the wait ends. The runState query reads them; no command is sent, so replay is unaffected.
 */
export function showTurnWait(states: Record<string, NodeState>, nodeId: string): TurnWaitSink {
  return (wait) => {
    const state = states[nodeId]!;
    if (wait) {
      state.waiting_until = wait.until;
      state.waiting_for = { reason: 'rate_limit', limits: wait.limits };
    } else {
      delete state.waiting_until;
      delete state.waiting_for;
    }
  };
}

/**
 * Calls a tool's activity until it has made its call. An answer `deferred` (its turn is further away than the
 * activity waits in place) is waited for here with a durable timer, shown on the node meanwhile, until TURN_LEAD_MS
 * before the turn; then the activity is called again with the turn it reserved, which it takes instead of queueing
 * again. The attempt that deferred made no call: the next call makes that attempt (`attemptBase`), and `again` is
 * told how many attempts of the node's budget the calls before it spent (Temporal counted them as failures).
 */
export async function callInTurn(
  first: () => Promise<ToolActivityAnswer>,
  again: (input: ToolActivityInput, spentAttempts: number) => Promise<ToolActivityAnswer>,
  input: ToolActivityInput,
  onWait: TurnWaitSink | undefined,
): Promise<ToolActivityResult> {
  let answer = await first();
  while (isDeferred(answer)) {
    const { deferred, attempt } = answer;
    onWait?.({ until: deferred.until, limits: deferred.turn.limits });
    try {
      await sleep(Math.max(0, deferred.waitMs - TURN_LEAD_MS));
    } finally {
      onWait?.(null);
    }
    // A retry delay was waited before the attempt that deferred: not again.
    const { waitBeforeMs: _waited, ...rest } = input;
    answer = await again({ ...rest, attemptBase: attempt - 1, turns: { defer: true, reserved: deferred.turn } }, attempt - 1 - input.attemptBase);
  }
  return answer;
}
