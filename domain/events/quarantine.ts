import type { Knex } from 'knex';
import type { Config } from '../../lib/config';
import { isUnavailableError } from '../../lib/unavailable';
import { recordEventDispatchFailure, type OutboxEventRow } from './queries';

/**
 * Poison events (docs/events.md#quarantine). An event whose dispatch fails for a reason of its own (its data, the
 * organization's settings, a bug on its path) is retried with exponential backoff, EVENTS_DISPATCH_RETRY_INTERVAL
 * doubling up to EVENTS_DISPATCH_RETRY_MAX_INTERVAL, and after EVENTS_DISPATCH_MAX_ATTEMPTS failed attempts it is
 * quarantined: no longer claimed, listed at GET /api/v1/events/quarantine, replayable once fixed. Other events go
 * on meanwhile. A failure of the platform itself (PostgreSQL or Temporal unreachable, a deadlock) says nothing about
 * the event: the whole batch is retried later and no attempt is counted.
 */

export type QuarantinePolicy = Pick<Config['triggers'], 'dispatchMaxAttempts' | 'dispatchRetryInitialMs' | 'dispatchRetryMaxMs'>;

/** Errors that are the platform's, not the event's. */
export function isTransientDispatchError(err: unknown): boolean {
  if (isUnavailableError(err)) return true;
  const code = (err as { code?: unknown } | null)?.code;
  // PostgreSQL: serialization failure and deadlock (40xxx), out of resources (53xxx), operator intervention (57xxx).
  return typeof code === 'string' && /^(40|53|57)[0-9A-Z]{3}$/.test(code);
}

/** The wait before attempt `attempts + 1`, after `attempts` failed ones. */
export function retryDelayMs(policy: QuarantinePolicy, attempts: number): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  return Math.min(policy.dispatchRetryInitialMs * 2 ** exponent, policy.dispatchRetryMaxMs);
}

/** What a tenant may read of a failure: the database's own words without the statement knex prefixes them with. */
export function describeDispatchError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown } | null)?.code;
  const text = typeof code === 'string' && message.includes(' - ') ? message.slice(message.lastIndexOf(' - ') + 3) : message;
  return (text || 'dispatch failed').slice(0, 1000);
}

/** Counts a failed attempt on the claimed event; whether it is now quarantined. */
export async function recordDispatchFailure(
  db: Knex,
  event: Pick<OutboxEventRow, 'id' | 'attempts'>,
  err: unknown,
  policy: QuarantinePolicy,
): Promise<{ attempts: number; quarantined: boolean; error: string }> {
  const attempts = event.attempts + 1;
  const quarantined = attempts >= policy.dispatchMaxAttempts;
  const error = describeDispatchError(err);
  await recordEventDispatchFailure(db, event.id, { attempts, error, retryInMs: retryDelayMs(policy, attempts), quarantine: quarantined });
  return { attempts, quarantined, error };
}
