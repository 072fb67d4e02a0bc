import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Standard Webhooks (https://www.standardwebhooks.com): headers `webhook-id`, `webhook-timestamp` (Unix seconds)
 * and `webhook-signature` (space-separated `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`). Used both to
 * verify inbound webhook triggers and to sign outgoing deliveries.
 *
 * Secrets: `whsec_<base64>` secrets use the decoded bytes as the HMAC key (the standard's format); any other string
 * (e.g. an organization's hand-written endpoint secret) is used as UTF-8 bytes.
 */
export const SECRET_PREFIX = 'whsec_';

export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64');
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

export function signatureHeaders(secret: string, id: string, body: string | Buffer, now = new Date()): Record<string, string> {
  const ts = Math.floor(now.getTime() / 1000);
  return { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': sign(secret, id, ts, body) };
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
