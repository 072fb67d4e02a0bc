/**
 * A small shared rate limiter with its state in PostgreSQL (table `rate_limit_counters`, migration 0101), so all
 * API instances and workers count against the same limits.
 *
 * Interface
 * - `createRateLimiter(db)` → `RateLimiter`.
 * - `limiter.consume(hits)` counts one hit for each `{ bucket, key, rule }` in ONE round trip and throws
 *   `AppError('RATE_LIMITED')` (429, header `Retry-After` in whole seconds) when any of them is over its limit.
 *   Rules that are `null` (switched off in configuration) are skipped.
 * - `limiter.hit(hits)` does the same counting but returns the decision instead of throwing (for callers that
 *   want to drop or delay rather than answer 429, e.g. per-trigger webhook limits).
 * - `limiter.reset(bucket, key)` forgets a key (tests, operators).
 * - `parseRateRule("10/15m")` → `{ limit: 10, windowMs: 900000 }`; `"off"` → null. lib/config.ts uses it.
 *
 * Algorithm: fixed windows aligned to the epoch (window start = floor(now / window) * window, clock of the
 * database so instances agree). Every hit counts, allowed or not. A burst of up to twice the limit can straddle a
 * window boundary; that is the accepted price of one upsert per check. `bucket` names the limit (e.g.
 * `auth.login.ip`), `key` the subject (an IP, an e-mail, an id); keys are stored as SHA-256 so the table holds no
 * personal data.
 */
import { createHash } from 'node:crypto';
import type { Db } from '../../db/knex';
import { queryNamed } from '../../db/namedStatement';
import { AppError } from '../../lib/errors';
import type { RateRule } from '../../lib/rateRule';

export { parseRateRule, type RateRule } from '../../lib/rateRule';

export interface RateLimitHit {
  bucket: string;
  key: string;
  rule: RateRule | null;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Seconds until the most constraining exceeded window ends (0 when allowed). */
  retryAfterSeconds: number;
  /** The buckets that are over their limit. */
  exceeded: string[];
}

export interface RateLimiter {
  hit(hits: RateLimitHit[]): Promise<RateLimitDecision>;
  consume(hits: RateLimitHit[]): Promise<void>;
  reset(bucket: string, key: string): Promise<void>;
}

const CLEANUP_EVERY_MS = 60_000;

/** The 429 of a refused hit, for callers that decide with `hit` and refuse later. */
export function rateLimited(retryAfterSeconds: number): AppError {
  return new AppError('RATE_LIMITED', `too many requests, retry in ${retryAfterSeconds} s`, undefined, {
    'Retry-After': String(retryAfterSeconds),
  });
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * The counting statement for `n` hits, as a named statement (db/namedStatement.ts): one per number of hits, parsed
 * and planned once per connection. Every login counts two hits and every run start one, so its planning (a CTE with
 * an upsert) was paid on each of them.
 */
const hitStatements = new Map<number, string>();

function hitStatement(n: number): string {
  let text = hitStatements.get(n);
  if (text === undefined) {
    const values = Array.from({ length: n }, (_, i) => `($${4 * i + 1}::text, $${4 * i + 2}::text, $${4 * i + 3}::int, $${4 * i + 4}::bigint)`).join(', ');
    text = `WITH input(bucket, key, lim, window_ms) AS (VALUES ${values}),
            clock AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now_ms),
            counted AS (
              INSERT INTO rate_limit_counters AS c (bucket, key, window_start_ms, hits, expires_at)
              SELECT i.bucket, i.key, (clock.now_ms / i.window_ms) * i.window_ms, 1,
                     to_timestamp(((clock.now_ms / i.window_ms) * i.window_ms + i.window_ms) / 1000.0)
              FROM input i, clock
              ON CONFLICT (bucket, key, window_start_ms) DO UPDATE SET hits = c.hits + 1
              RETURNING c.bucket, c.key, c.hits, c.window_start_ms
            )
       SELECT counted.bucket,
              counted.hits > input.lim AS over,
              (counted.window_start_ms + input.window_ms - clock.now_ms) AS retry_ms
       FROM counted
       JOIN input ON input.bucket = counted.bucket AND input.key = counted.key, clock`;
    hitStatements.set(n, text);
  }
  return text;
}

export function createRateLimiter(db: Db): RateLimiter {
  let lastCleanup = 0;

  function cleanupSometimes(): void {
    const now = Date.now();
    if (now - lastCleanup < CLEANUP_EVERY_MS) return;
    lastCleanup = now;
    // Housekeeping only; a failure here must never fail a request.
    db('rate_limit_counters')
      .where('expires_at', '<', db.fn.now())
      .delete()
      .catch(() => undefined);
  }

  async function hit(hits: RateLimitHit[]): Promise<RateLimitDecision> {
    const active = hits.filter((h): h is RateLimitHit & { rule: RateRule } => h.rule !== null);
    if (active.length === 0) return { allowed: true, retryAfterSeconds: 0, exceeded: [] };
    cleanupSometimes();
    const bindings = active.flatMap((h) => [h.bucket, hashKey(h.key), h.rule.limit, h.rule.windowMs]);
    const rows = await queryNamed<{ bucket: string; over: boolean; retry_ms: string }>(db, `rate_limit_hit_${active.length}`, hitStatement(active.length), bindings);
    const over = rows.filter((r) => r.over);
    if (over.length === 0) return { allowed: true, retryAfterSeconds: 0, exceeded: [] };
    const retryMs = Math.max(...over.map((r) => Number(r.retry_ms)));
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil(retryMs / 1000)),
      exceeded: over.map((r) => r.bucket),
    };
  }

  return {
    hit,
    async consume(hits) {
      const decision = await hit(hits);
      if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds);
    },
    async reset(bucket, key) {
      await db('rate_limit_counters').where({ bucket, key: hashKey(key) }).delete();
    },
  };
}
