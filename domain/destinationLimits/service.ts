import type { Db } from '../../db/knex';
import { destinationOf, lateToleranceMs, limitsOfCall, type NodeRateLimit, type TurnLimit } from '../../lib/destinationLimits';
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
  /** Takes the call's turn in every limit it is under: the turn, and how long until it from the database's clock. */
  take(organizationId: string, limits: readonly TurnLimit[]): Promise<{ turn: ReservedTurn; waitUs: number }>;
  /** How long until a turn taken earlier (negative once it has passed), on the database's clock. */
  untilUs(turn: ReservedTurn): Promise<number>;
}

/** Rows of limits idle this long are deleted (they change no turn: queries.ts `deleteIdleTurns`). */
const IDLE_US = 3_600_000_000;
const HOUSEKEEPING_EVERY_MS = 60_000;

/** Built once per worker process (activities/runs/toolActivities.ts `createToolActivities`). */
export function createDestinationTurns(db: Db, options: { marginMs: number }): DestinationTurns {
  const { marginMs } = options;
  let lastHousekeeping = 0;

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
      const { atUs, nowUs } = await takeTurn(db, organizationId, limits);
      return { turn: { atUs, limits: limits.map((l) => l.key) }, waitUs: atUs - nowUs };
    },

    async untilUs(turn) {
      return turn.atUs - (await databaseClockUs(db));
    },
  };
}
