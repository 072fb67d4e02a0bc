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

interface CachedCount {
  period: string;
  stored: number;
  at: number;
}

export function createApiCallMeter(db: Db, logger: Logger, options: { flushIntervalMs: number; cacheMs?: number }): ApiCallMeter {
  const cacheMs = options.cacheMs ?? 1000;
  let pending = new Map<string, number>();
  let pendingPeriod = currentPeriod();
  // Calls taken from `pending` by a flush whose write has not committed yet: still counted here meanwhile.
  const writing = new Map<string, number>();
  const cache = new Map<string, CachedCount>();
  const loads = new Map<string, Promise<CachedCount>>();
  let timer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> | null = null;

  function load(organizationId: string, period: string): Promise<CachedCount> {
    let p = loads.get(organizationId);
    if (!p) {
      p = getApiCalls(db, organizationId, period)
        .then((stored) => {
          const entry = { period, stored, at: Date.now() };
          cache.set(organizationId, entry);
          return entry;
        })
        .finally(() => loads.delete(organizationId));
      loads.set(organizationId, p);
    }
    return p;
  }

  function adjust(map: Map<string, number>, org: string, n: number): void {
    const v = (map.get(org) ?? 0) + n;
    if (v) map.set(org, v);
    else map.delete(org);
  }

  async function write(batch: Map<string, number>, period: string): Promise<void> {
    if (!batch.size) return;
    for (const [org, n] of batch) adjust(writing, org, n);
    try {
      await addApiCalls(db, period, [...batch]);
      // The stored count changed: the next check reads it afresh.
      for (const org of batch.keys()) cache.delete(org);
    } catch (err) {
      // Put them back: they will go out with the next flush.
      if (pendingPeriod === period) for (const [org, n] of batch) adjust(pending, org, n);
      logger.warn({ err }, 'api call counter flush failed');
    } finally {
      for (const [org, n] of batch) adjust(writing, org, -n);
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
      if (!entry || entry.period !== period || Date.now() - entry.at > cacheMs) entry = await load(organizationId, period);
      const local = pendingPeriod === period ? (pending.get(organizationId) ?? 0) + (writing.get(organizationId) ?? 0) : 0;
      return entry.stored + local;
    },
    record(organizationId) {
      const period = currentPeriod();
      if (period !== pendingPeriod) {
        // Month boundary: what is pending belongs to the old month.
        void flush();
        pendingPeriod = period;
      }
      adjust(pending, organizationId, 1);
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
