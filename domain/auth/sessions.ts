import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import type { Config } from '../../lib/config';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { recordAudit } from '../audit/record';
import { sessionExpired, sessionGoneError } from './endedSessions';
import { sessionIdleLimitMs } from './idleLimit';
import * as q from './queries';
import { hashToken, type RefreshClaims, type TokenService } from './tokens';

/**
 * Session lifecycle. A session row is the server side of one login: its `token` column holds the SHA-256 of the
 * current refresh token, `expires_at` is absolute (login + refresh lifetime; rotation never extends it), and
 * `updated_at` is the last activity for idle expiry. Deleting the row kills both of the session's tokens at once.
 */

export interface SessionMeta {
  ip: string | null;
  userAgent: string | null;
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

export interface SessionServiceDeps {
  db: Db;
  tokens: TokenService;
  auth: Config['auth'];
}

export type SessionService = ReturnType<typeof createSessionService>;

/** The refusal of anything a session opened by an organization's SSO may not do outside that organization. */
export const ssoSessionScoped = (what: string): AppError =>
  new AppError(
    'SSO_SESSION_SCOPED',
    `this session was opened by an organization's single sign-on and acts in that organization only; sign in with your password to ${what}`,
  );

export function createSessionService({ db, tokens, auth }: SessionServiceDeps) {
  const idleSince = (): Date => new Date(Date.now() - auth.sessionIdleTimeoutMs);

  function pair(input: { userId: string; email: string; sessionId: string; organizationId: string | null }, refreshToken: string): TokenPair {
    return { accessToken: tokens.signAccess(input), refreshToken, expiresIn: tokens.accessTtlSeconds };
  }

  function isDead(session: { expires_at: Date; updated_at: Date; organization_idle_timeout_minutes: number | null }): boolean {
    const now = Date.now();
    const idleLimitMs = sessionIdleLimitMs(auth.sessionIdleTimeoutMs, session.organization_idle_timeout_minutes);
    return new Date(session.expires_at).getTime() <= now || new Date(session.updated_at).getTime() + idleLimitMs <= now;
  }

  /**
   * A refresh token that is not the session's current one. Within the configured grace after a rotation the
   * immediately previous token is answered with the same successor the rotation issued (a client racing itself:
   * two tabs, a retry), signed again from the spent token's hash and the rotation time and checked against the
   * stored hash; when it cannot be (the rotation was an organization switch) it is only refused. Any other reuse
   * means a copy of the token is in someone else's hands, so the whole session is revoked.
   */
  async function answerStale(
    claims: RefreshClaims,
    session: (q.SessionRow & { email: string }) | undefined,
    presentedHash: string,
    meta: SessionMeta,
    log: Logger,
  ): Promise<TokenPair> {
    if (!session) throw await sessionGoneError(db, claims.sid, claims.sub);
    const rotatedAt = session.rotated_at ? new Date(session.rotated_at).getTime() : 0;
    if (session.previous_token === presentedHash && Date.now() - rotatedAt < auth.refreshReuseGraceMs) {
      const successor = tokens.signRefresh({
        userId: session.user_id,
        sessionId: session.id,
        expiresAt: session.expires_at,
        successorOf: presentedHash,
        issuedAt: Math.floor(rotatedAt / 1000),
      });
      if (hashToken(successor) === session.token) {
        return pair({ userId: session.user_id, email: session.email, sessionId: session.id, organizationId: session.active_organization_id }, successor);
      }
      throw new AppError('INVALID_TOKEN', 'refresh token already used');
    }
    await db.transaction(async (trx) => {
      await q.endSession(trx, session.id, 'refresh_reuse');
      await recordAudit(trx, {
        organizationId: null,
        userId: session.user_id,
        actor: { type: 'anonymous', id: null, ip: meta.ip, userAgent: meta.userAgent },
        action: 'auth.refresh_reuse_detected',
        target: { type: 'session', id: session.id },
        after: { sessionRevoked: true },
      });
    });
    log.warn({ sessionId: session.id, userId: session.user_id }, 'refresh token reuse detected, session revoked');
    throw new AppError('INVALID_TOKEN', 'refresh token reuse detected; session revoked');
  }

  return {
    /**
     * Opens a session after a successful login or registration. At most `maxSessionsPerUser` live sessions: the
     * oldest are evicted. `organizationId` undefined means "the user's first organization, if any".
     * `scope.ssoOrganizationId`: the session is opened by that organization's single sign-on, acts in it only
     * (api/organizations/access.ts) and keeps that through refreshes; switching elsewhere is refused.
     */
    async create(
      user: { id: string; email: string },
      meta: SessionMeta,
      organizationId?: string | null,
      /** Runs in the opening transaction (the login's audit entry commits with the session). */
      onOpened?: (trx: Knex.Transaction, sessionId: string) => Promise<void>,
      scope?: { ssoOrganizationId: string | null },
    ): Promise<{ sessionId: string; tokens: TokenPair }> {
      const ssoOrganizationId = scope?.ssoOrganizationId ?? null;
      const sessionId = randomUUID();
      const expiresAt = new Date(Date.now() + tokens.refreshTtlMs);
      const refreshToken = tokens.signRefresh({ userId: user.id, sessionId, expiresAt });
      const activeOrganizationId = await db.transaction(async (trx) => {
        if (!(await q.lockUser(trx, user.id))) throw new AppError('INVALID_CREDENTIALS', 'invalid e-mail or password');
        const opened = await q.openSession(trx, {
          id: sessionId,
          userId: user.id,
          tokenHash: hashToken(refreshToken),
          expiresAt,
          organizationId: ssoOrganizationId ?? organizationId,
          ssoOrganizationId,
          ipAddress: meta.ip ? meta.ip.slice(0, 45) : null,
          userAgent: meta.userAgent ? meta.userAgent.slice(0, 1000) : null,
          idleSince: idleSince(),
          keepNewest: Math.max(0, auth.maxSessionsPerUser - 1),
        });
        if (onOpened) await onOpened(trx, sessionId);
        return opened.activeOrganizationId;
      });
      return {
        sessionId,
        tokens: pair({ userId: user.id, email: user.email, sessionId, organizationId: activeOrganizationId }, refreshToken),
      };
    },

    /**
     * Exchanges the session's current refresh token for a new pair; the presented token is spent. `log` is the
     * request's logger, so a detected reuse is traced to the request.
     */
    async rotate(claims: RefreshClaims, presentedToken: string, meta: SessionMeta, log: Logger): Promise<TokenPair> {
      const presentedHash = hashToken(presentedToken);
      const session = await q.findSession(db, claims.sid);
      if (!session) throw await sessionGoneError(db, claims.sid, claims.sub);
      if (session.user_id !== claims.sub || isDead(session)) throw sessionExpired();
      if (session.token !== presentedHash) return answerStale(claims, session, presentedHash, meta, log);
      const issuedAt = Math.floor(Date.now() / 1000);
      const refreshToken = tokens.signRefresh({
        userId: session.user_id,
        sessionId: session.id,
        expiresAt: session.expires_at,
        successorOf: presentedHash,
        issuedAt,
      });
      const rotated = await q.rotateSessionToken(db, session.id, presentedHash, hashToken(refreshToken), undefined, new Date(issuedAt * 1000));
      if (!rotated) return answerStale(claims, await q.findSession(db, session.id), presentedHash, meta, log);
      return pair(
        { userId: session.user_id, email: session.email, sessionId: session.id, organizationId: rotated.active_organization_id },
        refreshToken,
      );
    },

    /** Changes the session's active organization and issues a pair carrying it (the old refresh token is spent). */
    async switchOrganization(sessionId: string, organizationId: string): Promise<TokenPair> {
      const session = await q.findSession(db, sessionId);
      if (!session || isDead(session)) throw sessionExpired();
      if (session.sso_organization_id && session.sso_organization_id !== organizationId) throw ssoSessionScoped('use another organization');
      const refreshToken = tokens.signRefresh({ userId: session.user_id, sessionId, expiresAt: session.expires_at });
      const rotated = await q.rotateSessionToken(db, sessionId, session.token, hashToken(refreshToken), organizationId);
      if (!rotated) throw new AppError('CONFLICT', 'the session changed concurrently; retry');
      return pair({ userId: session.user_id, email: session.email, sessionId, organizationId }, refreshToken);
    },

    async revoke(sessionId: string, userId?: string): Promise<boolean> {
      return (await q.deleteSession(db, sessionId, userId)) > 0;
    },

    async revokeAll(userId: string): Promise<number> {
      return q.endUserSessions(db, userId, 'revoked');
    },

    async listLive(userId: string): Promise<q.SessionRow[]> {
      return q.listLiveSessions(db, userId, idleSince());
    },
  };
}
