import type { Db } from '../../db/knex';
import type { BreakerSettings } from '../../workflows/runs/types';

/**
 * The circuit breaker of one (organization, tool), shared by every worker and run through PostgreSQL. Each
 * decision reads and writes the row under `FOR UPDATE`, so concurrent calls from several workers see one state.
 *
 * closed --(threshold consecutive failures)--> open --(timeout elapsed, next call)--> half_open
 * half_open: up to `halfOpenRequests` trial calls are let through; that many successes close the circuit, any
 * failure opens it again for another `timeout`.
 */

export type BreakerState = 'closed' | 'open' | 'half_open';

export interface BreakerRow {
  organization_id: string;
  tool: string;
  state: BreakerState;
  consecutive_failures: number;
  opened_at: Date | null;
  open_timeout_ms: number | null;
  half_open_attempts: number;
  half_open_successes: number;
  last_error: unknown;
  updated_at: Date;
}

export type Admission = { allowed: true; trial: boolean } | { allowed: false; retryAt: Date };

async function lockRow(trx: Db, organizationId: string, tool: string): Promise<BreakerRow> {
  await trx('circuit_breakers').insert({ organization_id: organizationId, tool }).onConflict(['organization_id', 'tool']).ignore();
  return (await trx<BreakerRow>('circuit_breakers')
    .where({ organization_id: organizationId, tool })
    .forUpdate()
    .first()) as BreakerRow;
}

/** Decides whether a call may run now (and counts it when it is a half-open trial). */
export async function admitCall(db: Db, organizationId: string, tool: string, settings: BreakerSettings): Promise<Admission> {
  return db.transaction(async (trx) => {
    const row = await lockRow(trx, organizationId, tool);
    if (row.state === 'closed') return { allowed: true, trial: false };
    const now = Date.now();
    if (row.state === 'open') {
      const reopenAt = (row.opened_at?.getTime() ?? 0) + (row.open_timeout_ms ?? settings.timeoutMs);
      if (now < reopenAt) return { allowed: false, retryAt: new Date(reopenAt) };
      await trx('circuit_breakers')
        .where({ organization_id: organizationId, tool })
        .update({ state: 'half_open', half_open_attempts: 1, half_open_successes: 0, updated_at: trx.fn.now() });
      return { allowed: true, trial: true };
    }
    // half_open
    if (row.half_open_attempts >= settings.halfOpenRequests) {
      return { allowed: false, retryAt: new Date(now + settings.timeoutMs) };
    }
    await trx('circuit_breakers')
      .where({ organization_id: organizationId, tool })
      .update({ half_open_attempts: row.half_open_attempts + 1, updated_at: trx.fn.now() });
    return { allowed: true, trial: true };
  });
}

export async function recordSuccess(db: Db, organizationId: string, tool: string, settings: BreakerSettings): Promise<void> {
  await db.transaction(async (trx) => {
    const row = await lockRow(trx, organizationId, tool);
    if (row.state === 'half_open') {
      const successes = row.half_open_successes + 1;
      const closes = successes >= settings.halfOpenRequests;
      await trx('circuit_breakers')
        .where({ organization_id: organizationId, tool })
        .update(
          closes
            ? { state: 'closed', consecutive_failures: 0, opened_at: null, half_open_attempts: 0, half_open_successes: 0, updated_at: trx.fn.now() }
            : { half_open_successes: successes, updated_at: trx.fn.now() },
        );
    } else if (row.consecutive_failures !== 0) {
      await trx('circuit_breakers')
        .where({ organization_id: organizationId, tool })
        .update({ consecutive_failures: 0, updated_at: trx.fn.now() });
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
    const row = await lockRow(trx, organizationId, tool);
    const failures = row.consecutive_failures + 1;
    const opens = row.state === 'half_open' || (row.state === 'closed' && failures >= settings.threshold);
    await trx('circuit_breakers')
      .where({ organization_id: organizationId, tool })
      .update({
        consecutive_failures: failures,
        last_error: JSON.stringify(error),
        updated_at: trx.fn.now(),
        ...(opens
          ? { state: 'open', opened_at: trx.fn.now(), open_timeout_ms: settings.timeoutMs, half_open_attempts: 0, half_open_successes: 0 }
          : {}),
      });
  });
}
