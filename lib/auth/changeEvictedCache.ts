/**
 * Rows a request path reads over and over (the session check, the organization access check), remembered between
 * requests while they are known to be current: every change to what an entry copied evicts it (`evict`), from this
 * process's own writes at once and from every other writer through PostgreSQL's notices
 * (domain/auth/authChangeListener.ts). While those notices cannot be received (`serving` false: not yet listening,
 * connection lost), nothing is served and every request reads the database. `ttlMs` bounds the age of an entry should
 * a notice ever be missed.
 *
 * An entry is evicted by its own key or by any of its owners (`ownersOf`: the ids of the rows it copied, e.g. the
 * user and the organization). A read that began before an eviction may return the row as it was: `load` stores its
 * answer only when no eviction happened meanwhile (the generation counter), so an evicted copy never comes back
 * through a slow read. Absent rows are never kept.
 */
export interface ChangeEvictedCache<V> {
  /** The row, from the cache when it holds a current copy, else from `load` (and kept). */
  read(key: string, load: () => Promise<V | undefined>): Promise<V | undefined>;
  /** Forgets every entry whose key or owner is one of `ids`, or all entries for `null`. */
  evict(ids: readonly string[] | null): void;
  /** Whether entries may be served (the invalidation feed is live); turning it off forgets everything. */
  setServing(serving: boolean): void;
  readonly size: number;
}

export interface ChangeEvictedCacheOptions<V> {
  ttlMs: number;
  maxEntries: number;
  /** The ids whose change makes the entry stale. */
  ownersOf(key: string, value: V): readonly string[];
  now?: () => number;
}

interface Entry<V> {
  value: V;
  owners: readonly string[];
  storedAt: number;
}

export function createChangeEvictedCache<V>({ ttlMs, maxEntries, ownersOf, now = Date.now }: ChangeEvictedCacheOptions<V>): ChangeEvictedCache<V> {
  // Insertion order is age order: the first key is the oldest entry (evicted first when full).
  const entries = new Map<string, Entry<V>>();
  // Keys by the owners they refer to: an eviction by id touches only its entries.
  const byOwner = new Map<string, Set<string>>();
  let generation = 0;
  let serving = false;

  function remove(key: string): void {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    for (const owner of entry.owners) {
      const keys = byOwner.get(owner);
      keys?.delete(key);
      if (keys?.size === 0) byOwner.delete(owner);
    }
  }

  function keep(key: string, value: V): void {
    if (entries.size >= maxEntries) remove(entries.keys().next().value as string);
    const owners = ownersOf(key, value);
    entries.set(key, { value, owners, storedAt: now() });
    for (const owner of owners) {
      const keys = byOwner.get(owner) ?? new Set<string>();
      keys.add(key);
      byOwner.set(owner, keys);
    }
  }

  function clear(): void {
    generation += 1;
    entries.clear();
    byOwner.clear();
  }

  return {
    async read(key, load) {
      if (!serving || ttlMs <= 0) return load();
      const hit = entries.get(key);
      if (hit && now() - hit.storedAt < ttlMs) return hit.value;
      remove(key);
      const startedAt = generation;
      const value = await load();
      // Not kept when anything was evicted meanwhile (the row may predate that change) or serving stopped.
      if (value && serving && generation === startedAt) keep(key, value);
      return value;
    },
    evict(ids) {
      if (ids === null) return clear();
      generation += 1;
      for (const id of ids) {
        remove(id);
        for (const key of [...(byOwner.get(id) ?? [])]) remove(key);
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
