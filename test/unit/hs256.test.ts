import { createHmac, createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { createHs256Signer, createHs256Verifier } from '../../lib/auth/hs256';
import { createTokenService } from '../../domain/auth/tokens';
import { rsaKeyPair } from '../helpers/rsaKey';

/**
 * The hand-written HS256 signer and verifier against jsonwebtoken, the reference they replaced: tokens are signed byte
 * for byte as jsonwebtoken signed them; every token jsonwebtoken accepts
 * (algorithm HS256, issuer pinned, expiry ignored) is accepted with the same claims, and every token it refuses is
 * refused; on top, a few non-canonical encodings jsonwebtoken tolerates are refused here.
 */
const secret = 'unit-test-secret-of-a-reasonable-length-0123456789';
const key = createSecretKey(Buffer.from(secret, 'utf8'));
const issuer = 'loom-test';
const now = 1_900_000_000;
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function sign(payload: Record<string, unknown>, options: jwt.SignOptions = {}, signingKey: jwt.Secret = key): string {
  return jwt.sign({ iss: issuer, sub: 'u1', sid: 's1', typ: 'access', iat: now, exp: now + 600, ...payload }, signingKey, {
    algorithm: 'HS256',
    ...options,
  });
}

function reference(token: string): Record<string, unknown> | null {
  try {
    const payload = jwt.verify(token, key, { algorithms: ['HS256'], issuer, ignoreExpiration: true, clockTimestamp: now });
    return typeof payload === 'string' ? null : (payload as Record<string, unknown>);
  } catch {
    return null;
  }
}

function resign(header: unknown, payload: unknown): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}

function cases(): Record<string, string> {
  const good = sign({ email: 'a@example.com', organizationID: null });
  const [h, p, s] = good.split('.') as [string, string, string];
  const { privateKey } = rsaKeyPair();
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
  return {
    good,
    'good with kid': sign({}, { keyid: 'k1' }),
    'expired (expiry is the caller’s)': sign({ exp: now - 10 }),
    'nbf in the past': sign({ nbf: now - 5 }),
    'nbf in the future': sign({ nbf: now + 5 }),
    'nbf not a number': resign({ alg: 'HS256', typ: 'JWT' }, { ...claims, nbf: 'soon' }),
    'wrong issuer': sign({ iss: 'someone-else' }),
    'no issuer': resign({ alg: 'HS256', typ: 'JWT' }, { ...claims, iss: undefined }),
    'wrong secret': sign({}, {}, 'another-secret-of-a-reasonable-length-0123456789'),
    HS384: sign({}, { algorithm: 'HS384' }),
    HS512: sign({}, { algorithm: 'HS512' }),
    RS256: sign({}, { algorithm: 'RS256' }, privateKey),
    'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${p}.`,
    'alg none with the real signature': `${b64({ alg: 'none', typ: 'JWT' })}.${p}.${s}`,
    'alg hs256 lower case': resign({ alg: 'hs256', typ: 'JWT' }, claims),
    'header not an object': resign('"HS256"', claims),
    'header an array': resign([{ alg: 'HS256' }], claims),
    'payload an array': resign({ alg: 'HS256', typ: 'JWT' }, [claims]),
    'payload a string': resign({ alg: 'HS256', typ: 'JWT' }, 'claims'),
    'payload not JSON': `${h}.${b64('{not json')}.${s}`,
    'tampered payload': `${h}.${b64({ ...claims, sub: 'u2' })}.${s}`,
    'tampered signature': `${h}.${p}.${s.slice(0, -2)}AA`,
    'stripped signature': `${h}.${p}.`,
    'two segments': `${h}.${p}`,
    'four segments': `${good}.x`,
    empty: '',
    dots: '..',
    garbage: 'a.b.c',
  };
}

