import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Config } from '../../lib/config';
import { AppError } from '../../lib/errors';

/**
 * Access and refresh tokens. HS256 only, signed with a KeyObject (a string secret makes jsonwebtoken try to parse
 * it as a PEM key on every call, which costs ~85% of verify time). `typ` separates the two kinds so one can never
 * be used as the other.
 */
export interface AccessClaims {
  sub: string;
  email: string;
  sid: string;
  organizationID: string | null;
  typ: 'access';
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
  signAccess(input: { userId: string; email: string; sessionId: string; organizationId: string | null }): string;
  signRefresh(input: { userId: string; sessionId: string }): string;
  verifyAccess(token: string): AccessClaims;
  verifyRefresh(token: string): RefreshClaims;
}

export function createTokenService(config: Config['jwt']): TokenService {
  const key: KeyObject = createSecretKey(Buffer.from(config.secret, 'utf8'));
  const accessTtlSeconds = Math.floor(config.accessTtlMs / 1000);
  const refreshTtlSeconds = Math.floor(config.refreshTtlMs / 1000);

  function verify(token: string, typ: 'access' | 'refresh'): jwt.JwtPayload {
    let payload: string | jwt.JwtPayload;
    try {
      payload = jwt.verify(token, key, { algorithms: ['HS256'], issuer: config.issuer });
    } catch (err) {
      if ((err as Error).name === 'TokenExpiredError') throw new AppError('TOKEN_EXPIRED', 'invalid token');
      throw new AppError('INVALID_TOKEN', 'invalid token');
    }
    if (typeof payload === 'string' || payload.typ !== typ || typeof payload.sub !== 'string' || typeof payload.sid !== 'string') {
      throw new AppError('INVALID_TOKEN', 'invalid token');
    }
    return payload;
  }

  return {
    accessTtlSeconds,
    signAccess({ userId, email, sessionId, organizationId }) {
      return jwt.sign({ email, sid: sessionId, organizationID: organizationId, typ: 'access' }, key, {
        algorithm: 'HS256',
        subject: userId,
        issuer: config.issuer,
        expiresIn: accessTtlSeconds,
      });
    },
    signRefresh({ userId, sessionId }) {
      return jwt.sign({ sid: sessionId, typ: 'refresh' }, key, {
        algorithm: 'HS256',
        subject: userId,
        issuer: config.issuer,
        expiresIn: refreshTtlSeconds,
        jwtid: randomUUID(),
      });
    },
    verifyAccess: (token) => verify(token, 'access') as unknown as AccessClaims,
    verifyRefresh: (token) => verify(token, 'refresh') as unknown as RefreshClaims,
  };
}
