import type { Knex } from 'knex';
import type { Db } from '../../db/knex';

/**
 * SQL of two-factor sign-in (db/migrations/1020_two_factor.ts): the only writer of `user_two_factor`,
 * `user_recovery_codes` and `login_challenges`.
 */

type Conn = Db | Knex.Transaction;

export interface TwoFactorRow {
  user_id: string;
  secret_enc: string;
  enabled_at: Date | null;
  last_used_step: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface LoginChallengeRow {
  id: string;
  user_id: string;
  token_hash: string;
  organization_id: string | null;
  method: 'password' | 'sso';
  failed_attempts: number;
  expires_at: Date;
  created_at: Date;
}

// ------------------------------------------------------------------------------------------ TOTP secret

export async function findTwoFactor(db: Conn, userId: string, lock = false): Promise<TwoFactorRow | undefined> {
  const q = db<TwoFactorRow>('user_two_factor').where({ user_id: userId });
  return lock ? q.forUpdate().first() : q.first();
}

/** Starts (or restarts) an enrolment: a new secret, not enabled yet. Refuses (returns false) once enabled. */
export async function upsertPendingTwoFactor(db: Conn, userId: string, secretEnc: string): Promise<boolean> {
  const rows = await db.raw<{ rows: unknown[] }>(
    `INSERT INTO user_two_factor (user_id, secret_enc) VALUES (?, ?)
     ON CONFLICT (user_id) DO UPDATE SET secret_enc = EXCLUDED.secret_enc, last_used_step = NULL, updated_at = now()
       WHERE user_two_factor.enabled_at IS NULL
     RETURNING user_id`,
    [userId, secretEnc],
  );
  return rows.rows.length > 0;
}

/**
 * Records an accepted code's time step, only if it is later than the last accepted one (a code works once).
 * `enable` also turns a pending enrolment on. False when the step was already used.
 */
export async function acceptTotpStep(db: Conn, userId: string, step: number, enable: boolean): Promise<boolean> {
  const updated = await db('user_two_factor')
    .where({ user_id: userId })
    .andWhere((w) => w.whereNull('last_used_step').orWhere('last_used_step', '<', step))
    .update({
      last_used_step: step,
      updated_at: db.fn.now(),
      ...(enable ? { enabled_at: db.fn.now() } : {}),
    });
  return updated > 0;
}

export async function deleteTwoFactor(db: Conn, userId: string): Promise<void> {
  await db('user_two_factor').where({ user_id: userId }).delete();
  await db('user_recovery_codes').where({ user_id: userId }).delete();
}

// ------------------------------------------------------------------------------------------ recovery codes

export async function replaceRecoveryCodes(db: Conn, userId: string, codeHashes: string[]): Promise<void> {
  await db('user_recovery_codes').where({ user_id: userId }).delete();
  await db('user_recovery_codes').insert(codeHashes.map((code_hash) => ({ user_id: userId, code_hash })));
}

/** Spends a recovery code; false when it is unknown or already spent. */
export async function consumeRecoveryCode(db: Conn, userId: string, codeHash: string): Promise<boolean> {
  const updated = await db('user_recovery_codes')
    .where({ user_id: userId, code_hash: codeHash })
    .whereNull('used_at')
    .update({ used_at: db.fn.now() });
  return updated > 0;
}

export async function countUnusedRecoveryCodes(db: Conn, userId: string): Promise<number> {
  const row = await db('user_recovery_codes').where({ user_id: userId }).whereNull('used_at').count<{ count: string }[]>('* as count').first();
  return Number(row?.count ?? 0);
}

// ------------------------------------------------------------------------------------------ login challenges

export async function insertLoginChallenge(
  db: Conn,
  input: { userId: string; tokenHash: string; organizationId: string | null; method: 'password' | 'sso'; expiresAt: Date },
): Promise<void> {
  // Expired challenges of the user go on the way, so the table stays small.
  await db('login_challenges').where({ user_id: input.userId }).andWhere('expires_at', '<=', db.fn.now()).delete();
  await db('login_challenges').insert({
    user_id: input.userId,
    token_hash: input.tokenHash,
    organization_id: input.organizationId,
    method: input.method,
    expires_at: input.expiresAt,
  });
}

/** The live challenge of `tokenHash`, locked for the caller's transaction. */
export async function findLiveChallenge(trx: Knex.Transaction, tokenHash: string): Promise<LoginChallengeRow | undefined> {
  return trx<LoginChallengeRow>('login_challenges')
    .where({ token_hash: tokenHash })
    .andWhere('expires_at', '>', trx.fn.now())
    .forUpdate()
    .first();
}

/** The live challenge's user, read without a lock (to count the attempt before the spending transaction). */
export async function findLiveChallengeUser(db: Conn, tokenHash: string): Promise<string | undefined> {
  const row: { user_id: string } | undefined = await db('login_challenges')
    .where({ token_hash: tokenHash })
    .andWhere('expires_at', '>', db.fn.now())
    .first('user_id');
  return row?.user_id;
}

/** Counts a wrong code; returns the new count. */
export async function countChallengeFailure(db: Conn, id: string): Promise<number> {
  const [row] = await db('login_challenges').where({ id }).increment('failed_attempts', 1).returning(['failed_attempts']);
  return Number((row as { failed_attempts: number } | undefined)?.failed_attempts ?? 0);
}

export async function deleteChallenge(db: Conn, id: string): Promise<void> {
  await db('login_challenges').where({ id }).delete();
}

// ------------------------------------------------------------------------------------------ reads for others

/** Which of `userIds` have two-factor sign-in turned on (for the members list). */
export async function usersWithTwoFactor(db: Conn, userIds: string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows: { user_id: string }[] = await db('user_two_factor').whereIn('user_id', userIds).whereNotNull('enabled_at').select('user_id');
  return new Set(rows.map((r) => r.user_id));
}
