import type { Db } from '../../db/knex';
import { lockCircuitBreaker, updateCircuitBreaker } from '../../domain/runs/failureQueries';
import type { BreakerSettings } from '../../lib/runs/types';

/**
 * The circuit breaker of one (organization, tool), shared by every worker and run through PostgreSQL. Each
 * decision reads and writes the row under `FOR UPDATE` (domain/runs/queries.ts), so concurrent calls from several
 * workers see one state.
 *
 * closed --(threshold consecutive failures)--> open --(timeout elapsed, next call)--> half_open
 * half_open: up to `halfOpenRequests` trial calls are let through; that many successes close the circuit, any
 * failure opens it again for another `timeout`.
 */

export type Admission = { allowed: true; trial: boolean } | { allowed: false; retryAt: Date };

/** Decides whether a call may run now (and counts it when it is a half-open trial). */
export async function admitCall(db: Db, organizationId: string, tool: string, settings: BreakerSettings): Promise<Admission> {
  return db.transaction(async (trx) => {
    const row = await lockCircuitBreaker(trx, organizationId, tool);
    if (row.state === 'closed') return { allowed: true, trial: false };
    const now = Date.now();
    if (row.state === 'open') {
      const reopenAt = (row.opened_at?.getTime() ?? 0) + (row.open_timeout_ms ?? settings.timeoutMs);
      if (now < reopenAt) return { allowed: false, retryAt: new Date(reopenAt) };
      await updateCircuitBreaker(trx, organizationId, tool, { state: 'half_open', half_open_attempts: 1, half_open_successes: 0 });
      return { allowed: true, trial: true };
    }
    // half_open
    if (row.half_open_attempts >= settings.halfOpenRequests) {
      return { allowed: false, retryAt: new Date(now + settings.timeoutMs) };
    }
    await updateCircuitBreaker(trx, organizationId, tool, { half_open_attempts: row.half_open_attempts + 1 });
    return { allowed: true, trial: true };
  });
}

export async function recordSuccess(db: Db, organizationId: string, tool: string, settings: BreakerSettings): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await lockCircuitBreaker(trx, organizationId, tool);
    if (row.state === 'half_open') {
      const successes = row.half_open_successes + 1;
      const closes = successes >= settings.halfOpenRequests;
      await updateCircuitBreaker(
        trx,
        organizationId,
        tool,
        closes
          ? { state: 'closed', consecutive_failures: 0, opened_at: null, half_open_attempts: 0, half_open_successes: 0 }
          : { half_open_successes: successes },
      );
    } else if (row.consecutive_failures !== 0) {
      await updateCircuitBreaker(trx, organizationId, tool, { consecutive_failures: 0 });
    }
  });
}

export async function recordFailure(
  db: Db,
  organizationId: string,
  tool: string,
  settings: BreakerSettings,
  error: { code: string; message: string },
): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await lockCircuitBreaker(trx, organizationId, tool);
    const failures = row.consecutive_failures + 1;
    const opens = row.state === 'half_open' || (row.state === 'closed' && failures >= settings.threshold);
    await updateCircuitBreaker(trx, organizationId, tool, {
      consecutive_failures: failures,
      last_error: error,
      ...(opens ? { state: 'open', opened_at: 'now', open_timeout_ms: settings.timeoutMs, half_open_attempts: 0, half_open_successes: 0 } : {}),
    });
  });
}
