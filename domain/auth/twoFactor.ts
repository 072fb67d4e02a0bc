import { randomBytes, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { Knex } from 'knex';
import type { Db } from '../../db/knex';
import type { Config } from '../../lib/config';
import { AppError } from '../../lib/errors';
import type { SecretBox } from '../../lib/secrets';
import { recordAudit } from '../audit/record';
import type { RequestMeta, UserPrincipal } from '../principals';
import { rateLimited, type RateLimiter } from '../ratelimit/limiter';
import type { PasswordHasher } from './passwords';
import type { SecurityNotices } from './securityNotices';
import * as q from './queries';
import { ssoSessionScoped, type SessionService, type TokenPair } from './sessions';
import { hashToken } from './tokens';
import * as t from './twoFactorQueries';

/**
 * Two-factor sign-in with TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, one step of clock drift either way),
 * docs/auth.md#two-factor-sign-in.
 * - Enrolment: `start` makes a secret (sealed at rest, bound to the user id) and answers its otpauth URI and a QR
 *   code; `confirm` takes a first code, turns it on, answers ten single-use recovery codes (stored as SHA-256) once,
 *   and ends the user's other sessions (they were opened with the password alone).
 * - Sign-in: a user with it on gets a challenge instead of tokens from the password (or SSO) step; the challenge and
 *   a code (or a recovery code) give the tokens. A challenge lives a few minutes and dies after five wrong codes.
 * - A code is accepted once (its time step is remembered); every code check counts against a per-account limit.
 * - Turning it off needs the password (when the account has one) and a code.
 */

export const TOTP_ISSUER = 'Loom';
const TOTP_PERIOD = 30;
const TOTP_WINDOW = 1;
const RECOVERY_CODE_COUNT = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const CHALLENGE_TTL_MS = 5 * 60_000;
export const CHALLENGE_MAX_FAILURES = 5;

export interface TwoFactorDeps {
  db: Db;
  config: Config;
  box: SecretBox;
  limiter: RateLimiter;
  passwords: PasswordHasher;
  sessions: SessionService;
  notices: SecurityNotices;
}

export interface SignInChallenge {
  twoFactorRequired: true;
  challengeToken: string;
  expiresIn: number;
  methods: ('totp' | 'recovery_code')[];
}

const sealContext = (userId: string): string => `user_totp:${userId}`;

const invalidCode = (): AppError => new AppError('INVALID_TWO_FACTOR_CODE', 'invalid two-factor code');

/** `abcde-fghjk`: 10 characters of an unambiguous alphabet (~49 bits). */
function newRecoveryCode(): string {
  let s = '';
  for (let i = 0; i < 10; i++) s += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

const normalizeRecoveryCode = (code: string): string => code.toLowerCase().replace(/[^a-z0-9]/g, '');

const isTotpCode = (code: string): boolean => /^\d{6}$/.test(code.replace(/\s/g, ''));

function totpFor(secretBase32: string, label: string): TOTP {
  return new TOTP({ issuer: TOTP_ISSUER, label, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD, secret: Secret.fromBase32(secretBase32) });
}

/** The accepted time step of `code`, or null. */
function matchingStep(totp: TOTP, code: string, now = Date.now()): number | null {
  const delta = totp.validate({ token: code.replace(/\s/g, ''), timestamp: now, window: TOTP_WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / TOTP_PERIOD) + delta;
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;

export function createTwoFactorService(deps: TwoFactorDeps) {
  const { db, config, box, limiter, passwords, sessions, notices } = deps;

  function actorOf(meta: RequestMeta, userId: string | null) {
    return userId
      ? { type: 'user' as const, id: userId, ip: meta.ip, userAgent: meta.userAgent }
      : { type: 'anonymous' as const, id: null, ip: meta.ip, userAgent: meta.userAgent };
  }

  async function countCodeAttempt(userId: string): Promise<void> {
    await limiter.consume([{ bucket: 'auth.2fa.account', key: userId, rule: config.rateLimits.twoFactorAccount }]);
  }

  function openSecret(row: t.TwoFactorRow): string {
    return box.open({ enc: row.secret_enc, last4: '' }, sealContext(row.user_id));
  }

  /**
   * Checks a TOTP code or a recovery code of an enabled (or, with `pending`, a pending) second factor and spends it.
   * Throws INVALID_TWO_FACTOR_CODE.
   */
  async function spendCode(conn: Db | Knex.Transaction, userId: string, email: string, code: string, pending = false): Promise<'totp' | 'recovery_code'> {
    const row = await t.findTwoFactor(conn, userId);
    if (!row || (!pending && !row.enabled_at)) throw new AppError('INVALID_STATE', 'two-factor sign-in is not enabled');
    if (isTotpCode(code)) {
      const step = matchingStep(totpFor(openSecret(row), email), code);
      if (step === null || !(await t.acceptTotpStep(conn, userId, step, pending))) throw invalidCode();
      return 'totp';
    }
    if (pending) throw invalidCode();
    if (!(await t.consumeRecoveryCode(conn, userId, hashToken(normalizeRecoveryCode(code))))) throw invalidCode();
    return 'recovery_code';
  }

  /**
   * An account with a password changes its second factor only from a session opened with it: a session opened by an
   * organization's SSO acts for that organization, and its provider must not be able to lock the owner out of the
   * account (docs/auth.md#sessions-opened-by-sso). An account made by SSO has no other way in, so it may.
   */
  function refuseScopedChange(principal: UserPrincipal, user: q.UserRow): void {
    if (principal.ssoOrganizationId && user.password_hash) throw ssoSessionScoped('change two-factor sign-in');
  }

  async function requireUser(userId: string): Promise<q.UserRow> {
    const user = await q.findUserById(db, userId);
    if (!user) throw new AppError('SESSION_EXPIRED', 'session expired');
    return user;
  }

  return {
    async isEnabled(userId: string): Promise<boolean> {
      const row = await t.findTwoFactor(db, userId);
      return Boolean(row?.enabled_at);
    },

    async status(principal: UserPrincipal) {
      const row = await t.findTwoFactor(db, principal.userId);
      return {
        enabled: Boolean(row?.enabled_at),
        enrolmentPending: Boolean(row && !row.enabled_at),
        enabledAt: row?.enabled_at ? new Date(row.enabled_at).toISOString() : null,
        recoveryCodesRemaining: row?.enabled_at ? await t.countUnusedRecoveryCodes(db, principal.userId) : 0,
      };
    },

    /** A new secret for the authenticator app; replaces an unconfirmed one. */
    async startEnrolment(meta: RequestMeta, principal: UserPrincipal) {
      const user = await requireUser(principal.userId);
      refuseScopedChange(principal, user);
      const secret = new Secret({ size: 20 });
      const sealed = box.seal(secret.base32, sealContext(user.id));
      if (!(await t.upsertPendingTwoFactor(db, user.id, sealed.enc))) {
        throw new AppError('INVALID_STATE', 'two-factor sign-in is already enabled; disable it first to enrol a new device');
      }
      await recordAudit(db, { organizationId: null, userId: user.id, actor: actorOf(meta, user.id), action: 'auth.two_factor_enrolment_started' });
      const otpauthUri = totpFor(secret.base32, user.email).toString();
      const svg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
      return {
        secret: secret.base32,
        otpauthUri,
        qrCodeSvg: `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`,
        algorithm: 'SHA1' as const,
        digits: 6,
        period: TOTP_PERIOD,
      };
    },

    /** The first code turns it on; answers the recovery codes (shown once) and a fresh token pair for this device. */
    async confirmEnrolment(meta: RequestMeta, principal: UserPrincipal, code: string): Promise<{ recoveryCodes: string[]; tokens: TokenPair }> {
      const user = await requireUser(principal.userId);
      refuseScopedChange(principal, user);
      await countCodeAttempt(user.id);
      if (!isTotpCode(code)) throw new AppError('INVALID_TWO_FACTOR_CODE', 'enter the 6-digit code your authenticator app shows');
      const existing = await t.findTwoFactor(db, user.id);
      if (!existing) throw new AppError('INVALID_STATE', 'no enrolment in progress; start one with POST /api/auth/2fa/enrolment');
      if (existing.enabled_at) throw new AppError('INVALID_STATE', 'two-factor sign-in is already enabled');
      const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      const mail = await db.transaction(async (trx) => {
        await spendCode(trx, user.id, user.email, code, true);
        await t.replaceRecoveryCodes(trx, user.id, recoveryCodes.map((c) => hashToken(normalizeRecoveryCode(c))));
        // Sessions opened with the password alone end (this one too: the caller gets a new pair below).
        const count = await q.endUserSessions(trx, user.id, 'two_factor_enabled');
        await recordAudit(trx, {
          organizationId: null,
          userId: user.id,
          actor: actorOf(meta, user.id),
          action: 'auth.two_factor_enabled',
          after: { sessionsRevoked: count },
        });
        return notices.twoFactorChanged(trx, user, meta, true);
      });
      notices.deliver([mail]);
      // The new pair replaces this session: one opened by an organization's SSO stays scoped to it.
      const { tokens } = await sessions.create(user, { ip: meta.ip || null, userAgent: meta.userAgent }, principal.activeOrganizationId, undefined, {
        ssoOrganizationId: principal.ssoOrganizationId ?? null,
      });
      return { recoveryCodes, tokens };
    },

    /** Re-authentication: the password (accounts that have one) and a current code or a recovery code. */
    async disable(meta: RequestMeta, principal: UserPrincipal, input: { password?: string | undefined; code: string }): Promise<void> {
      const user = await requireUser(principal.userId);
      refuseScopedChange(principal, user);
      await countCodeAttempt(user.id);
      if (user.password_hash) {
        if (!input.password || !(await passwords.verify(input.password, user.password_hash))) {
          throw new AppError('INVALID_CREDENTIALS', 'the password is wrong');
        }
      }
      const mail = await db.transaction(async (trx) => {
        await spendCode(trx, user.id, user.email, input.code);
        await t.deleteTwoFactor(trx, user.id);
        await recordAudit(trx, { organizationId: null, userId: user.id, actor: actorOf(meta, user.id), action: 'auth.two_factor_disabled' });
        return notices.twoFactorChanged(trx, user, meta, false);
      });
      notices.deliver([mail]);
    },

    /** New recovery codes (the old ones stop working); needs a current code. */
    async regenerateRecoveryCodes(meta: RequestMeta, principal: UserPrincipal, code: string): Promise<string[]> {
      const user = await requireUser(principal.userId);
      refuseScopedChange(principal, user);
      await countCodeAttempt(user.id);
      const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      await db.transaction(async (trx) => {
        await spendCode(trx, user.id, user.email, code);
        await t.replaceRecoveryCodes(trx, user.id, recoveryCodes.map((c) => hashToken(normalizeRecoveryCode(c))));
        await recordAudit(trx, { organizationId: null, userId: user.id, actor: actorOf(meta, user.id), action: 'auth.recovery_codes_regenerated' });
      });
      return recoveryCodes;
    },

    /** The second step of a sign-in whose first step (password or SSO) passed. */
    async challenge(userId: string, organizationId: string | null, method: 'password' | 'sso'): Promise<SignInChallenge> {
      const token = randomBytes(32).toString('base64url');
      await t.insertLoginChallenge(db, {
        userId,
        tokenHash: hashToken(token),
        organizationId,
        method,
        expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
      });
      return { twoFactorRequired: true, challengeToken: token, expiresIn: CHALLENGE_TTL_MS / 1000, methods: ['totp', 'recovery_code'] };
    },

    /** Code right: the challenge is spent and a session opens. Five wrong codes end the challenge. */
    async completeChallenge(meta: RequestMeta, input: { challengeToken: string; code: string }): Promise<{ user: q.UserRow; tokens: TokenPair }> {
      const challengeHash = hashToken(input.challengeToken);
      const expired = (): AppError => new AppError('INVALID_TOKEN', 'invalid or expired sign-in challenge; sign in again');
      // The attempt is counted before the spending transaction: the limiter writes through its own pool
      // connection, which must not be taken while the transaction holds one (docs/conventions.md#transactions).
      const challengeUserId = await t.findLiveChallengeUser(db, challengeHash);
      if (!challengeUserId) throw expired();
      const decision = await limiter.hit([{ bucket: 'auth.2fa.account', key: challengeUserId, rule: config.rateLimits.twoFactorAccount }]);
      if (!decision.allowed) throw rateLimited(decision.retryAfterSeconds);
      const outcome = await db.transaction(async (trx) => {
        const challenge = await t.findLiveChallenge(trx, challengeHash);
        if (!challenge || challenge.user_id !== challengeUserId) throw expired();
        const user = await q.findUserById(trx, challenge.user_id);
        if (!user) throw expired();
        try {
          const method = await spendCode(trx, user.id, user.email, input.code);
          await t.deleteChallenge(trx, challenge.id);
          return { kind: 'ok' as const, user, challenge, method };
        } catch (err) {
          if (!(err instanceof AppError) || err.code !== 'INVALID_TWO_FACTOR_CODE') throw err;
          return { kind: 'wrong' as const, challenge, user };
        }
      });
      if (outcome.kind === 'wrong') {
        const failures = await t.countChallengeFailure(db, outcome.challenge.id);
        await recordAudit(db, { organizationId: null, userId: outcome.user.id, actor: actorOf(meta, null), action: 'auth.two_factor_failed' });
        if (failures >= CHALLENGE_MAX_FAILURES) {
          await t.deleteChallenge(db, outcome.challenge.id);
          throw new AppError('INVALID_TWO_FACTOR_CODE', 'invalid two-factor code; too many wrong codes, sign in again');
        }
        throw invalidCode();
      }
      const { user, challenge, method } = outcome;
      const mails: string[] = [];
      const { tokens } = await sessions.create(
        user,
        { ip: meta.ip || null, userAgent: meta.userAgent },
        challenge.organization_id ?? undefined,
        async (trx, sessionId) => {
          await recordAudit(trx, {
            organizationId: null,
            userId: user.id,
            actor: actorOf(meta, user.id),
            action: 'auth.login_succeeded',
            target: { type: 'session', id: sessionId },
            after: { secondFactor: method, firstFactor: challenge.method },
          });
          mails.push(...(await notices.signedIn(trx, user, meta, { sessionId, method: `${challenge.method} and ${method === 'totp' ? 'an authenticator code' : 'a recovery code'}` })));
        },
        // The first step was an organization's SSO: the session acts in that organization only.
        { ssoOrganizationId: challenge.method === 'sso' ? challenge.organization_id : null },
      );
      notices.deliver(mails);
      return { user, tokens };
    },
  };
}
