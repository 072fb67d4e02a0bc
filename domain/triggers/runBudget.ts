import type { Db } from '../../db/knex';
import { createRateLimiter, type RateRule } from '../ratelimit/limiter';

/**
 * Per-organization budgets of runs started by triggers whose pace a tenant could otherwise pick (events chain, a
 * schedule fires every second): `prepareTriggeredRun`'s `admit`. Past the budget the run is not started; the caller
 * makes it wait for the next window (events are deferred, firings sleep) rather than dropping it.
 */

/** The organization has started its budget of runs by this trigger this window. */
export class TriggerRunBudgetSpent extends Error {
  constructor(
    what: string,
    readonly retryAfterSeconds: number,
  ) {
    super(`the organization's budget of ${what} is spent; retry in ${retryAfterSeconds} s`);
  }
}

/**
 * An `admit` counting one new run per call against the organization's budget in `bucket` (a repeated prepare of a
 * run already inserted never calls it); throws TriggerRunBudgetSpent past it. A null rule (`off`) admits every run.
 */
export function triggerRunBudget(db: Db, bucket: string, rule: RateRule | null, what: string): (organizationId: string) => Promise<void> {
  const limiter = createRateLimiter(db);
  return async (organizationId) => {
    const decision = await limiter.hit([{ bucket, key: organizationId, rule }]);
    if (!decision.allowed) throw new TriggerRunBudgetSpent(what, decision.retryAfterSeconds);
  };
}
