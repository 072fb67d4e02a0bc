import type { Db } from '../../db/knex';
import { assertPasswordPolicy, type PasswordPolicy } from '../../lib/auth/passwordPolicy';
import type { Config } from '../../lib/config';
import { isUniqueViolation } from '../../lib/db/errors';
import { AppError } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { Mailer } from '../../lib/mailer';
import { recordAudit, type AuditActor, type AuditInput } from '../audit/record';
import type { RequestMeta, UserPrincipal } from '../principals';
import { rateLimited, type RateLimiter } from '../ratelimit/limiter';
import { emailVerificationEmail, passwordResetEmail, type EmailText } from './emails';
import { userReadByCheck } from './accessTokens';
import type { CheckCredentials, Credentials } from './credentials';
import { IDLE_BEYOND_POLICY_MESSAGE, idleBeyondPolicy } from './idleLimit';
import type { PasswordHasher } from './passwords';
import * as q from './queries';
import { ssoSessionScoped, type SessionMeta, type SessionService, type TokenPair } from './sessions';
import { hashToken, randomOpaqueToken, type TokenService } from './tokens';
import type { SignInChallenge, TwoFactorService } from './twoFactor';
import type { SecurityNotices } from './securityNotices';

/** The rules of accounts: registration, login, refresh, profile, passwords, e-mail verification, sessions. */

export interface AuthServiceDeps {
  db: Db;
  config: Config;
  logger: Logger;
  mailer: Mailer;
  tokens: TokenService;
  sessions: SessionService;
  passwords: PasswordHasher;
  limiter: RateLimiter;
  /** Two-factor sign-in: a user who has it on gets a challenge from `login` instead of tokens. */
  twoFactor?: TwoFactorService;
  /** Security mail and the organizations' sign-in records (securityNotices.ts). */
  notices: SecurityNotices;
  /**
   * The address a pending invitation was sent to, for its token (null: unknown, used or expired): registering with
   * it proves the mailbox, as the verification link would.
   */
  invitationAddress?: (token: string) => Promise<string | null>;
}

export type AuthService = ReturnType<typeof createAuthService>;

/** What a session row records of the request that opened or rotated it. */
function sessionMetaOf(meta: RequestMeta): SessionMeta {
  return { ip: meta.ip || null, userAgent: meta.userAgent };
}

/** Who acts in an account event: the signed-in user, or (login, reset) someone known only by IP and user agent. */
function accountActor(meta: RequestMeta, userId: string | null): AuditActor {
  const { ip, userAgent } = meta;
  return userId ? { type: 'user', id: userId, ip, userAgent } : { type: 'anonymous', id: null, ip, userAgent };
}

/** An account event (no organization) about `userId`'s account. */
function accountEvent(
  meta: RequestMeta,
  input: { userId: string | null; actorUserId: string | null; action: string; target?: AuditInput['target']; after?: unknown },
): AuditInput {
  return {
    organizationId: null,
    userId: input.userId,
    actor: accountActor(meta, input.actorUserId),
    action: input.action,
    ...(input.target ? { target: input.target } : {}),
    ...(input.after !== undefined ? { after: input.after } : {}),
  };
}

const invalidCredentials = (): AppError => new AppError('INVALID_CREDENTIALS', 'invalid e-mail or password');

