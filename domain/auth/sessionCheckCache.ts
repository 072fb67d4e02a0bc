import { createChangeEvictedCache, type ChangeEvictedCache } from '../../lib/auth/changeEvictedCache';
import type { SessionForAuth } from './queries';

/**
 * Remembers the rows the per-request session check read (session, user, organization policy), so a client sending
 * the same token many times a second costs one query per `ttlMs` instead of one per request: that query (a write to
 * PostgreSQL over loopback, its parse and the row's) was most of an authenticated read (docs/benchmarks.md).
 * Keyed by session id; a change to the session, its user or its active organization evicts the entry
 * (lib/auth/changeEvictedCache.ts has the rules).
 */
export type SessionCheckCache = ChangeEvictedCache<SessionForAuth>;

export interface SessionCheckCacheOptions {
  ttlMs: number;
  maxEntries: number;
  now?: () => number;
}

export function createSessionCheckCache(options: SessionCheckCacheOptions): SessionCheckCache {
  return createChangeEvictedCache<SessionForAuth>({
    ...options,
    ownersOf: (_sessionId, row) => (row.active_organization_id === null ? [row.user_id] : [row.user_id, row.active_organization_id]),
  });
}
