import type { Db } from '../../db/knex';
import { lockCircuitBreaker, updateCircuitBreaker, type BreakerKey } from '../../domain/runs/failureQueries';
import type { BreakerSettings } from '../../lib/runs/types';

/**
 * The circuit breaker of one (organization, tool, scope), shared by every worker and run through PostgreSQL. The
 * scope is the node's `circuit_breaker.key`, else the host its tool's `url` names, else '' (breakerScope). Each
 * decision reads and writes the row under `FOR UPDATE` (domain/runs/queries.ts), so concurrent calls from several
 * workers see one state.
 *
 * closed --(threshold consecutive failures)--> open --(timeout elapsed, next call)--> half_open
 * half_open: up to `halfOpenRequests` trial calls are let through; that many successes close the circuit, any
 * failure opens it again for another `timeout`.
 */

export type Admission = { allowed: true; trial: boolean } | { allowed: false; retryAt: Date };

/** Decides whether a call may run now (and counts it when it is a half-open trial). */
export async function admitCall(db: Db, key: BreakerKey, settings: BreakerSettings): Promise<Admission> {
  return db.transaction(async (trx) => {
    const row = await lockCircuitBreaker(trx, key);
    if (row.state === 'closed') return { allowed: true, trial: false };
    const now = Date.now();
    if (row.state === 'open') {
      const reopenAt = (row.opened_at?.getTime() ?? 0) + (row.open_timeout_ms ?? settings.timeoutMs);
      if (now < reopenAt) return { allowed: false, retryAt: new Date(reopenAt) };
      await updateCircuitBreaker(trx, key, { state: 'half_open', half_open_attempts: 1, half_open_successes: 0 });
      return { allowed: true, trial: true };
    }
    // half_open
    if (row.half_open_attempts >= settings.halfOpenRequests) {
      return { allowed: false, retryAt: new Date(now + settings.timeoutMs) };
    }
    await updateCircuitBreaker(trx, key, { half_open_attempts: row.half_open_attempts + 1 });
    return { allowed: true, trial: true };
  });
}

export async function recordSuccess(db: Db, key: BreakerKey, settings: BreakerSettings): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await lockCircuitBreaker(trx, key);
    if (row.state === 'half_open') {
      const successes = row.half_open_successes + 1;
      const closes = successes >= settings.halfOpenRequests;
      await updateCircuitBreaker(
        trx,
        key,
        closes
          ? { state: 'closed', consecutive_failures: 0, opened_at: null, half_open_attempts: 0, half_open_successes: 0 }
          : { half_open_successes: successes },
      );
    } else if (row.consecutive_failures !== 0) {
      await updateCircuitBreaker(trx, key, { consecutive_failures: 0 });
    }
  });
}

export async function recordFailure(
  db: Db,
  key: BreakerKey,
  settings: BreakerSettings,
  error: { code: string; message: string },
): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await lockCircuitBreaker(trx, key);
    const failures = row.consecutive_failures + 1;
    const opens = row.state === 'half_open' || (row.state === 'closed' && failures >= settings.threshold);
    await updateCircuitBreaker(trx, key, {
      consecutive_failures: failures,
      last_error: error,
      ...(opens ? { state: 'open', opened_at: 'now', open_timeout_ms: settings.timeoutMs, half_open_attempts: 0, half_open_successes: 0 } : {}),
    });
  });
}

/**
 * The breaker a call counts against: the node's explicit key, else the host (and port) of the tool's `url` input,
 * so that one failing destination does not open the breaker for the tool's other destinations; else ''.
 */
export function breakerScope(settings: BreakerSettings, toolInput: unknown): string {
  if (settings.key) return `key:${settings.key}`;
  const url = (toolInput as { url?: unknown } | null)?.url;
  if (typeof url !== 'string') return '';
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '';
  }
}

/** Failures that never reached the destination (the outbound policy refused it): they say nothing of its health. */
export const NOT_THE_DESTINATION = new Set(['URL_REFUSED']);
