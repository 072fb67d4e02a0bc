import type { Db } from '../../db/knex';
import type { Config } from '../../lib/config';
import { AppError } from '../../lib/errors';
import type { RateLimiter } from '../ratelimit/limiter';
import { insertRun, lockAndCountOpenRuns, type RunRow } from './queries';

/**
 * Fairness between organizations on the one shared task queue (docs/runs.md#fairness). Every run start through the
 * API (start, retry, dead-letter replay) passes two per-organization gates, both answering 429 RATE_LIMITED with
 * `Retry-After`:
 * 1. a start budget (`RUN_START_RATE_LIMIT`, counted before anything else, refused attempts included), which turns a
 *    flood away at the cost of one upsert;
 * 2. a cap on open runs (`RUN_MAX_ACTIVE_PER_ORGANIZATION`): the count and the insert of the run row happen under a
 *    per-organization advisory lock, so concurrent starts can never overshoot it, even across API instances. This
 *    bounds how much work one organization can have queued ahead of another's at any moment, whatever the budget
 *    lets through. Within one API process the starts of an organization wait in memory for the organization's
 *    next admission, which takes all of them (up to MAX_BATCH) in one transaction: one lock, one count, their rows
 *    and audit lines, one commit. A start waiting for the lock would hold a pool connection, and a flood of one
 *    organization must not be able to hold all of them while other organizations' requests wait for one; and the
 *    lock serializes the organization's starts, so what it covers is paid once per batch instead of once per start
 *    (docs/benchmarks.md: with 64 starts in flight it had become the ceiling).
 * Runs started by triggers (schedules, webhooks, events) do not pass through here: they are never refused, but they
 * are open runs, so they do count towards the cap that API starts see.
 */

/** Open runs free up as runs finish, usually within seconds; a client waiting this long retries cheaply. */
const OPEN_RUNS_RETRY_AFTER_SECONDS = 2;

export type NewRun = Parameters<typeof insertRun>[1];

/** A write that commits with the run row or not at all (the audit line of the start), in the row's transaction. */
export type WithRunRow = (trx: Db, row: RunRow) => Promise<void>;

export interface RunAdmission {
  /** Counts one start attempt against the organization's budget; throws 429 RATE_LIMITED when it is spent. */
  admit(organizationId: string): Promise<void>;
  /**
   * Inserts the run row (pending) if the organization is under its cap of open runs, with `alongside` in the same
   * transaction; throws 429 otherwise.
   */
  insert(values: NewRun, alongside?: WithRunRow): Promise<RunRow>;
}

/** Inserts the row and runs `alongside` in one transaction (one commit, one WAL flush, instead of two). */
async function insertWith(trx: Db, values: NewRun, alongside?: WithRunRow): Promise<RunRow> {
  const row = await insertRun(trx, values);
  if (alongside) await alongside(trx, row);
  return row;
}

/** No gates: for callers that are not API clients (the operator CLI, services that only read runs). */
export function unlimitedAdmission(db: Db): RunAdmission {
  return {
    admit: async () => undefined,
    insert: (values, alongside) => (alongside ? db.transaction((trx) => insertWith(trx, values, alongside)) : insertRun(db, values)),
  };
}

/** Most starts one admission takes: bounds the time the organization's lock is held. */
const MAX_BATCH = 64;

/** A start waiting for its organization's next admission. */
interface WaitingStart {
  values: NewRun;
  alongside?: WithRunRow;
  resolve(row: RunRow): void;
  reject(err: unknown): void;
}

function openRunsLimit(cap: number): AppError {
  return new AppError('RATE_LIMITED', `the organization has ${cap} open runs, its limit; retry when some have finished`, undefined, {
    'Retry-After': String(OPEN_RUNS_RETRY_AFTER_SECONDS),
  });
}

/**
 * The capped insert: per organization, one admission at a time in this process, each taking every start that
 * waited meanwhile. Starts are admitted in arrival order while there is room under the cap; the rest get 429.
 */
function createBatchedInsert(db: Db, cap: number): (values: NewRun, alongside?: WithRunRow) => Promise<RunRow> {
  const waiting = new Map<string, WaitingStart[]>();
  const admitting = new Set<string>();

  async function admit(organizationId: string, batch: WaitingStart[]): Promise<void> {
    let outcomes: (RunRow | AppError)[];
    try {
      outcomes = await db.transaction(async (trx) => {
        // The lock, then the count under it: one round trip (queries.ts).
        const room = cap - (await lockAndCountOpenRuns(trx, organizationId, cap));
        const admitted: (RunRow | AppError)[] = [];
        for (const [i, start] of batch.entries()) {
          admitted.push(i < room ? await insertWith(trx, start.values, start.alongside) : openRunsLimit(cap));
        }
        return admitted;
      });
    } catch (err) {
      if (batch.length === 1) return batch[0]!.reject(err);
      // One start's failure (its row or its audit line) must not fail the others: each is tried again on its own.
      for (const start of batch) await admit(organizationId, [start]);
      return;
    }
    outcomes.forEach((outcome, i) => {
      if (outcome instanceof AppError) batch[i]!.reject(outcome);
      else batch[i]!.resolve(outcome);
    });
  }

  async function drain(organizationId: string): Promise<void> {
    admitting.add(organizationId);
    try {
      for (;;) {
        const queue = waiting.get(organizationId);
        if (!queue?.length) {
          waiting.delete(organizationId);
          return;
        }
        await admit(organizationId, queue.splice(0, MAX_BATCH));
      }
    } finally {
      admitting.delete(organizationId);
    }
  }

  return (values, alongside) =>
    new Promise<RunRow>((resolve, reject) => {
      const queue = waiting.get(values.organizationId) ?? [];
      queue.push({ values, alongside, resolve, reject });
      waiting.set(values.organizationId, queue);
      if (!admitting.has(values.organizationId)) void drain(values.organizationId);
    });
}

export function createRunAdmission(db: Db, limiter: RateLimiter, limits: Config['runAdmission']): RunAdmission {
  const { startRate, maxActivePerOrganization: cap } = limits;
  const unlimited = unlimitedAdmission(db);
  const capped = cap === null ? null : createBatchedInsert(db, cap);
  return {
    async admit(organizationId) {
      const decision = await limiter.hit([{ bucket: 'runs.start', key: organizationId, rule: startRate }]);
      if (!decision.allowed) {
        throw new AppError(
          'RATE_LIMITED',
          `the organization may start at most ${startRate!.limit} runs per ${startRate!.windowMs / 1000} s; retry in ${decision.retryAfterSeconds} s`,
          undefined,
          { 'Retry-After': String(decision.retryAfterSeconds) },
        );
      }
    },
    insert: (values, alongside) => (capped ? capped(values, alongside) : unlimited.insert(values, alongside)),
  };
}
