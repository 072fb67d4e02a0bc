import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { Db } from '../../db/knex';
import * as keys from '../../domain/idempotency/queries';
import type { IdempotencyKeyRow } from '../../domain/idempotency/queries';
import { AppError } from '../../lib/errors';
import type { RouteResult } from '../http/route';

/**
 * `Idempotency-Key` for routes declared `idempotent: true` (run creation, uploads, webhooks). Per organization and
 * key, the first request runs and its response is stored; a repeat of the same request within the TTL gets that
 * response again (header `Idempotent-Replayed: true`) without running the handler; the same key with a different
 * request is refused with 409 IDEMPOTENCY_CONFLICT. A duplicate arriving while the first is still running waits for
 * it (up to `waitMs`), then answers 409 if it is still running.
 *
 * Only responses the handler returned are stored. A handler that throws releases the key, so the client can retry
 * with the same key (an invalid request fails the same way again; a transient failure may succeed).
 */

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyOptions {
  /** How long a key's response is replayed (24 h). */
  ttlMs?: number;
  /** How long a duplicate waits for the first request to finish before answering 409 (10 s). */
  waitMs?: number;
  /** Lease of a running request: past it, a crashed request's key can be taken over (2 min). */
  leaseMs?: number;
  /** Poll interval of a waiting duplicate (100 ms). */
  pollMs?: number;
}

export interface IdempotencyStore {
  /** Runs `execute` at most once per (organization, key) and request fingerprint; see the module comment. */
  run(ctx: Context, organizationId: string, body: unknown, execute: () => Promise<RouteResult>): Promise<RouteResult>;
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` fingerprint alike. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Optional client-supplied checksum of a streamed body (RFC 9530 `Content-Digest`, e.g. `sha-256=:…:`). */
export const CONTENT_DIGEST_HEADER = 'Content-Digest';

/**
 * What makes two requests "the same": method, path, query and the validated body. Streamed bodies (uploads) are
 * not read before the handler (they go straight to storage), so there the media type, the length and the client's
 * `Content-Digest` (if sent) stand for the body. The media type drops its parameters: a multipart boundary is new
 * on every retry of the same upload. Without a digest, a different file of the same length is taken as the same
 * request (replayed, not stored): clients that reuse keys across files should send `Content-Digest`.
 */
export function requestFingerprint(ctx: Context, body: unknown): string {
  const bodyPart =
    body !== undefined
      ? canonicalJson(body)
      : `stream:${ctx.get('content-type').split(';')[0]!.trim().toLowerCase()}:${ctx.get('content-length')}:${ctx.get(CONTENT_DIGEST_HEADER)}`;
  const bodyHash = createHash('sha256').update(bodyPart).digest('hex');
  return createHash('sha256')
    .update(`${ctx.method}\n${ctx.path}\n${canonicalJson(ctx.query)}\n${bodyHash}`)
    .digest('hex');
}

/** The header's value, or null when absent; a malformed key is a 400. */
export function idempotencyKeyOf(ctx: Context): string | null {
  const key = ctx.get(IDEMPOTENCY_HEADER);
  if (!key) return null;
  if (!KEY_PATTERN.test(key)) {
    throw new AppError('VALIDATION_ERROR', 'invalid Idempotency-Key', [
      { path: `headers.${IDEMPOTENCY_HEADER}`, problem: '1 to 255 visible ASCII characters' },
    ]);
  }
  return key;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function isJsonBody(body: unknown): boolean {
  return body === undefined || body === null || typeof body !== 'object' || Array.isArray(body) || Object.getPrototypeOf(body) === Object.prototype;
}

export function createIdempotencyStore(db: Db, options: IdempotencyOptions = {}): IdempotencyStore {
  const ttlMs = options.ttlMs ?? 24 * 3600_000;
  const waitMs = options.waitMs ?? 10_000;
  const leaseMs = options.leaseMs ?? 120_000;
  const pollMs = options.pollMs ?? 100;

  /** Tries to own the key: a new row, or an expired one, or a running one whose lease lapsed. */
  async function claim(organizationId: string, key: string, fingerprint: string): Promise<boolean> {
    const now = Date.now();
    const fresh = { fingerprint, lockedUntil: new Date(now + leaseMs), expiresAt: new Date(now + ttlMs), createdAt: new Date(now) };
    if (await keys.insertKeyIfAbsent(db, organizationId, key, fresh)) return true;
    return keys.takeOverKey(db, organizationId, key, fresh);
  }

  function replay(row: IdempotencyKeyRow): RouteResult {
    return {
      status: row.response_status ?? 200,
      body: row.response_body ?? undefined,
      headers: { ...(row.response_headers ?? {}), 'Idempotent-Replayed': 'true' },
    };
  }

  return {
    async run(ctx, organizationId, body, execute) {
      const key = idempotencyKeyOf(ctx);
      if (!key) return execute();
      const fingerprint = requestFingerprint(ctx, body);
      const deadline = Date.now() + waitMs;

      for (;;) {
        if (await claim(organizationId, key, fingerprint)) break;
        const row = await keys.getKey(db, organizationId, key);
        if (!row) continue; // deleted between the two statements (released by a failed first request): claim again
        if (row.fingerprint !== fingerprint) {
          throw new AppError('IDEMPOTENCY_CONFLICT', `Idempotency-Key ${key} was already used for a different request`);
        }
        if (row.state === 'completed') return replay(row);
        if (Date.now() >= deadline) {
          throw new AppError('IDEMPOTENCY_CONFLICT', `a request with Idempotency-Key ${key} is still in progress; retry later`);
        }
        await sleep(pollMs);
      }

      let result: RouteResult;
      try {
        result = await execute();
      } catch (err) {
        await keys.releaseKey(db, organizationId, key, fingerprint);
        throw err;
      }
      if (!isJsonBody(result.body)) {
        // A stream or buffer cannot be stored for replay; release the key rather than replay something else.
        await keys.releaseKey(db, organizationId, key, fingerprint);
        return result;
      }
      await keys.completeKey(db, organizationId, key, fingerprint, {
        status: result.status ?? (result.body === undefined ? 204 : 200),
        headers: result.headers ?? null,
        body: result.body,
      });
      return result;
    },
  };
}
