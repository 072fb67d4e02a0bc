import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import { queryNamed } from '../../db/namedStatement';

/** All SQL of the auth domain. Pure functions taking the connection (or a transaction) first. */

type Conn = Db | Knex.Transaction;

export interface UserRow {
  id: string;
  email: string;
  name: string | null;
  email_verified: boolean;
  image: string | null;
  password_hash: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface SessionRow {
  id: string;
  user_id: string;
  token: string;
  previous_token: string | null;
  rotated_at: Date | null;
  expires_at: Date;
  active_organization_id: string | null;
  /** Set when the session was opened by this organization's single sign-on: it acts in that organization only. */
  sso_organization_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  created_at: Date;
  updated_at: Date;
}

export type AuthTokenPurpose = 'password_reset' | 'email_verification';

// ------------------------------------------------------------------------------------------------ users

export async function findUserByEmail(db: Conn, email: string): Promise<UserRow | undefined> {
  // Matches the unique index on lower(email).
  return db<UserRow>('users').whereRaw('lower(email) = lower(?)', [email]).first();
}

/** A user as a password sign-in needs it: with whether two-factor sign-in is on, so the login asks no second query. */
export type SignInUser = UserRow & { two_factor_enabled: boolean };

export async function findUserForSignIn(db: Conn, email: string): Promise<SignInUser | undefined> {
  // Named (db/namedStatement.ts): every password login reads it. Matches the unique index on lower(email).
  const [row] = await queryNamed<SignInUser>(db, 'user_for_sign_in', USER_FOR_SIGN_IN, [email]);
  return row;
}

/** The columns of UserRow, named: a prepared statement's result may not change shape while it is cached. */
const USER_FOR_SIGN_IN = `
  SELECT u.id, u.email, u.name, u.email_verified, u.image, u.password_hash, u.created_at, u.updated_at,
         EXISTS (SELECT 1 FROM user_two_factor t WHERE t.user_id = u.id AND t.enabled_at IS NOT NULL) AS two_factor_enabled
    FROM users u
   WHERE lower(u.email) = lower($1)
   LIMIT 1`;

export async function findUserById(db: Conn, id: string): Promise<UserRow | undefined> {
  return db<UserRow>('users').where({ id }).first();
}

export async function insertUser(
  db: Conn,
  input: { email: string; name: string | null; passwordHash: string },
): Promise<UserRow> {
  const [row] = await db<UserRow>('users')
    .insert({ email: input.email, name: input.name, password_hash: input.passwordHash })
    .returning('*');
  return row!;
}

/** An account made by SSO sign-in (docs/auth.md#single-sign-on-openid-connect): no password, e-mail verified by the provider. */
export async function insertSsoUser(db: Conn, input: { email: string; name: string | null }): Promise<UserRow> {
  const [row] = await db<UserRow>('users')
    .insert({ email: input.email, name: input.name, password_hash: null, email_verified: true })
    .returning('*');
  return row!;
}

export async function updateUserProfile(
  db: Conn,
  id: string,
  patch: { name?: string | null; image?: string | null },
): Promise<UserRow | undefined> {
  const [row] = await db<UserRow>('users')
    .where({ id })
    .update({ ...patch, updated_at: db.fn.now() as unknown as Date })
    .returning('*');
  return row;
}

export async function updatePasswordHash(
  db: Conn,
  id: string,
  passwordHash: string,
  options: { verifyEmail?: boolean } = {},
): Promise<void> {
  await db('users')
    .where({ id })
    .update({
      password_hash: passwordHash,
      updated_at: db.fn.now(),
      ...(options.verifyEmail ? { email_verified: true } : {}),
    });
}

export async function markEmailVerified(db: Conn, id: string): Promise<UserRow | undefined> {
  const [row] = await db<UserRow>('users')
    .where({ id })
    .update({ email_verified: true, updated_at: db.fn.now() as unknown as Date })
    .returning('*');
  return row;
}

/** Serialises session creation per user (max-sessions eviction must not race). */
export async function lockUser(trx: Knex.Transaction, id: string): Promise<boolean> {
  // Named (db/namedStatement.ts): every sign-in takes it.
  const rows = await queryNamed<{ id: string }>(trx, 'user_lock', 'SELECT id FROM users WHERE id = $1 FOR UPDATE', [id]);
  return rows.length > 0;
}

/** The user's membership of an organization, with that organization's idle policy; undefined when not a member. */
export async function findMembershipForSwitch(
  db: Conn,
  organizationId: string,
  userId: string,
): Promise<{ organization_idle_timeout_minutes: number | null } | undefined> {
  return db('memberships as m')
    .join('organizations as o', 'o.id', 'm.organization_id')
    .where({ 'm.organization_id': organizationId, 'm.user_id': userId })
    .first('o.session_idle_timeout_minutes as organization_idle_timeout_minutes');
}

// --------------------------------------------------------------------------------------------- sessions

/** What the per-request session check reads: the session and its user (without the password hash). */
export interface SessionForAuth {
  id: string;
  user_id: string;
  /** Epoch milliseconds: the check only compares them with the clock. */
  expires_at_ms: number;
  updated_at_ms: number;
  active_organization_id: string | null;
  /** The organization whose single sign-on opened the session, which is the only one it acts in (null: any). */
  sso_organization_id: string | null;
  /** The active organization's `security.sessionTimeoutMinutes` policy (null: none, or no active organization). */
  organization_idle_timeout_minutes: number | null;
  user: Omit<UserRow, 'password_hash'>;
}

interface SessionForAuthRow {
  id: string;
  user_id: string;
  expires_at_ms: number;
  updated_at_ms: number;
  active_organization_id: string | null;
  sso_organization_id: string | null;
  organization_idle_timeout_minutes: number | null;
  email: string;
  name: string | null;
  image: string | null;
  email_verified: boolean;
  user_created_at: Date;
  user_updated_at: Date;
}

const SESSION_FOR_AUTH = `
  SELECT s.id, s.user_id, s.active_organization_id, s.sso_organization_id,
         (extract(epoch FROM s.expires_at) * 1000)::float8 AS expires_at_ms,
         (extract(epoch FROM s.updated_at) * 1000)::float8 AS updated_at_ms,
         o.session_idle_timeout_minutes AS organization_idle_timeout_minutes,
         u.email, u.name, u.image, u.email_verified, u.created_at AS user_created_at, u.updated_at AS user_updated_at
    FROM sessions s JOIN users u ON u.id = s.user_id
         LEFT JOIN organizations o ON o.id = s.active_organization_id
   WHERE s.id = $1`;

/**
 * The per-request check: one query joining the session and its user by primary keys, so the check also refuses a
 * session whose user is gone, and GET /api/auth/me needs no query of its own. It runs on every protected request,
 * as a named statement (db/namedStatement.ts).
 */
export async function findSessionForAuth(db: Db, id: string): Promise<SessionForAuth | undefined> {
  const rows = await queryNamed<SessionForAuthRow>(db, 'auth_session_check', SESSION_FOR_AUTH, [id]);
  const row = rows[0];
  if (!row) return undefined;
  return {
    id: row.id,
    user_id: row.user_id,
    expires_at_ms: row.expires_at_ms,
    updated_at_ms: row.updated_at_ms,
    active_organization_id: row.active_organization_id,
    sso_organization_id: row.sso_organization_id,
    organization_idle_timeout_minutes: row.organization_idle_timeout_minutes,
    user: {
      id: row.user_id,
      email: row.email,
      name: row.name,
      image: row.image,
      email_verified: row.email_verified,
      created_at: row.user_created_at,
      updated_at: row.user_updated_at,
    },
  };
}

/** Records activity for idle expiry; skipped by the caller unless the last bump is old enough. */
export async function touchSession(db: Conn, id: string, notTouchedSince: Date): Promise<void> {
  await db('sessions').where({ id }).andWhere('updated_at', '<', notTouchedSince).update({ updated_at: db.fn.now() });
}

/** A session with its user's e-mail and its active organization's idle policy (see SessionForAuth). */
export async function findSession(
  db: Conn,
  id: string,
): Promise<(SessionRow & { email: string; organization_idle_timeout_minutes: number | null }) | undefined> {
  return db('sessions as s')
    .join('users as u', 'u.id', 's.user_id')
    .leftJoin('organizations as o', 'o.id', 's.active_organization_id')
    .where('s.id', id)
    .first('s.*', 'u.email', 'o.session_idle_timeout_minutes as organization_idle_timeout_minutes');
}

/**
 * Opens a session in one statement, inside the caller's transaction after `lockUser` (so concurrent logins of one
 * user queue up and each sees the sessions the previous one left): deletes the user's expired and idle sessions
 * (they no longer count), evicts the oldest live ones beyond `keepNewest` (recording why, as `endSession` does), and
 * inserts the new one. The active organization is the one given, or with `organizationId` undefined the user's
 * first (by membership age). Returns it. One round trip instead of five: logins are bcrypt-bound, and every query
 * taken off them is CPU given back to bcrypt (docs/benchmarks.md, login row).
 */
export async function openSession(
  trx: Knex.Transaction,
  input: {
    id: string;
    userId: string;
    tokenHash: string;
    expiresAt: Date;
    organizationId: string | null | undefined;
    /** The organization whose single sign-on opens the session (it becomes the only one the session acts in). */
    ssoOrganizationId: string | null;
    ipAddress: string | null;
    userAgent: string | null;
    idleSince: Date;
    keepNewest: number;
  },
): Promise<{ activeOrganizationId: string | null }> {
  const result = await trx.raw<{ rows: { active_organization_id: string | null }[] }>(
    `WITH pruned AS (
       DELETE FROM sessions
       WHERE user_id = :userId AND (expires_at <= CURRENT_TIMESTAMP OR updated_at <= :idleSince)
       RETURNING id
     ), evicted AS (
       DELETE FROM sessions WHERE id IN (
         SELECT id FROM sessions
         WHERE user_id = :userId AND id NOT IN (SELECT id FROM pruned)
         ORDER BY created_at DESC, id DESC
         OFFSET :keepNewest
       )
       RETURNING id, user_id, expires_at
     ), evicted_recorded AS (
       INSERT INTO ended_sessions (id, user_id, reason, expires_at)
       SELECT id, user_id, 'evicted', expires_at FROM evicted
       ON CONFLICT (id) DO NOTHING
     )
     INSERT INTO sessions (id, user_id, token, expires_at, active_organization_id, sso_organization_id, ip_address, user_agent)
     VALUES (
       :id, :userId, :tokenHash, :expiresAt,
       CASE WHEN :firstOrganization::boolean
         THEN (SELECT organization_id FROM memberships WHERE user_id = :userId
               ORDER BY created_at, organization_id LIMIT 1)
         ELSE :organizationId::uuid END,
       :ssoOrganizationId::uuid, :ipAddress, :userAgent
     )
     RETURNING active_organization_id`,
    {
      id: input.id,
      userId: input.userId,
      tokenHash: input.tokenHash,
      expiresAt: input.expiresAt,
      firstOrganization: input.organizationId === undefined,
      organizationId: input.organizationId ?? null,
      ssoOrganizationId: input.ssoOrganizationId,
      ipAddress: input.ipAddress,
      userAgent: input.userAgent,
      idleSince: input.idleSince,
      keepNewest: input.keepNewest,
    },
  );
  return { activeOrganizationId: result.rows[0]?.active_organization_id ?? null };
}

/**
 * Deletes a session that has run out (idle beyond its organization's policy): its tokens are then answered
 * "session expired", which is what happened. A session ended for another reason goes through `endSession`.
 */
export async function deleteSession(db: Conn, id: string, userId?: string): Promise<number> {
  return db('sessions')
    .where({ id, ...(userId ? { user_id: userId } : {}) })
    .delete();
}

/** Why a session was ended before its time (table ended_sessions, migration 1270, whose CHECK lists the same). */
export const SESSION_END_REASONS = [
  'logout',
  'revoked',
  'password_changed',
  'password_reset',
  'two_factor_enabled',
  'admin',
  'refresh_reuse',
  'evicted',
] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/**
 * Deletes sessions and, in the same statement, records why in `ended_sessions` (until they would have expired), so
 * their tokens are told they were signed out and how. `where` is a SQL condition on `sessions` with `?` bindings.
 */
async function endSessionsWhere(db: Conn, where: string, bindings: string[], reason: SessionEndReason): Promise<number> {
  const result = await db.raw<{ rows: { ended: number }[] }>(
    `WITH gone AS (
       DELETE FROM sessions WHERE ${where} RETURNING id, user_id, expires_at
     ), recorded AS (
       INSERT INTO ended_sessions (id, user_id, reason, expires_at)
       SELECT id, user_id, ?, expires_at FROM gone
       ON CONFLICT (id) DO NOTHING
     )
     SELECT count(*)::int AS ended FROM gone`,
    [...bindings, reason],
  );
  return result.rows[0]?.ended ?? 0;
}

/** Ends one session (of `userId` when given) for `reason`; answers how many ended (0 or 1). */
export async function endSession(db: Conn, id: string, reason: SessionEndReason, userId?: string): Promise<number> {
  return userId ? endSessionsWhere(db, 'id = ? AND user_id = ?', [id, userId], reason) : endSessionsWhere(db, 'id = ?', [id], reason);
}

/** Ends every session of a user for `reason`; answers how many ended. */
export async function endUserSessions(db: Conn, userId: string, reason: SessionEndReason): Promise<number> {
  return endSessionsWhere(db, 'user_id = ?', [userId], reason);
}

/** Why the session was ended, while its tokens could still be presented; undefined when it was not (or is past that). */
export async function findEndedSession(db: Conn, id: string): Promise<{ user_id: string; reason: SessionEndReason } | undefined> {
  return db('ended_sessions').where({ id }).andWhere('expires_at', '>', db.fn.now()).first('user_id', 'reason');
}

/** Sessions whose active organization is being deleted keep going with none selected. */
export async function clearActiveOrganization(db: Conn, organizationId: string): Promise<void> {
  await db('sessions').where({ active_organization_id: organizationId }).update({ active_organization_id: null });
}

/**
 * Rotation as a conditional UPDATE: only the request that still holds the current hash wins; concurrent ones
 * wait on the row lock, re-check the condition and update nothing.
 */
export async function rotateSessionToken(
  db: Conn,
  id: string,
  currentHash: string,
  nextHash: string,
  organizationId?: string,
  /** The successor's issue time (its `iat`, whole seconds), so a racing refresh can sign the same successor again. */
  rotatedAt?: Date,
): Promise<Pick<SessionRow, 'active_organization_id'> | undefined> {
  const [row] = await db<SessionRow>('sessions')
    .where({ id, token: currentHash })
    .update({
      token: nextHash,
      previous_token: currentHash,
      rotated_at: rotatedAt ?? (db.fn.now() as unknown as Date),
      updated_at: db.fn.now() as unknown as Date,
      ...(organizationId !== undefined ? { active_organization_id: organizationId } : {}),
    })
    .returning(['active_organization_id']);
  return row;
}

/**
 * The user's live sessions: not expired, and used within the platform's idle timeout (`idleSince`) and within the
 * idle policy of each session's active organization (`security.sessionTimeoutMinutes`), the rule the per-request
 * check applies (domain/auth/idleLimit.ts).
 */
export async function listLiveSessions(db: Conn, userId: string, idleSince: Date): Promise<SessionRow[]> {
  return db('sessions as s')
    .leftJoin('organizations as o', 'o.id', 's.active_organization_id')
    .where('s.user_id', userId)
    .andWhere('s.expires_at', '>', db.fn.now())
    .andWhere('s.updated_at', '>', idleSince)
    .andWhere((w) =>
      w.whereNull('o.session_idle_timeout_minutes').orWhereRaw('s.updated_at > now() - make_interval(mins => o.session_idle_timeout_minutes)'),
    )
    .orderBy([
      { column: 's.created_at', order: 'desc' },
      { column: 's.id', order: 'desc' },
    ])
    .select<SessionRow[]>('s.*');
}

// ----------------------------------------------------------------------------------- e-mailed tokens

export async function replaceAuthToken(
  db: Conn,
  input: { userId: string; purpose: AuthTokenPurpose; tokenHash: string; expiresAt: Date },
): Promise<void> {
  // Only the newest code of a kind works: asking again invalidates the previous one (used ones go too: a spent
  // code is refused either way, and the table stays small).
  await db('auth_tokens').where({ user_id: input.userId, purpose: input.purpose }).delete();
  await db('auth_tokens').insert({
    user_id: input.userId,
    purpose: input.purpose,
    token_hash: input.tokenHash,
    expires_at: input.expiresAt,
  });
}

export async function findUsableAuthToken(
  db: Conn,
  tokenHash: string,
  purpose: AuthTokenPurpose,
): Promise<{ user_id: string } | undefined> {
  return db('auth_tokens')
    .where({ token_hash: tokenHash, purpose })
    .whereNull('used_at')
    .andWhere('expires_at', '>', db.fn.now())
    .first('user_id');
}

/** Single use: marks the token used if (and only if) it is still unused and unexpired. */
export async function consumeAuthToken(
  db: Conn,
  tokenHash: string,
  purpose: AuthTokenPurpose,
): Promise<{ user_id: string } | undefined> {
  const [row] = await db('auth_tokens')
    .where({ token_hash: tokenHash, purpose })
    .whereNull('used_at')
    .andWhere('expires_at', '>', db.fn.now())
    .update({ used_at: db.fn.now() })
    .returning(['user_id']);
  return row as { user_id: string } | undefined;
}

// -------------------------------------------------------------------------------------------- retention

/**
 * Deletes dead sessions (past expiry, or idle since `idleSince`), the reasons of ended sessions past their expiry
 * (no token of theirs can be presented any more), and spent or expired e-mailed codes.
 */
export async function pruneExpired(db: Conn, idleSince: Date): Promise<{ sessions: number; authTokens: number }> {
  const sessions = await db('sessions')
    .where('expires_at', '<=', db.fn.now())
    .orWhere('updated_at', '<=', idleSince)
    .delete();
  await db('ended_sessions').where('expires_at', '<=', db.fn.now()).delete();
  const authTokens = await db('auth_tokens')
    .whereNotNull('used_at')
    .orWhere('expires_at', '<=', db.fn.now())
    .delete();
  return { sessions, authTokens };
}
