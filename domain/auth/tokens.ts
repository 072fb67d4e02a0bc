import { createHash, createHmac, createSecretKey, randomBytes, randomUUID, type KeyObject } from 'node:crypto';
import type { Config } from '../../lib/config';
import { createHs256Signer, createHs256Verifier } from '../../lib/auth/hs256';
import { AppError } from '../../lib/errors';

/**
 * Access and refresh tokens. HS256 only, signed and verified by lib/auth/hs256.ts (the verifier pins the algorithm
 * and the issuer). `typ` separates the two kinds so one can never be used as the other.
 */
export interface AccessClaims {
  sub: string;
  email: string;
  sid: string;
  organizationID: string | null;
  typ: 'access';
  jti: string;
  iss: string;
  iat: number;
  exp: number;
}

export interface RefreshClaims {
  sub: string;
  sid: string;
  typ: 'refresh';
  jti: string;
  iss: string;
  iat: number;
  exp: number;
}

export interface TokenService {
  accessTtlSeconds: number;
  refreshTtlMs: number;
  signAccess(input: { userId: string; email: string; sessionId: string; organizationId: string | null }): string;
  /**
   * `expiresAt` pins the token to its session's absolute expiry; without it the configured lifetime applies.
   * `successorOf` (the SHA-256 of the refresh token being replaced) with `issuedAt` (seconds) makes the token a
   * function of them: signing again with the same input gives the same token, which is how a refresh racing the
   * rotation within the reuse grace is answered with the same successor (domain/auth/sessions.ts).
   */
  signRefresh(input: { userId: string; sessionId: string; expiresAt?: Date; successorOf?: string; issuedAt?: number }): string;
  /** Throws INVALID_TOKEN, or TOKEN_EXPIRED for a genuine access token past `exp` (message `invalid token`). */
  verifyAccess(token: string): AccessClaims;
  verifyRefresh(token: string): RefreshClaims;
}

/** What the database keeps instead of a token: SHA-256, hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A random opaque token for e-mailed links (password reset, e-mail verification): 256 bits, base64url. */
export function randomOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

export function createTokenService(config: Config['jwt']): TokenService {
  const key: KeyObject = createSecretKey(Buffer.from(config.secret, 'utf8'));
  const accessTtlSeconds = Math.floor(config.accessTtlMs / 1000);
  const refreshTtlSeconds = Math.floor(config.refreshTtlMs / 1000);

  const signer = createHs256Signer(key);
  const verifier = createHs256Verifier(key, config.issuer);

  function verify(token: string, typ: 'access' | 'refresh'): Record<string, unknown> {
    const nowSeconds = Date.now() / 1000;
    // Expiry is checked below, after the kind: an expired token of the wrong kind is simply invalid.
    const payload = verifier.verify(token, nowSeconds);
    if (
      payload === null ||
      payload.typ !== typ ||
      typeof payload.sub !== 'string' ||
      typeof payload.sid !== 'string' ||
      typeof payload.exp !== 'number'
    ) {
      throw new AppError('INVALID_TOKEN', 'invalid token');
    }
    if (payload.exp <= nowSeconds) {
      // The spec fixes the message; the detail and the challenge tell a client that refreshing is the way out.
      const problem = typ === 'access' ? 'the access token expired; get a new one with POST /api/auth/refresh' : 'the refresh token expired; log in again';
      throw new AppError('TOKEN_EXPIRED', 'invalid token', [{ path: 'authorization', problem }], {
        'WWW-Authenticate': `Bearer realm="loom", error="invalid_token", error_description="the ${typ} token expired"`,
      });
    }
    return payload;
  }

  return {
    accessTtlSeconds,
    refreshTtlMs: config.refreshTtlMs,
    // Claims in the order jsonwebtoken wrote them, so tokens are byte for byte what it signed before: a refresh
    // successor signed again across an upgrade still matches the stored hash (sessions.ts, answerStale).
    signAccess({ userId, email, sessionId, organizationId }) {
      const iat = Math.floor(Date.now() / 1000);
      const claims: AccessClaims = {
        email,
        sid: sessionId,
        organizationID: organizationId,
        typ: 'access',
        iat,
        exp: iat + accessTtlSeconds,
        iss: config.issuer,
        sub: userId,
        jti: randomUUID(), // two tokens issued in the same second for the same session still differ
      };
      return signer.sign({ ...claims });
    },
    signRefresh({ userId, sessionId, expiresAt, successorOf, issuedAt }) {
      const iat = issuedAt ?? Math.floor(Date.now() / 1000);
      const exp = expiresAt ? Math.floor(expiresAt.getTime() / 1000) : iat + refreshTtlSeconds;
      // A successor's id is derived from the token it replaces (keyed, so it reveals nothing); others are random.
      const jti = successorOf
        ? createHmac('sha256', key).update(`refresh-successor:${sessionId}:${successorOf}`).digest('hex').slice(0, 32)
        : randomUUID();
      const claims: RefreshClaims = { sid: sessionId, typ: 'refresh', exp, iat, iss: config.issuer, sub: userId, jti };
      return signer.sign({ ...claims });
    },
    verifyAccess: (token) => verify(token, 'access') as unknown as AccessClaims,
    verifyRefresh: (token) => verify(token, 'refresh') as unknown as RefreshClaims,
  };
}
