import type { Db } from '../../db/knex';
import { AppError } from '../../lib/errors';
import { findEndedSession, type SessionEndReason } from './queries';

/**
 * The answer to a token whose session is gone. A session that ran out (absolute expiry, idle) is "session expired";
 * one that was ended (ended_sessions, migration 1270) says it was signed out and why, with the same code,
 * SESSION_EXPIRED (the spec's, which clients already treat as "sign in again"): a user who logged out in another tab
 * is not told their session timed out.
 */
const SIGNED_OUT: Record<SessionEndReason, string> = {
  logout: 'this session was ended by logout',
  revoked: "this session was revoked from the account's session list",
  password_changed: "the account's password was changed, which ends every session",
  password_reset: "the account's password was reset, which ends every session",
  two_factor_enabled: 'two-factor sign-in was turned on for the account, which ends every session',
  admin: "an operator ended the account's sessions",
  refresh_reuse: 'a refresh token of this session was used twice, so the session was ended',
  evicted: 'the account signed in on more devices than it may keep sessions for, and this was the oldest',
};

export function signedOutMessage(reason: SessionEndReason): string {
  return `signed out: ${SIGNED_OUT[reason]}; sign in again`;
}

export const sessionExpired = (): AppError => new AppError('SESSION_EXPIRED', 'session expired');

/** The error for a token of `userId` naming session `sessionId`, which no longer exists. */
export async function sessionGoneError(db: Db, sessionId: string, userId: string): Promise<AppError> {
  const ended = await findEndedSession(db, sessionId);
  if (!ended || ended.user_id !== userId) return sessionExpired();
  return new AppError('SESSION_EXPIRED', signedOutMessage(ended.reason));
}