export function createAuthService(deps: AuthServiceDeps) {
  const { db, config, logger, mailer, tokens, sessions, passwords, limiter, twoFactor, notices } = deps;
  const limits = config.rateLimits;
  const policy: PasswordPolicy = {
    minLength: config.auth.passwordMinLength,
    requireUppercase: config.auth.passwordRequireUppercase,
    requireNumbers: config.auth.passwordRequireNumbers,
    requireSymbols: config.auth.passwordRequireSymbols,
  };

  async function requireUser(userId: string): Promise<q.UserRow> {
    const user = await q.findUserById(db, userId);
    // The session check passed, so the user existed a moment ago; deleted meanwhile means the session is dead.
    if (!user) throw new AppError('SESSION_EXPIRED', 'session expired');
    return user;
  }

  /** Sends without making the caller wait or fail: the answer must not depend on the mail server. */
  function sendInBackground(to: string, mail: EmailText, kind: string): void {
    mailer.send({ to, ...mail }).catch((err: unknown) => logger.error({ err, kind }, 'auth e-mail not sent'));
  }

  /**
   * Work that must not delay or shape an answer: it starts once the current request's own work has returned (a
   * macrotask later), one job at a time in this process (so two codes asked for in a row are stored, and mailed, in
   * order), and a failure is logged, never thrown at the caller.
   */
  let followUps: Promise<void> = Promise.resolve();
  function afterAnswer(kind: string, work: () => Promise<void>): void {
    followUps = followUps
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(work)
      .catch((err: unknown) => logger.error({ err, kind }, 'auth follow-up failed'));
  }

  async function issueEmailToken(user: q.UserRow, purpose: q.AuthTokenPurpose): Promise<EmailText> {
    const token = randomOpaqueToken();
    const ttlMs = purpose === 'password_reset' ? config.auth.passwordResetTtlMs : config.auth.emailVerificationTtlMs;
    await q.replaceAuthToken(db, {
      userId: user.id,
      purpose,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + ttlMs),
    });
    const input = { token, ttlMs, publicUrl: config.http.publicUrl, appUrl: config.http.appUrl };
    return purpose === 'password_reset' ? passwordResetEmail(input) : emailVerificationEmail(input);
  }

  /** The per-IP limit of each public account action, counted by `admit`. */
  const ipLimits = {
    register: { bucket: 'auth.register.ip', rule: limits.registerIp },
    login: { bucket: 'auth.login.ip', rule: limits.loginIp },
    refresh: { bucket: 'auth.refresh.ip', rule: limits.refreshIp },
    resetRequest: { bucket: 'auth.reset.ip', rule: limits.resetIp },
    resetConfirm: { bucket: 'auth.reset.ip', rule: limits.resetIp },
    verifyConfirm: { bucket: 'auth.verify.ip', rule: limits.resetIp },
  } as const;

  return {
    /**
     * Counts a public account action against its per-IP limit (429 past it). The route calls it before the request
     * body is read or validated (RouteDef `admit`), so every attempt counts, a malformed one too, and a flood is
     * refused before any of its parsing runs; the action's own limits by account follow in the action.
     */
    async admit(meta: RequestMeta, action: keyof typeof ipLimits): Promise<void> {
      const { bucket, rule } = ipLimits[action];
      await limiter.consume([{ bucket, key: meta.ip, rule }]);
    },

    /** Counted against the per-IP limit by `admit`, before this runs. */
    async register(meta: RequestMeta, input: { email: string; password: string; name?: string; invitationToken?: string }) {
      assertPasswordPolicy(input.password, policy, { email: input.email });
      // An invitation link proves the mailbox it was sent to: the account starts verified (docs/auth.md#registration).
      let verifiedByInvitation = false;
      if (input.invitationToken !== undefined) {
        const address = deps.invitationAddress ? await deps.invitationAddress(input.invitationToken) : null;
        if (address === null) throw new AppError('INVITATION_EXPIRED', 'this invitation is unknown, has expired, was revoked or was already used; ask for a new one');
        if (address.toLowerCase() !== input.email.toLowerCase()) {
          throw new AppError('UNPROCESSABLE', 'this invitation was sent to another address: register with the address it was sent to', [
            { path: 'body.email', problem: 'not the invitation\'s address' },
          ]);
        }
        verifiedByInvitation = true;
      }
      if (await q.findUserByEmail(db, input.email)) throw new AppError('USER_EXISTS', 'e-mail already registered');
      const passwordHash = await passwords.hash(input.password);
      let user: q.UserRow;
      try {
        user = await q.insertUser(db, { email: input.email, name: input.name || null, passwordHash });
        if (verifiedByInvitation) user = (await q.markEmailVerified(db, user.id)) ?? user;
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError('USER_EXISTS', 'e-mail already registered');
        throw err;
      }
      const { tokens: pair } = await sessions.create(user, sessionMetaOf(meta), null, (trx) => notices.deviceRegistered(trx, user.id, meta));
      if (!verifiedByInvitation) sendInBackground(user.email, await issueEmailToken(user, 'email_verification'), 'verification');
      return { user, tokens: pair };
    },

    /**
     * Limits (docs/auth.md#login-limits): every attempt counts per IP and per (e-mail, IP) before the password is
     * checked; failures count per e-mail after it, and beyond that limit a wrong password answers 429 while the
     * right one still signs in, so nobody can lock the owner of an address out by failing on purpose.
     * `checkCredentials` is the request's own check (passport's `local` strategy), run between the two.
     */
    async login(
      meta: RequestMeta,
      input: Credentials,
      checkCredentials: CheckCredentials,
    ): Promise<{ user: q.UserRow; tokens: TokenPair } | { user: q.UserRow; challenge: SignInChallenge }> {
      // Per IP: counted by `admit` before the body was read.
      await limiter.consume([{ bucket: 'auth.login.account_ip', key: `${input.email} ${meta.ip}`, rule: limits.loginAccountIp }]);
      const user = await checkCredentials(input);
      if (!user) {
        // Unknown e-mail or wrong password: the same work and the same answer either way.
        const [decision] = await Promise.all([
          limiter.hit([{ bucket: 'auth.login.account', key: input.email, rule: limits.loginAccount }]),
          q.findUserByEmail(db, input.email).then((known) =>
            recordAudit(db, accountEvent(meta, { userId: known?.id ?? null, actorUserId: null, action: 'auth.login_failed' })),
          ),
        ]);
        if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds);
        throw invalidCredentials();
      }
      if (user.password_hash && passwords.needsRehash(user.password_hash)) {
        await q.updatePasswordHash(db, user.id, await passwords.hash(input.password));
      }
      // Two-factor sign-in (docs/auth.md#two-factor-sign-in): no tokens before the code.
      if (twoFactor && user.two_factor_enabled) return { user, challenge: await twoFactor.challenge(user.id, null, 'password') };
      const mails: string[] = [];
      const { tokens: pair } = await sessions.create(user, sessionMetaOf(meta), undefined, async (trx, sessionId) => {
        await recordAudit(trx, accountEvent(meta, { userId: user.id, actorUserId: user.id, action: 'auth.login_succeeded', target: { type: 'session', id: sessionId } }));
        mails.push(...(await notices.signedIn(trx, user, meta, { sessionId, method: 'password' })));
      });
      notices.deliver(mails);
      return { user, tokens: pair };
    },

    /** `log` is the request's logger: a detected reuse is logged on its behalf. */
    async refresh(meta: RequestMeta, refreshToken: string, log: Logger): Promise<TokenPair> {
      let claims;
      try {
        claims = tokens.verifyRefresh(refreshToken);
      } catch (err) {
        if (err instanceof AppError && err.code === 'TOKEN_EXPIRED') {
          throw new AppError('TOKEN_EXPIRED', 'refresh token expired; log in again');
        }
        throw err;
      }
      await limiter.consume([{ bucket: 'auth.refresh.account', key: claims.sub, rule: limits.refreshAccount }]);
      return sessions.rotate(claims, refreshToken, sessionMetaOf(meta), log);
    },

    async me(principal: UserPrincipal) {
      // The session check of this request already read the user (accessTokens.ts).
      return { user: userReadByCheck(principal) ?? (await requireUser(principal.userId)), principal };
    },

    async logout(meta: RequestMeta, principal: UserPrincipal): Promise<void> {
      await db.transaction(async (trx) => {
        await q.endSession(trx, principal.sessionId, 'logout');
        await recordAudit(trx, accountEvent(meta, { userId: principal.userId, actorUserId: principal.userId, action: 'auth.logout', target: { type: 'session', id: principal.sessionId } }));
      });
    },

    async updateProfile(principal: UserPrincipal, patch: { name?: string | null; image?: string | null }) {
      const clean = { ...patch, ...(patch.name === '' ? { name: null } : {}) };
      const user =
        Object.keys(clean).length > 0
          ? await q.updateUserProfile(db, principal.userId, clean)
          : await q.findUserById(db, principal.userId);
      if (!user) throw new AppError('SESSION_EXPIRED', 'session expired');
      return user;
    },

    async switchOrganization(principal: UserPrincipal, organizationId: string) {
      if (principal.ssoOrganizationId && principal.ssoOrganizationId !== organizationId) throw ssoSessionScoped('use another organization');
      const membership = await q.findMembershipForSwitch(db, organizationId, principal.userId);
      if (!membership) throw new AppError('FORBIDDEN', 'not a member of this organization');
      // The target's session policy applies from the switch on (docs/organizations.md#session-timeout).
      if (idleBeyondPolicy(principal.sessionLastUsedMs, membership.organization_idle_timeout_minutes)) {
        await sessions.revoke(principal.sessionId, principal.userId);
        throw new AppError('SESSION_EXPIRED', IDLE_BEYOND_POLICY_MESSAGE);
      }
      return sessions.switchOrganization(principal.sessionId, organizationId);
    },

    /** Needs the current password; every session of the user ends, the caller gets a fresh one. */
    async changePassword(meta: RequestMeta, principal: UserPrincipal, input: { currentPassword: string; newPassword: string }) {
      const user = await requireUser(principal.userId);
      await limiter.consume([{ bucket: 'auth.login.account', key: user.email, rule: limits.loginAccount }]);
      if (!(await passwords.verify(input.currentPassword, user.password_hash))) {
        throw new AppError('INVALID_CREDENTIALS', 'current password is wrong');
      }
      assertPasswordPolicy(input.newPassword, policy, { email: user.email, field: 'body.newPassword' });
      if (input.newPassword === input.currentPassword) {
        throw new AppError('WEAK_PASSWORD', 'the new password must differ from the current one', [
          { path: 'body.newPassword', problem: 'reuse: same as the current password' },
        ]);
      }
      const passwordHash = await passwords.hash(input.newPassword);
      const mail = await db.transaction(async (trx) => {
        await q.updatePasswordHash(trx, user.id, passwordHash);
        const ended = await q.endUserSessions(trx, user.id, 'password_changed');
        await recordAudit(trx, accountEvent(meta, { userId: user.id, actorUserId: user.id, action: 'auth.password_changed', after: { sessionsRevoked: ended } }));
        return notices.passwordChanged(trx, user, meta, 'changed');
      });
      notices.deliver([mail]);
      const { tokens: pair } = await sessions.create(user, sessionMetaOf(meta), principal.activeOrganizationId);
      return pair;
    },

    /**
     * Always the same answer, after the same work, whether or not the address is registered: the limits, one lookup
     * and one audit row. A known address's code (two writes) and its mail are made after the answer, so neither its
     * content nor its timing tells a registered address from an unknown one (issue 40: 8.3 vs 6.2 ms median
     * before). A code lost to a crash in between is asked for again.
     */
    async requestPasswordReset(meta: RequestMeta, email: string): Promise<void> {
      await limiter.consume([{ bucket: 'auth.reset.account', key: email, rule: limits.resetAccount }]);
      const user = await q.findUserByEmail(db, email);
      // Recorded for unknown addresses too (no account named), so the answer takes the same work either way.
      await recordAudit(db, accountEvent(meta, { userId: user?.id ?? null, actorUserId: null, action: 'auth.password_reset_requested' }));
      if (!user) return;
      afterAnswer('password reset', async () => sendInBackground(user.email, await issueEmailToken(user, 'password_reset'), 'password reset'));
    },

    /** Single use; sets the password, confirms the e-mail (the link proved the mailbox) and ends all sessions. */
    async confirmPasswordReset(meta: RequestMeta, input: { token: string; password: string }): Promise<void> {
      const tokenHash = hashToken(input.token);
      const found = await q.findUsableAuthToken(db, tokenHash, 'password_reset');
      const user = found ? await q.findUserById(db, found.user_id) : undefined;
      if (!user) throw new AppError('INVALID_TOKEN', 'invalid or expired reset token');
      assertPasswordPolicy(input.password, policy, { email: user.email });
      const passwordHash = await passwords.hash(input.password);
      const mail = await db.transaction(async (trx) => {
        if (!(await q.consumeAuthToken(trx, tokenHash, 'password_reset'))) {
          throw new AppError('INVALID_TOKEN', 'invalid or expired reset token');
        }
        await q.updatePasswordHash(trx, user.id, passwordHash, { verifyEmail: true });
        const ended = await q.endUserSessions(trx, user.id, 'password_reset');
        await recordAudit(trx, accountEvent(meta, { userId: user.id, actorUserId: null, action: 'auth.password_reset_completed', after: { sessionsRevoked: ended } }));
        return notices.passwordChanged(trx, user, meta, 'reset');
      });
      notices.deliver([mail]);
    },

    async sendVerificationEmail(meta: RequestMeta, principal: UserPrincipal): Promise<void> {
      const user = await requireUser(principal.userId);
      if (user.email_verified) throw new AppError('INVALID_STATE', 'e-mail address already verified');
      await limiter.consume([
        { bucket: 'auth.verify.ip', key: meta.ip, rule: limits.resetIp },
        { bucket: 'auth.verify.account', key: user.email, rule: limits.resetAccount },
      ]);
      await mailer.send({ to: user.email, ...(await issueEmailToken(user, 'email_verification')) });
    },

    /** Counted against the per-IP limit by `admit`, before this runs. */
    async confirmEmailVerification(token: string): Promise<q.UserRow> {
      const consumed = await q.consumeAuthToken(db, hashToken(token), 'email_verification');
      const user = consumed ? await q.markEmailVerified(db, consumed.user_id) : undefined;
      if (!user) throw new AppError('INVALID_TOKEN', 'invalid or expired verification token');
      return user;
    },

    async listSessions(principal: UserPrincipal) {
      return sessions.listLive(principal.userId);
    },

    async revokeSession(meta: RequestMeta, principal: UserPrincipal, sessionId: string): Promise<void> {
      await db.transaction(async (trx) => {
        if (!(await q.endSession(trx, sessionId, 'revoked', principal.userId))) throw new AppError('NOT_FOUND', 'session not found');
        await recordAudit(trx, accountEvent(meta, { userId: principal.userId, actorUserId: principal.userId, action: 'auth.session_revoked', target: { type: 'session', id: sessionId } }));
      });
    },
  };
}
