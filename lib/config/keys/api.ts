import { z } from 'zod';
import { bool, duration, int, rate, text, url } from '../schemas';
import { setting } from '../settings';

export const http = {
  host: setting('SERVICE_HOST', text('127.0.0.1'), { meaning: 'API listen address', example: '127.0.0.1' }),
  port: setting('SERVICE_PORT', int(3000, 0, 65535), { meaning: 'API listen address', example: '3000' }),
  /** The API's public base URL; unset: `http://127.0.0.1:<port>` (lib/config.ts). */
  publicUrl: setting('SERVICE_PUBLIC_URL', url(), { meaning: 'base URL in links and the OpenAPI document', default: '`http://127.0.0.1:<port>`' }),
  /**
   * A client application's base URL: when set, e-mailed links open its pages (`<app>/invitations/accept?token=`,
   * `/verify-email?token=`, `/reset-password?token=`) instead of the API's own (docs/auth.md#links-in-e-mails).
   */
  appUrl: setting(
    'SERVICE_APP_URL',
    z
      .string()
      .refine((v) => {
        try {
          const u = new URL(v);
          return (u.protocol === 'https:' || u.protocol === 'http:') && !u.search && !u.hash && !u.username && !u.password;
        } catch {
          return false;
        }
      }, 'SERVICE_APP_URL must be an http(s) URL without credentials, query or fragment')
      .transform((v) => v.replace(/\/+$/, ''))
      .optional(),
    {
      meaning: 'a client application\'s base URL: e-mailed links (invitation, e-mail verification, password reset) open `<app>/invitations/accept?token=…`, `<app>/verify-email?token=…`, `<app>/reset-password?token=…`; unset, they open the API\'s own pages at those paths (docs/auth.md#links-in-e-mails)',
      note: 'A client app\'s base URL for e-mailed links (<app>/invitations/accept?token=...); empty = the API\'s own pages.',
    },
  ),
  bodyLimitBytes: setting('SERVICE_BODY_LIMIT_BYTES', int(1024 * 1024, 1024), { meaning: 'JSON body limit (413 past it)', example: '1048576' }),
  trustProxy: setting('SERVICE_TRUST_PROXY', bool(false), { meaning: 'trust `X-Forwarded-For`', example: 'false' }),
  /**
   * Write requests (POST, PUT, PATCH, DELETE) one organization runs at once in this API process (on account routes,
   * one user); more wait in its queue, at most `writeQueue` of them for `writeQueueTimeoutMs`, then 429
   * RATE_LIMITED with Retry-After for that organization alone. Kept well below DATABASE_POOL_MAX, so one tenant's
   * burst leaves the database pool to the others (docs/operating.md#database-pool-and-mail).
   */
  writeConcurrency: setting('SERVICE_WRITE_CONCURRENCY_PER_ORGANIZATION', int(3, 1, 200), {
    meaning: 'write requests one organization (on account routes, one user) runs at once per API process; keep well below `DATABASE_POOL_MAX`',
    example: '3',
  }),
  writeQueue: setting('SERVICE_WRITE_QUEUE_PER_ORGANIZATION', int(200, 0, 100_000), {
    meaning: 'its further write requests that wait; beyond, 429 RATE_LIMITED with Retry-After',
    example: '200',
  }),
  writeQueueTimeoutMs: setting('SERVICE_WRITE_QUEUE_TIMEOUT', duration('15s'), { meaning: 'how long one waits before that 429', example: '15s' }),
};

export const jwt = {
  secret: setting(
    'SERVICE_JWT_SECRET',
    z.string({ error: 'SERVICE_JWT_SECRET is required (at least 32 characters)' }).min(32, 'SERVICE_JWT_SECRET must be at least 32 characters'),
    { meaning: 'HS256 signing secret', default: '(required, >= 32 chars)' },
  ),
  issuer: setting('SERVICE_JWT_ISSUER', z.string().min(1).optional().default('loom'), { meaning: '`iss` claim of access tokens', example: 'loom' }),
  accessTtlMs: setting('SERVICE_JWT_ACCESS_TOKEN_DURATION', duration('15m'), { meaning: 'access token lifetime', example: '15m' }),
  refreshTtlMs: setting('SERVICE_JWT_REFRESH_TOKEN_DURATION', duration('7d'), { meaning: 'refresh token lifetime', example: '7d' }),
};

