import type { Db } from '../../db/knex';
import { performance } from 'node:perf_hooks';
import { ClockOffset, destinationOf, lateToleranceMs, limitsOfCall, type NodeRateLimit, type TurnLimit } from '../../lib/destinationLimits';
import type { ReservedTurn } from '../../lib/runs/types';
import { readOrganizationRateLimits } from '../organizations/settingsReader';
import { databaseClockUs, deleteIdleTurns, takeTurn } from './queries';

/**
 * Rate limits on destinations (docs/runs.md#rate-limits-on-destinations): which limits a tool call is under (the
 * organization's `integration.rateLimits` on its destination host, and the node's own `rate_limit`) and its turn in
 * them, taken in PostgreSQL so that every worker process of the organization counts against the same limits. How a
 * call waits for its turn is the tool activity's part (activities/runs/rateTurns.ts).
 */
export interface DestinationTurns {
  /** How far a call may slip past its turn and still start: half of TOOLS_RATE_LIMIT_MARGIN. */
  readonly lateToleranceMs: number;
  /** The limits one call is under; none (and no query) for a call that names no destination and declares no limit. */
  limitsOf(call: { organizationId: string; toolId: string; toolInput: unknown; nodeLimit: NodeRateLimit | undefined }): Promise<TurnLimit[]>;
  /**
   * Takes the call's turn in every limit it is under: the turn, and when it is due on this process's monotonic clock
   * (`performance.now()`).
   */
  take(organizationId: string, limits: readonly TurnLimit[]): Promise<{ turn: ReservedTurn; dueMs: number }>;
  /** When a turn taken earlier is due on this process's monotonic clock. */
  dueOf(turn: ReservedTurn): Promise<number>;
}

/** Rows of limits idle this long are deleted (they change no turn: queries.ts `deleteIdleTurns`). */
const IDLE_US = 3_600_000_000;
const HOUSEKEEPING_EVERY_MS = 60_000;
/**
 * How long a sample of the database's clock counts (ClockOffset), and how often one is taken besides those every
 * turn brings: when the process starts, and when it has been quiet. The first calls of a burst read their answers
 * late (the event loop is busy with the burst), so a sample taken before it keeps their turns from being due late.
 */
const CLOCK_WINDOW_MS = 60_000;
const CLOCK_SAMPLE_EVERY_MS = 20_000;

/** Built once per worker process (activities/runs/toolActivities.ts `createToolActivities`). */
export function createDestinationTurns(db: Db, options: { marginMs: number }): DestinationTurns {
  const { marginMs } = options;
  let lastHousekeeping = 0;
  // The database's clock as this process's: every answer carrying the database's time is a sample.
  const clock = new ClockOffset(CLOCK_WINDOW_MS);
  let lastSample = -Infinity;
  /** When a turn is due here, given an answer just read that carried the database's time `nowUs`. */
  const dueAfter = (turn: ReservedTurn, nowUs: number): number => turn.atUs / 1000 + clock.observe(performance.now(), nowUs / 1000);

  function sampleClockSometimes(): void {
    const now = performance.now();
    if (now - lastSample < CLOCK_SAMPLE_EVERY_MS) return;
    lastSample = now;
    // A sample only: a failure here must never fail a call.
    databaseClockUs(db)
      .then((nowUs) => clock.observe(performance.now(), nowUs / 1000))
      .catch(() => undefined);
  }
  sampleClockSometimes();

  function housekeepSometimes(): void {
    const now = Date.now();
    if (now - lastHousekeeping < HOUSEKEEPING_EVERY_MS) return;
    lastHousekeeping = now;
    // Housekeeping only: a failure here must never fail a call.
    deleteIdleTurns(db, IDLE_US).catch(() => undefined);
  }

  return {
    lateToleranceMs: lateToleranceMs(marginMs),

    async limitsOf({ organizationId, toolId, toolInput, nodeLimit }) {
      const destination = destinationOf(toolInput);
      if (!destination && !nodeLimit) return [];
      const organizationLimits = destination ? await readOrganizationRateLimits(db, organizationId) : [];
      return limitsOfCall({ organizationLimits, nodeLimit, toolId, destination, marginMs });
    },

    async take(organizationId, limits) {
      housekeepSometimes();
      sampleClockSometimes();
      const { atUs, nowUs } = await takeTurn(db, organizationId, limits);
      const turn = { atUs, limits: limits.map((l) => l.key) };
      return { turn, dueMs: dueAfter(turn, nowUs) };
    },

    async dueOf(turn) {
      return dueAfter(turn, await databaseClockUs(db));
    },
  };
}
