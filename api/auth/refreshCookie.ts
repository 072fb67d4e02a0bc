import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import { AppError } from '../../lib/errors';
import type { TokenPair } from '../../domain/auth/sessions';
import type { TokenService } from '../../domain/auth/tokens';

/**
 * Browser mode for the refresh token (docs/auth.md#browser-clients-refresh-cookie): opt in per request with the header
 * `X-Refresh-Token-Transport: cookie` on login (and its two-factor step); the refresh token then travels only in the
 * cookie `loom_refresh` (HttpOnly, Secure, SameSite=Strict, Path=/api/auth), never in a body script can read.
 * A refresh that takes the token from that cookie must carry `X-CSRF-Token` equal to the session's CSRF token: an
 * HMAC of the session id (so it survives rotation), answered in the body as `csrfToken` and set as the readable
 * cookie `loom_csrf` (Secure, SameSite=Strict, Path=/) for a reloaded page. Logout clears both cookies.
 */

export const REFRESH_COOKIE = 'loom_refresh';
export const CSRF_COOKIE = 'loom_csrf';
export const CHALLENGE_COOKIE = 'loom_sso_challenge';
export const TRANSPORT_HEADER = 'x-refresh-token-transport';
export const CSRF_HEADER = 'x-csrf-token';

export interface CookieTokens {
  accessToken: string;
  expiresIn: number;
  csrfToken: string;
  refreshTokenTransport: 'cookie';
}

export function createRefreshCookies(tokens: TokenService, secret: string) {
  const csrfFor = (sessionId: string): string => createHmac('sha256', secret).update(`loom-csrf:${sessionId}`).digest('base64url');

  function cookieValue(ctx: Context, name: string): string | null {
    for (const part of (ctx.get('cookie') || '').split(';')) {
      const i = part.indexOf('=');
      if (i > 0 && part.slice(0, i).trim() === name) return decodeURIComponent(part.slice(i + 1).trim());
    }
    return null;
  }

  return {
    wanted: (ctx: Context): boolean => ctx.get(TRANSPORT_HEADER).toLowerCase() === 'cookie',

    /** Sets the cookies for `pair` and answers the body without the refresh token. */
    deliver(ctx: Context, pair: TokenPair): CookieTokens {
      const claims = tokens.verifyRefresh(pair.refreshToken);
      const maxAge = Math.max(0, Math.floor(claims.exp - Date.now() / 1000));
      const csrfToken = csrfFor(claims.sid);
      ctx.append('Set-Cookie', `${REFRESH_COOKIE}=${pair.refreshToken}; Path=/api/auth; Max-Age=${maxAge}; HttpOnly; Secure; SameSite=Strict`);
      ctx.append('Set-Cookie', `${CSRF_COOKIE}=${csrfToken}; Path=/; Max-Age=${maxAge}; Secure; SameSite=Strict`);
      ctx.set('Cache-Control', 'no-store');
      return { accessToken: pair.accessToken, expiresIn: pair.expiresIn, csrfToken, refreshTokenTransport: 'cookie' };
    },

    /**
     * An SSO sign-in the console started whose second step is due: the challenge travels in an HttpOnly cookie that
     * only POST /api/auth/login/2fa receives, so it never appears in the address the browser is sent back to.
     */
    deliverChallenge(ctx: Context, challengeToken: string, expiresIn: number): void {
      ctx.append('Set-Cookie', `${CHALLENGE_COOKIE}=${challengeToken}; Path=/api/auth/login/2fa; Max-Age=${expiresIn}; HttpOnly; Secure; SameSite=Strict`);
    },

    /** The challenge of a second step: from the body, or else from the cookie of an SSO sign-in (then spent). */
    challengePresented(ctx: Context, bodyToken: string | undefined): string {
      const token = bodyToken ?? cookieValue(ctx, CHALLENGE_COOKIE);
      if (!token) throw new AppError('INVALID_TOKEN', 'no sign-in challenge: send challengeToken from the answer of POST /api/auth/login');
      if (!bodyToken) ctx.append('Set-Cookie', `${CHALLENGE_COOKIE}=; Path=/api/auth/login/2fa; Max-Age=0; HttpOnly; Secure; SameSite=Strict`);
      return token;
    },

    clear(ctx: Context): void {
      ctx.append('Set-Cookie', `${REFRESH_COOKIE}=; Path=/api/auth; Max-Age=0; HttpOnly; Secure; SameSite=Strict`);
      ctx.append('Set-Cookie', `${CSRF_COOKIE}=; Path=/; Max-Age=0; Secure; SameSite=Strict`);
    },

    /**
     * The refresh token of a refresh call: from the body, or else from the cookie, which then needs the CSRF header.
     * `fromCookie` tells the caller to answer in cookie mode.
     */
    presented(ctx: Context, bodyToken: string | undefined): { token: string; fromCookie: boolean } {
      if (bodyToken) return { token: bodyToken, fromCookie: false };
      const token = cookieValue(ctx, REFRESH_COOKIE);
      if (!token) throw new AppError('INVALID_TOKEN', 'no refresh token: send refreshToken in the body, or the refresh cookie');
      let sessionId: string;
      try {
        sessionId = tokens.verifyRefresh(token).sid;
      } catch {
        // Expired or invalid: the service gives the precise answer.
        return { token, fromCookie: true };
      }
      const expected = Buffer.from(csrfFor(sessionId));
      const given = Buffer.from(ctx.get(CSRF_HEADER));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new AppError('FORBIDDEN', `a refresh with the refresh cookie needs the ${CSRF_HEADER} header (the csrfToken of the sign-in answer, or the ${CSRF_COOKIE} cookie)`);
      }
      return { token, fromCookie: true };
    },
  };
}

export type RefreshCookies = ReturnType<typeof createRefreshCookies>;
