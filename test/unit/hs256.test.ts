import { createHmac, createSecretKey, generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { createHs256Verifier } from '../../lib/auth/hs256';

/**
 * The hand-written HS256 verifier against jsonwebtoken, the reference it replaced: every token jsonwebtoken accepts
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
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
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
