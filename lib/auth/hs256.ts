import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto';

/**
 * HS256 JSON Web Tokens (RFC 7519), signed and verified by hand. jsonwebtoken stays the reference the unit tests
 * check both against (test/unit/hs256.test.ts): its generic path (option validation, algorithm dispatch through
 * jws streams, claim checks we do not use) costs ~4x one HMAC on verification, on every authenticated request
 * (docs/benchmarks.md, JWT row), and on signing ~0.4 ms of the event loop per login (two tokens), code that runs
 * too rarely to be optimised.
 *
 * Verification returns the claims, or null for anything that is not exactly a token we could have signed with this
 * key.
 *
 * Strict by construction:
 * - three segments, each base64url without padding; the signature is compared to the canonical encoding of the
 *   expected MAC in constant time, so a signature with trailing or non-canonical characters never matches;
 * - the header must be a JSON object whose `alg` is exactly `HS256` (no `none`, no other HMAC sizes, no
 *   asymmetric algorithms that would reuse the key), with `typ`, when present, `JWT`, and no `crit` extensions;
 * - the payload must be a JSON object; `iss` must equal `issuer`; `nbf`, when present, must be a number not in the
 *   future. Expiry is the caller's (it tells an expired genuine token from a forged one).
 *
 * Header segments repeat across all tokens one key signs, so the last accepted header segment is remembered and
 * not parsed again; it is only ever compared as a string and still covered by the signature.
 */
export interface Hs256Signer {
  /** The token of these claims, header `{"alg":"HS256","typ":"JWT"}`; the claims are serialised as given. */
  sign(claims: Record<string, unknown>): string;
}

export interface Hs256Verifier {
  verify(token: string, nowSeconds: number): Record<string, unknown> | null;
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function parseObject(segment: string): Record<string, unknown> | null {
  if (segment.length === 0 || !BASE64URL.test(segment) || segment.length % 4 === 1) return null;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function acceptableHeader(header: Record<string, unknown> | null): boolean {
  return (
    header !== null &&
    header.alg === 'HS256' &&
    (header.typ === undefined || header.typ === 'JWT') &&
    header.crit === undefined
  );
}

/** The one header we sign with: every token of a key shares this segment. */
const HEADER_SEGMENT = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

export function createHs256Signer(key: KeyObject): Hs256Signer {
  return {
    sign(claims) {
      const input = `${HEADER_SEGMENT}.${Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url')}`;
      return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
    },
  };
}

export function createHs256Verifier(key: KeyObject, issuer: string): Hs256Verifier {
  let knownHeader = '';
  return {
    verify(token, nowSeconds) {
      const firstDot = token.indexOf('.');
      const secondDot = firstDot < 0 ? -1 : token.indexOf('.', firstDot + 1);
      if (secondDot < 0 || token.indexOf('.', secondDot + 1) >= 0) return null;
      const headerSegment = token.slice(0, firstDot);
      if (headerSegment !== knownHeader && !acceptableHeader(parseObject(headerSegment))) return null;

      const signature = token.slice(secondDot + 1);
      const expected = createHmac('sha256', key).update(token.slice(0, secondDot)).digest('base64url');
      if (signature.length !== expected.length || !BASE64URL.test(signature)) return null;
      if (!timingSafeEqual(Buffer.from(signature, 'latin1'), Buffer.from(expected, 'latin1'))) return null;

      const payload = parseObject(token.slice(firstDot + 1, secondDot));
      if (payload === null || payload.iss !== issuer) return null;
      if (payload.nbf !== undefined && (typeof payload.nbf !== 'number' || payload.nbf > nowSeconds)) return null;
      knownHeader = headerSegment;
      return payload;
    },
  };
}
