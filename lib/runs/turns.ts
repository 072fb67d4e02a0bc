/**
 * How a tool call waits for its turn under rate limits on destinations (docs/runs.md#rate-limits-on-destinations),
 * shared by the tool activity (activities/runs/rateTurns.ts) and the interpreter (workflows/runs/turns.ts). Pure:
 * bundled into workflow code.
 *
 * A turn closer than TURN_IN_PLACE_MAX_MS is waited for inside the activity, to the millisecond. A later one is
 * handed back to the run, which waits with a durable timer (it survives worker and Temporal restarts, holds no
 * worker slot, and the node state shows it) and calls the activity again TURN_LEAD_MS before the turn, so that the
 * activity, already started, waits the rest in place. A server timer fires about a second late at worst (the
 * floor of workflows/runs/strategy.ts); a call that starts late gives its turn up and queues again, so the lead must
 * cover a timer, a workflow task and an activity dispatch.
 */

/** The longest wait for a turn a tool activity makes in place (a run that can wait itself: patch rate-limit-turns). */
export const TURN_IN_PLACE_MAX_MS = 2000;

/** How long before its turn a run that waited calls the activity again; under TURN_IN_PLACE_MAX_MS, so that it then waits in place. */
export const TURN_LEAD_MS = 1000;
