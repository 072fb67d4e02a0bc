import type { Db } from '../../db/knex';
import type { Config } from '../../lib/config';
import { AppError } from '../../lib/errors';
import type { RateLimiter } from '../ratelimit/limiter';
import { countOpenRuns, insertRun, lockRunAdmission, type RunRow } from './queries';

/**
 * Fairness between organizations on the one shared task queue (docs/runs.md#fairness). Every run start through the
 * API (start, retry, dead-letter replay) passes two per-organization gates, both answering 429 RATE_LIMITED with
 * `Retry-After`:
 * 1. a start budget (`RUN_START_RATE_LIMIT`, counted before anything else, refused attempts included), which turns a
 *    flood away at the cost of one upsert;
 * 2. a cap on open runs (`RUN_MAX_ACTIVE_PER_ORGANIZATION`): the count and the insert of the run row happen under a
 *    per-organization advisory lock, so concurrent starts can never overshoot it, even across API instances. This
 *    bounds how much work one organization can have queued ahead of another's at any moment, whatever the budget
 *    lets through. Within one API process the starts of an organization also queue in memory before taking the
 *    lock: a start waiting for the lock holds a pool connection, and a flood of one organization must not be able
 *    to hold all of them while other organizations' requests wait for one.
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

/** Runs tasks of the same key one after the other (in this process); keys are forgotten once idle. */
function createKeyedQueue() {
  const tails = new Map<string, Promise<void>>();
  return async function serially<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}

export function createRunAdmission(db: Db, limiter: RateLimiter, limits: Config['runAdmission']): RunAdmission {
  const { startRate, maxActivePerOrganization: cap } = limits;
  const serially = createKeyedQueue();
  const unlimited = unlimitedAdmission(db);
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
    async insert(values, alongside) {
      if (cap === null) return unlimited.insert(values, alongside);
      return serially(values.organizationId, () =>
        db.transaction(async (trx) => {
          await lockRunAdmission(trx, values.organizationId);
          if ((await countOpenRuns(trx, values.organizationId, cap)) >= cap) {
            throw new AppError(
              'RATE_LIMITED',
              `the organization has ${cap} open runs, its limit; retry when some have finished`,
              undefined,
              { 'Retry-After': String(OPEN_RUNS_RETRY_AFTER_SECONDS) },
            );
          }
          return insertWith(trx, values, alongside);
        }),
      );
    },
  };
}
