import { AppError } from '../../lib/errors';
import type { Db } from '../../db/knex';
import { createVerifiedTokenCache } from '../../lib/auth/verifiedTokenCache';
import type { UserPrincipal } from '../principals';
import { sessionGoneError } from './endedSessions';
import { sessionIdleLimitMs } from './idleLimit';
import { findSessionForAuth, touchSession, type SessionForAuth } from './queries';
import type { AuthChangeListener } from './authChangeListener';
import { createSessionCheckCache } from './sessionCheckCache';
import type { AccessClaims, TokenService } from './tokens';

/**
 * The user row that the session check of a request read (same query as the session), keyed by the principal it
 * produced: a handler that needs the current user (GET /api/auth/me) takes it from here instead of querying again.
 * Weak keys: the entry lives as long as the request's principal.
 */
const usersReadByCheck = new WeakMap<UserPrincipal, SessionForAuth['user']>();

export function userReadByCheck(principal: UserPrincipal): SessionForAuth['user'] | undefined {
  return usersReadByCheck.get(principal);
}

/** Access tokens whose signature check is remembered (lib/auth/verifiedTokenCache.ts): ~0.5 KB each. */
const VERIFIED_TOKENS_KEPT = 10_000;

/** Sessions whose check is remembered between requests (sessionCheckCache.ts): ~1 KB each. */
const SESSION_CHECKS_KEPT = 10_000;

export interface SessionCheckOptions {
  idleTimeoutMs: number;
  /** How long a remembered session check may be served at most (0: every request reads the database). */
  cacheTtlMs: number;
  /** The process's feed of changes that keeps remembered checks current; none: nothing is remembered. */
  changes: AuthChangeListener | null;
}

export type AccessTokenVerifier = (token: string) => Promise<UserPrincipal>;

/**
 * Verifies an access token and its live session, so logout and revocation take effect at once. This runs for
 * every protected request (all of /api/v1), so it costs at most one query (session joined with its user and its
 * active organization's idle policy, all by primary key), and none while the session's row is remembered and
 * unchanged (sessionCheckCache.ts); the idle clock (`updated_at`) is bumped at most once per touch interval (a tenth
 * of the idle timeout, at most a minute), not on every request.
 */
export function createAccessTokenVerifier(db: Db, tokens: TokenService, options: SessionCheckOptions): AccessTokenVerifier {
  const touchIntervalMs = Math.max(1, Math.min(60_000, Math.floor(options.idleTimeoutMs / 10)));
  // Sessions whose bump is in flight in this process: when a busy session's interval passes, every request in
  // flight sees the stale clock; one of them bumps it, the others neither queue on the row lock nor wait.
  const touching = new Set<string>();
  // A client sends the same access token for its whole lifetime: its HMAC is checked once, not per request.
  const verified = createVerifiedTokenCache<AccessClaims>(VERIFIED_TOKENS_KEPT);
  // The session's row between requests, kept current by PostgreSQL's change notices (authChangeListener.ts).
  const checks = createSessionCheckCache({ ttlMs: options.cacheTtlMs, maxEntries: SESSION_CHECKS_KEPT });
  const changes = options.changes;
  changes?.watch(checks);
  const verifyAccessToken = async function verifyAccessToken(token: string): Promise<UserPrincipal> {
    let claims = verified.get(token, Date.now() / 1000);
    if (!claims) {
      claims = tokens.verifyAccess(token);
      verified.set(token, claims);
    }
    changes?.start();
    const sid = claims.sid;
    const session = await checks.read(sid, () => findSessionForAuth(db, sid));
    if (!session) throw await sessionGoneError(db, sid, claims.sub);
    if (session.user_id !== claims.sub) throw new AppError('INVALID_TOKEN', 'invalid token');
    const now = Date.now();
    const lastUsed = session.updated_at_ms;
    if (session.expires_at_ms <= now) throw new AppError('SESSION_EXPIRED', 'session expired');
    // The active organization's policy may shorten the idle limit; checked before the bump below, so a refused
    // request does not count as activity.
    if (lastUsed + sessionIdleLimitMs(options.idleTimeoutMs, session.organization_idle_timeout_minutes) <= now) {
      throw new AppError('SESSION_EXPIRED', 'session expired (idle)');
    }
    if (now - lastUsed >= touchIntervalMs && !touching.has(session.id)) {
      touching.add(session.id);
      try {
        await touchSession(db, session.id, new Date(now - touchIntervalMs));
      } finally {
        touching.delete(session.id);
      }
    }
    const principal: UserPrincipal = {
      kind: 'user',
      userId: claims.sub,
      email: claims.email,
      sessionId: claims.sid,
      sessionLastUsedMs: lastUsed,
      activeOrganizationId: session.active_organization_id ?? null,
      ssoOrganizationId: session.sso_organization_id,
    };
    usersReadByCheck.set(principal, session.user);
    return principal;
  };
  return verifyAccessToken;
}
