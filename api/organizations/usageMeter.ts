import type { Db } from '../../db/knex';
import type { Logger } from '../../lib/logger';
import { addApiCalls, getApiCalls } from './queries';

/**
 * Counts API calls per organization per calendar month (UTC), shared across API instances through PostgreSQL.
 *
 * Counting is in memory and flushed in one statement every `flushIntervalMs`, so a request never waits on a
 * write. The quota check reads the stored count cached for `cacheMs` plus this instance's unflushed calls.
 * Over-admission window: another instance's calls become visible here only after its flush and our cache expiry,
 * so with N instances up to roughly N x (calls per instance in flushIntervalMs + cacheMs) calls may pass beyond
 * the limit. Calls of a crashed instance not yet flushed (at most one interval) are lost (under-counted).
 */
export function currentPeriod(now = new Date()): string {
  return now.toISOString().slice(0, 7);
}

export interface ApiCallMeter {
  /** Calls this month so far, as seen by this instance. */
  used(organizationId: string): Promise<number>;
  record(organizationId: string): void;
  flush(): Promise<void>;
  stop(): Promise<void>;
}

export function createApiCallMeter(db: Db, logger: Logger, options: { flushIntervalMs: number; cacheMs?: number }): ApiCallMeter {
  const cacheMs = options.cacheMs ?? 1000;
  let pending = new Map<string, number>();
  let pendingPeriod = currentPeriod();
  const cache = new Map<string, { period: string; stored: number; at: number; loading?: Promise<number> }>();
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> | null = null;

  async function write(batch: Map<string, number>, period: string): Promise<void> {
    if (!batch.size) return;
    try {
      await addApiCalls(db, period, [...batch]);
      // The flushed calls are now part of the stored count; keep the cache consistent without a read.
      for (const [org, n] of batch) {
        const c = cache.get(org);
        if (c && c.period === period) c.stored += n;
      }
    } catch (err) {
      // Put them back: they will go out with the next flush.
      if (pendingPeriod === period) for (const [org, n] of batch) pending.set(org, (pending.get(org) ?? 0) + n);
      logger.warn({ err }, 'api call counter flush failed');
    }
  }

  /** Takes the pending counts synchronously (so a month change cannot relabel them) and writes them in order. */
  function flush(): Promise<void> {
    const batch = pending;
    const period = pendingPeriod;
    pending = new Map();
    const run = (): Promise<void> => write(batch, period);
    flushing = (flushing ?? Promise.resolve()).then(run, run);
    return flushing;
  }

  return {
    async used(organizationId) {
      const period = currentPeriod();
      let entry = cache.get(organizationId);
      if (!entry || entry.period !== period || Date.now() - entry.at > cacheMs) {
        if (!entry?.loading || entry.period !== period) {
          const loading = getApiCalls(db, organizationId, period);
          entry = { period, stored: entry?.period === period ? entry.stored : 0, at: entry?.at ?? 0, loading };
          cache.set(organizationId, entry);
          try {
            entry.stored = await loading;
            entry.at = Date.now();
          } finally {
            entry.loading = undefined;
          }
        } else {
          await entry.loading;
        }
      }
      const local = pendingPeriod === period ? (pending.get(organizationId) ?? 0) : 0;
      return cache.get(organizationId)!.stored + local;
    },
    record(organizationId) {
      const period = currentPeriod();
      if (period !== pendingPeriod) {
        // Month boundary: what is pending belongs to the old month.
        void flush();
        pendingPeriod = period;
      }
      pending.set(organizationId, (pending.get(organizationId) ?? 0) + 1);
      if (!timer) {
        timer = setInterval(() => void flush(), options.flushIntervalMs);
        timer.unref();
      }
    },
    flush,
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await flush();
    },
  };
}
