import type { Db } from '../../db/knex';
import type { RunStatus } from '../../lib/dag/model';
import type { RunExecutions } from './executions';
import { createRunFinishNotices, type RunFinishNotices } from './finishNotices';
import { findRunById, type RunRow } from './queries';

/**
 * Run and wait (docs/runs.md#run-and-wait): an answer that waits for a run to finish, never by polling PostgreSQL.
 * Two signals race, and the first ends the wait (the other is cancelled):
 * - the run's notice on `loom_run_finished` (a PostgreSQL NOTIFY sent when its row turns final, domain/runs/
 *   finishNotices.ts): it comes at the commit of the final write;
 * - Temporal's result long poll on the run's execution (`handle.result()`, cancelled at the deadline): the
 *   interpreter writes the final row before its execution closes, so it comes after the same commit, once the
 *   workflow task that made it has completed and the server has recorded the close. Never missed, and it also ends
 *   the wait of an execution that closed without writing its row (terminated).
 * Measured on the dev stack (1-node runs, in-process API, loaded 2-core machine): the notice came 22 ms (p50; min
 * 13, p99 75) before the result, out of ~105 ms from the start request to the notice. Either way the row read after
 * the signal is final, so a GET right after the answer agrees with it.
 */

const OPEN: RunStatus[] = ['pending', 'running'];
/** Pause before waiting again when the long poll ended early without a final row (a failed call; rare). */
const RETRY_PAUSE_MS = 100;
/** The longest a webhook waiting for its answer goes without reading the run (its notice may have been missed). */
const ANSWER_RECHECK_MS = 1000;

export interface RunWaiter {
  /**
   * Waits until the run's stored row is final or `waitMs` has passed, whichever is first, and returns the row as
   * stored then; null when the organization has no such run. An execution that closed without writing its row
   * (terminated, timed out) ends the wait too: the run reader reconciles such rows. `known`: the row as just read,
   * or `'open'` for a run the caller has just started (the wait then begins without reading it first).
   */
  untilFinished(organizationId: string, runId: string, waitMs: number, known?: RunRow | 'open'): Promise<RunRow | null>;
  /**
   * The same, ending also when the run has given its webhook answer (a respond node, migration 1200): the row's
   * `response` is set at the commit of the notice that wakes this wait.
   */
  untilAnswered(organizationId: string, runId: string, waitMs: number, known?: RunRow | 'open'): Promise<RunRow | null>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const isOpenRun = (row: Pick<RunRow, 'status'>): boolean => OPEN.includes(row.status);

/** Resolves at the first of: the run's finish notice, its execution's close, `ms` elapsed. */
async function firstSignal(executions: RunExecutions, notices: RunFinishNotices, runId: string, ms: number): Promise<void> {
  const done = new AbortController();
  try {
    await Promise.race([executions.waitClosed(runId, ms, done.signal), notices.next(runId, done.signal)]);
  } finally {
    done.abort();
  }
}

export function createRunWaiter(db: Db, executions: RunExecutions, log?: (err: unknown, message: string) => void): RunWaiter {
  // One LISTEN connection per waiter: domain/services.ts builds one per process, shared by runs and webhooks.
  const notices = createRunFinishNotices(db, log);
  /**
   * Waits until `settled(row)` holds (a final row always does), or the deadline. `recheckMs`: the longest between two
   * reads of the row (a notice that came before LISTEN took effect is missed; the execution's close catches that for
   * the end of a run, not for an answer given midway).
   */
  async function until(
    organizationId: string,
    runId: string,
    waitMs: number,
    known: RunRow | 'open' | undefined,
    settled: (row: RunRow) => boolean,
    recheckMs = Number.POSITIVE_INFINITY,
  ): Promise<RunRow | null> {
    const deadline = Date.now() + waitMs;
    let row: RunRow | 'open' | null = known ?? (await findRunById(db, organizationId, runId));
    while (row === 'open' || (row && isOpenRun(row) && !settled(row))) {
      const left = deadline - Date.now();
      if (left <= 0) break;
      await firstSignal(executions, notices, runId, Math.min(left, recheckMs));
      row = await findRunById(db, organizationId, runId);
      if (!row || !isOpenRun(row) || settled(row) || Date.now() >= deadline) return row;
      // Still open before the deadline: the execution closed without its final write, or the call failed.
      const status = await executions.status(runId);
      if (status !== null && status !== 'RUNNING') return row;
      await sleep(Math.min(RETRY_PAUSE_MS, Math.max(0, deadline - Date.now())));
    }
    return row === 'open' ? findRunById(db, organizationId, runId) : row;
  }

  return {
    untilFinished: (organizationId, runId, waitMs, known) => until(organizationId, runId, waitMs, known, () => false),
    untilAnswered: (organizationId, runId, waitMs, known) => until(organizationId, runId, waitMs, known, (row) => Boolean(row.response), ANSWER_RECHECK_MS),
  };
}