describe('HS256 verifier', () => {
  const verifier = createHs256Verifier(key, issuer);

  test.each(Object.entries(cases()))('%s: same verdict and claims as jsonwebtoken', (_name, token) => {
    expect(verifier.verify(token, now)).toEqual(reference(token));
  });

  test('accepts what it should (the differential cases are not all refusals)', () => {
    const all = cases();
    expect(verifier.verify(all.good!, now)).toMatchObject({ sub: 'u1', iss: issuer, email: 'a@example.com' });
    expect(verifier.verify(all['expired (expiry is the caller’s)']!, now)).not.toBeNull();
    expect(verifier.verify(all['nbf in the future']!, now)).toBeNull();
    expect(verifier.verify(all['nbf in the future']!, now + 5)).not.toBeNull();
  });

  test('refuses non-canonical encodings that jsonwebtoken tolerates', () => {
    const [h, p, s] = cases().good!.split('.') as [string, string, string];
    for (const token of [
      `${h}.${p}.${s}=`, // padding
      `${h}.${p}.${s}\n`,
      `${h}.${p}.${s.slice(0, -1)}${String.fromCharCode(s.charCodeAt(s.length - 1) + 256)}`, // same low byte, not ASCII
      `${h}=.${p}.${s}`,
      `${h}.${p}==.${s}`,
      ` ${h}.${p}.${s}`,
    ]) {
      expect(verifier.verify(token, now)).toBeNull();
    }
  });

  test('a remembered header is never a way around the signature or the other header rules', () => {
    const good = cases().good!;
    expect(verifier.verify(good, now)).not.toBeNull(); // its header segment is now remembered
    const [h, p] = good.split('.') as [string, string];
    expect(verifier.verify(`${h}.${p}.`, now)).toBeNull();
    expect(verifier.verify(sign({}, {}, 'another-secret-of-a-reasonable-length-0123456789'), now)).toBeNull();
    expect(verifier.verify(sign({}, { algorithm: 'HS512' }), now)).toBeNull();
  });
});

describe('HS256 signer', () => {
  const tokens = createTokenService({ secret, issuer, accessTtlMs: 900_000, refreshTtlMs: 30 * 86_400_000 });
  const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;

  test('an access token is byte for byte the one jsonwebtoken signs for the same claims', () => {
    for (const organizationId of ['0b6a1c9e-3f35-4f4a-9a57-0c1f3a6d2b11', null]) {
      const token = tokens.signAccess({ userId: 'u1', email: 'ä@example.com', sessionId: 's1', organizationId });
      const { iat, jti } = claimsOf(token) as { iat: number; jti: string };
      const expected = jwt.sign({ email: 'ä@example.com', sid: 's1', organizationID: organizationId, typ: 'access', iat }, key, {
        algorithm: 'HS256',
        subject: 'u1',
        issuer,
        expiresIn: 900,
        jwtid: jti,
      });
      expect(token).toBe(expected);
      expect(reference(token)).toMatchObject({ sub: 'u1', typ: 'access', exp: iat + 900 });
    }
  });

  test('a refresh token too, and a successor signed twice is the same token', () => {
    const expiresAt = new Date((now + 3600) * 1000);
    const fresh = tokens.signRefresh({ userId: 'u1', sessionId: 's1', expiresAt });
    const { iat, jti } = claimsOf(fresh) as { iat: number; jti: string };
    const expected = (id: string, issuedAt: number) =>
      jwt.sign({ sid: 's1', typ: 'refresh', exp: now + 3600, iat: issuedAt }, key, { algorithm: 'HS256', subject: 'u1', issuer, jwtid: id });
    expect(fresh).toBe(expected(jti, iat));

    const successor = { userId: 'u1', sessionId: 's1', expiresAt, successorOf: 'f'.repeat(64), issuedAt: now - 10 };
    const once = tokens.signRefresh(successor);
    expect(tokens.signRefresh(successor)).toBe(once);
    expect(once).toBe(expected(claimsOf(once).jti as string, now - 10));
    expect(tokens.verifyRefresh(once)).toMatchObject({ sub: 'u1', sid: 's1', typ: 'refresh' });
  });

  test('what it signs, its verifier accepts, and a changed claim is refused', () => {
    const token = createHs256Signer(key).sign({ iss: issuer, sub: 'u1', n: 1 });
    const verifier = createHs256Verifier(key, issuer);
    expect(verifier.verify(token, now)).toEqual({ iss: issuer, sub: 'u1', n: 1 });
    const [h, , s] = token.split('.') as [string, string, string];
    expect(verifier.verify(`${h}.${b64({ iss: issuer, sub: 'u2', n: 1 })}.${s}`, now)).toBeNull();
  });
});