export const auth = {
  passwordMinLength: setting('SERVICE_AUTH_PASSWORD_MIN_LENGTH', int(8, 1, 72), { meaning: 'password policy', example: '8' }),
  passwordRequireUppercase: setting('SERVICE_AUTH_PASSWORD_REQUIRE_UPPERCASE', bool(true), { meaning: 'password policy', example: 'true' }),
  passwordRequireNumbers: setting('SERVICE_AUTH_PASSWORD_REQUIRE_NUMBERS', bool(true), { meaning: 'password policy', example: 'true' }),
  passwordRequireSymbols: setting('SERVICE_AUTH_PASSWORD_REQUIRE_SYMBOLS', bool(true), { meaning: 'password policy', example: 'true' }),
  maxSessionsPerUser: setting('SERVICE_AUTH_MAX_SESSIONS_PER_USER', int(5, 1, 1000), {
    meaning: 'a new login evicts the oldest session',
    example: '5',
  }),
  sessionIdleTimeoutMs: setting('SERVICE_AUTH_SESSION_IDLE_TIMEOUT', duration('30m'), { meaning: 'idle sessions expire', example: '30m' }),
  bcryptCost: setting('SERVICE_AUTH_BCRYPT_COST', int(10, 4, 15), { meaning: 'bcrypt cost factor', example: '10' }),
  /**
   * How long after a rotation the spent refresh token is answered with the same successor (a client racing itself)
   * instead of revoking its session; 0 = strict (any reuse revokes).
   */
  refreshReuseGraceMs: setting('SERVICE_AUTH_REFRESH_REUSE_GRACE', duration('10s'), {
    meaning: 'window after a rotation in which the spent refresh token gets the same successor instead of revoking its session (`0s` = strict)',
    example: '10s',
    note: '0s = any reuse of a rotated refresh token revokes its session; e.g. 10s tolerates a client racing itself',
  }),
  /**
   * Longest time an API process serves a session check or an organization access check from memory
   * (docs/auth.md#session-check, #access-check); changes evict them at once through PostgreSQL notices, this
   * bounds a missed one. 0 = read both on every request.
   */
  sessionCacheTtlMs: setting('SERVICE_AUTH_SESSION_CACHE_TTL', duration('5s'), {
    meaning: 'longest time an API process serves a session check or an organization access check from memory; every change to a session, user, organization, membership or two-factor enrolment evicts it at once through PostgreSQL notices ([docs/auth.md](docs/auth.md#session-check)); `0s` = read both on every request',
    example: '5s',
  }),
  passwordResetTtlMs: setting('SERVICE_AUTH_PASSWORD_RESET_TOKEN_DURATION', duration('1h'), { meaning: 'e-mailed token lifetimes', example: '1h' }),
  emailVerificationTtlMs: setting('SERVICE_AUTH_EMAIL_VERIFICATION_TOKEN_DURATION', duration('1h'), {
    meaning: 'e-mailed token lifetimes',
    example: '1h',
  }),
};

/** Abuse limits of the auth endpoints (null = off); see api/ratelimit. */
export const rateLimits = {
  loginIp: setting('SERVICE_RATE_LIMIT_LOGIN_IP', rate('50/15m'), {
    meaning: 'login attempts per IP, right password or not (`off` disables)',
    example: '50/15m',
    note: 'Rate limits (hits/window or off), counted in PostgreSQL across instances; 429 RATE_LIMITED with Retry-After',
  }),
  loginAccount: setting('SERVICE_RATE_LIMIT_LOGIN_ACCOUNT', rate('10/15m'), {
    meaning: 'failed logins per e-mail; beyond it a wrong password answers 429 but the right one still signs in, so nobody can lock an account out (docs/auth.md#login-limits)',
    example: '10/15m',
    note: 'Failed logins per e-mail: beyond it a wrong password answers 429, the right one still signs in (docs/auth.md)',
  }),
  loginAccountIp: setting('SERVICE_RATE_LIMIT_LOGIN_ACCOUNT_IP', rate('10/15m'), {
    meaning: 'login attempts per (e-mail, IP), right password or not: bounds guessing from one source (`off` disables)',
    example: '10/15m',
    note: 'Login attempts per (e-mail, IP), right password or not: bounds guessing from one source',
  }),
  registerIp: setting('SERVICE_RATE_LIMIT_REGISTER_IP', rate('20/1h'), { meaning: 'registrations per IP', example: '20/1h' }),
  refreshIp: setting('SERVICE_RATE_LIMIT_REFRESH_IP', rate('300/15m'), { meaning: 'refreshes per IP / per user', example: '300/15m' }),
  refreshAccount: setting('SERVICE_RATE_LIMIT_REFRESH_ACCOUNT', rate('60/15m'), { meaning: 'refreshes per IP / per user', example: '60/15m' }),
  resetIp: setting('SERVICE_RATE_LIMIT_RESET_IP', rate('20/1h'), {
    meaning: 'password-reset and verification e-mails per IP / per e-mail',
    example: '20/1h',
  }),
  resetAccount: setting('SERVICE_RATE_LIMIT_RESET_ACCOUNT', rate('5/1h'), {
    meaning: 'password-reset and verification e-mails per IP / per e-mail',
    example: '5/1h',
  }),
  /** Two-factor code checks per account (sign-in step, enrolment, disabling); every check counts. */
  twoFactorAccount: setting('SERVICE_RATE_LIMIT_TWO_FACTOR_ACCOUNT', rate('10/15m'), {
    meaning: 'two-factor code checks per account (sign-in step, enrolment, disabling); every check counts (docs/auth.md#two-factor-sign-in)',
    example: '10/15m',
  }),
};
