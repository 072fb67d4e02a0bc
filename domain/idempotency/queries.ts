import type { Db } from '../../db/knex';

/**
 * All SQL on `idempotency_keys` (the Idempotency-Key records of api/middleware/idempotency.ts, which keeps the HTTP
 * side: the header, the request fingerprint, waiting for a running duplicate, replaying the stored answer). A record
 * is owned by one request while `in_progress`, then holds that request's JSON response until it expires.
 */

const TABLE = 'idempotency_keys';

export interface IdempotencyKeyRow {
  fingerprint: string;
  state: 'in_progress' | 'completed';
  locked_until: Date;
  expires_at: Date;
  response_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: unknown;
}

/** The record a request starts from when it takes a key: running, leased, no response yet. */
export interface FreshIdempotencyKey {
  fingerprint: string;
  lockedUntil: Date;
  expiresAt: Date;
  createdAt: Date;
}

function freshValues(fresh: FreshIdempotencyKey) {
  return {
    fingerprint: fresh.fingerprint,
    state: 'in_progress',
    locked_until: fresh.lockedUntil,
    expires_at: fresh.expiresAt,
    response_status: null,
    response_headers: null,
    response_body: null,
    created_at: fresh.createdAt,
  };
}

/** Inserts the record unless the key exists; true when this call created it. */
export async function insertKeyIfAbsent(db: Db, organizationId: string, key: string, fresh: FreshIdempotencyKey): Promise<boolean> {
  const inserted = await db(TABLE)
    .insert({ organization_id: organizationId, key, ...freshValues(fresh) })
    .onConflict(['organization_id', 'key'])
    .ignore()
    .returning('key');
  return inserted.length > 0;
}

/**
 * Takes over an existing record that is expired (any request may reuse the key) or whose running request of the
 * same fingerprint let its lease lapse; true when taken.
 */
export async function takeOverKey(db: Db, organizationId: string, key: string, fresh: FreshIdempotencyKey): Promise<boolean> {
  const taken = await db(TABLE)
    .where({ organization_id: organizationId, key })
    .andWhere((q) =>
      q
        .where('expires_at', '<=', db.fn.now())
        .orWhere((q2) => q2.where({ state: 'in_progress', fingerprint: fresh.fingerprint }).andWhere('locked_until', '<=', db.fn.now())),
    )
    .update(freshValues(fresh))
    .returning('key');
  return taken.length > 0;
}

export async function getKey(db: Db, organizationId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
  return (await db(TABLE).where({ organization_id: organizationId, key }).first()) as IdempotencyKeyRow | undefined;
}

/** Deletes the running record of this request (its handler failed, or its answer cannot be stored). */
export async function releaseKey(db: Db, organizationId: string, key: string, fingerprint: string): Promise<void> {
  await db(TABLE).where({ organization_id: organizationId, key, fingerprint, state: 'in_progress' }).delete();
}

/** Stores the request's JSON response for replay. */
export async function completeKey(
  db: Db,
  organizationId: string,
  key: string,
  fingerprint: string,
  response: { status: number; headers: Record<string, string> | null; body: unknown },
): Promise<void> {
  await db(TABLE)
    .where({ organization_id: organizationId, key, fingerprint })
    .update({
      state: 'completed',
      response_status: response.status,
      response_headers: response.headers ? JSON.stringify(response.headers) : null,
      response_body: response.body === undefined ? null : JSON.stringify(response.body),
    });
}

/** Deletes expired records (retention); returns how many. Keys also expire lazily when reused. */
export async function purgeExpiredIdempotencyKeys(db: Db): Promise<number> {
  return db(TABLE).where('expires_at', '<=', db.fn.now()).delete();
}
