import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks (https://www.standardwebhooks.com): headers `webhook-id`, `webhook-timestamp` (Unix seconds)
 * and `webhook-signature` (space-separated `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`). Used both to
 * verify inbound webhook triggers and to sign outgoing deliveries.
 *
 * Secrets: `whsec_<base64>` secrets use the decoded bytes as the HMAC key (the standard's format); any other string
 * (a hand-written outgoing-endpoint secret stored before secrets were checked) is used as UTF-8 bytes.
 */
export const SECRET_PREFIX = 'whsec_';
/** The key sizes the standard recommends (24 to 64 bytes); new outgoing-endpoint secrets must be within them. */
export const SECRET_MIN_BYTES = 24;
export const SECRET_MAX_BYTES = 64;

export function generateSigningSecret(bytes = 32): string {
  return SECRET_PREFIX + randomBytes(bytes).toString('base64');
}

/**
 * Checks a secret a client chose: `whsec_` followed by the canonical (padded) base64 of 24 to 64 bytes, the form the
 * official Standard Webhooks libraries accept. Answers the problem in words, or null when the secret is good.
 */
export function signingSecretProblem(secret: string): string | null {
  const expected = `must be ${SECRET_PREFIX} followed by the base64 of ${SECRET_MIN_BYTES} to ${SECRET_MAX_BYTES} random bytes (leave it out and one is generated)`;
  if (!secret.startsWith(SECRET_PREFIX)) return `${expected}; it does not start with ${SECRET_PREFIX}`;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(encoded) || encoded.length % 4 !== 0) return `${expected}; the part after ${SECRET_PREFIX} is not base64`;
  const key = Buffer.from(encoded, 'base64');
  if (key.toString('base64') !== encoded) return `${expected}; the part after ${SECRET_PREFIX} is not canonical base64`;
  if (key.length < SECRET_MIN_BYTES || key.length > SECRET_MAX_BYTES) return `${expected}; it decodes to ${key.length} bytes`;
  return null;
}

export function secretKey(secret: string): Buffer {
  return secret.startsWith(SECRET_PREFIX) ? Buffer.from(secret.slice(SECRET_PREFIX.length), 'base64') : Buffer.from(secret, 'utf8');
}

export function sign(secret: string, id: string, timestampSeconds: number, body: string | Buffer): string {
  const mac = createHmac('sha256', secretKey(secret));
  mac.update(`${id}.${timestampSeconds}.`);
  mac.update(body);
  return `v1,${mac.digest('base64')}`;
}

/**
 * The three headers. Several secrets (a rotation's new and previous one) give one signature each, space-separated,
 * in the order given: a receiver holding either secret verifies the message.
 */
export function signatureHeaders(secret: string | readonly string[], id: string, body: string | Buffer, now = new Date()): Record<string, string> {
  const ts = Math.floor(now.getTime() / 1000);
  const secrets = typeof secret === 'string' ? [secret] : secret;
  return { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': secrets.map((s) => sign(s, id, ts, body)).join(' ') };
}

export type VerifyResult =
  | { ok: true; id: string; timestamp: number }
  | { ok: false; problem: string };

/** Checks the three headers, the timestamp tolerance and the signature (any `v1` entry may match). */
export function verify(
  secret: string,
  headers: { id?: string; timestamp?: string; signature?: string },
  body: Buffer,
  toleranceMs: number,
  now = Date.now(),
): VerifyResult {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature) return { ok: false, problem: 'missing webhook-id, webhook-timestamp or webhook-signature header' };
  if (id.length > 255) return { ok: false, problem: 'webhook-id longer than 255 characters' };
  if (!/^\d{1,12}$/.test(timestamp)) return { ok: false, problem: 'webhook-timestamp must be Unix seconds' };
  const ts = Number(timestamp);
  if (Math.abs(now - ts * 1000) > toleranceMs) return { ok: false, problem: 'webhook-timestamp outside the tolerance window' };
  const expected = Buffer.from(sign(secret, id, ts, body).slice(3), 'base64');
  for (const entry of signature.split(' ')) {
    const [version, value] = entry.split(',', 2);
    if (version !== 'v1' || !value) continue;
    const given = Buffer.from(value, 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) return { ok: true, id, timestamp: ts };
  }
  return { ok: false, problem: 'no valid v1 signature' };
}
