import { createHash, randomBytes } from 'node:crypto';

/**
 * Organization API keys: `loom_` + 32 random bytes (base64url). High entropy, so a plain SHA-256 is a safe
 * stored form (no salt or slow hash needed); lookups are by that hash.
 */
export const API_KEY_PREFIX = 'loom_';

export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, prefix: key.slice(0, 12), hash: hashToken(key) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Random single-use tokens (invitations). */
export function generateToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function looksLikeApiKey(value: string): boolean {
  return value.startsWith(API_KEY_PREFIX);
}
