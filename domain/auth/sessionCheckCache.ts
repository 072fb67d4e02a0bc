import type { SessionForAuth } from './queries';

/**
 * Remembers the rows the per-request session check read (session, user, organization policy), so a client sending
 * the same token many times a second costs one query per `ttlMs` instead of one per request: that query (a write to
 * PostgreSQL over loopback, its parse and the row's) was most of an authenticated read (docs/benchmarks.md).
 *
 * An entry is only served while its copy is known to be current: every change to a session, a user or an
 * organization's session policy evicts the entries that refer to it (`evict`), from this process's own writes at
 * once and from every other writer through PostgreSQL's notices (sessionChangeListener.ts). While those notices
 * cannot be received (`serving` false: not yet listening, connection lost), nothing is served and every request reads
 * the database as before. `ttlMs` bounds the age of an entry should a notice ever be missed.
 *
 * A read that began before an eviction may return the row as it was: `load` stores its answer only when no eviction
 * happened meanwhile (the generation counter), so an evicted copy never comes back through a slow read.
 */
export interface SessionCheckCache {
  /** The session's row, from the cache when it holds a current copy, else from `load` (and kept). */
  read(sessionId: string, load: () => Promise<SessionForAuth | undefined>): Promise<SessionForAuth | undefined>;
  /** Forgets every entry that refers to one of `ids` (as session, user or organization), or all entries for `null`. */
  evict(ids: readonly string[] | null): void;
  /** Whether entries may be served (the invalidation feed is live); turning it off forgets everything. */
  setServing(serving: boolean): void;
  readonly size: number;
}

export interface SessionCheckCacheOptions {
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}

interface Entry {
  row: SessionForAuth;
  storedAt: number;
}

export function createSessionCheckCache({ ttlMs, maxEntries, now = Date.now }: SessionCheckCacheOptions): SessionCheckCache {
  // Insertion order is age order: the first key is the oldest entry (evicted first when full).
  const entries = new Map<string, Entry>();
  // Session ids by the user and by the active organization they refer to: an eviction by id touches only its entries.
  const byOwner = new Map<string, Set<string>>();
  let generation = 0;
  let serving = false;

  const ownersOf = (row: SessionForAuth): string[] =>
    row.active_organization_id === null ? [row.user_id] : [row.user_id, row.active_organization_id];

  function remove(sessionId: string): void {
    const entry = entries.get(sessionId);
    if (!entry) return;
    entries.delete(sessionId);
    for (const owner of ownersOf(entry.row)) {
      const sessions = byOwner.get(owner);
      sessions?.delete(sessionId);
      if (sessions?.size === 0) byOwner.delete(owner);
    }
  }

  function keep(sessionId: string, row: SessionForAuth): void {
    if (entries.size >= maxEntries) remove(entries.keys().next().value as string);
    entries.set(sessionId, { row, storedAt: now() });
    for (const owner of ownersOf(row)) {
      const sessions = byOwner.get(owner) ?? new Set<string>();
      sessions.add(sessionId);
      byOwner.set(owner, sessions);
    }
  }

  function clear(): void {
    generation += 1;
    entries.clear();
    byOwner.clear();
  }

  return {
    async read(sessionId, load) {
      if (!serving || ttlMs <= 0) return load();
      const hit = entries.get(sessionId);
      if (hit && now() - hit.storedAt < ttlMs) return hit.row;
      remove(sessionId);
      const startedAt = generation;
      const row = await load();
      // Not kept when anything was evicted meanwhile (the row may predate that change) or serving stopped.
      if (row && serving && generation === startedAt) keep(sessionId, row);
      return row;
    },
    evict(ids) {
      if (ids === null) return clear();
      generation += 1;
      for (const id of ids) {
        remove(id);
        for (const sessionId of [...(byOwner.get(id) ?? [])]) remove(sessionId);
      }
    },
    setServing(next) {
      if (!next) clear();
      serving = next;
    },
    get size() {
      return entries.size;
    },
  };
}
