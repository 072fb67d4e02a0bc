import { randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';
import { BCRYPT_MAX_BYTES, normalizePassword } from '../../lib/auth/passwordPolicy';

/**
 * bcrypt hashing with the configured cost. Passwords are NFKC-normalised, and a password longer than bcrypt's
 * 72 bytes never reaches bcrypt (which would silently compare only its first 72 bytes).
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /**
   * Compares against `hash`, or against a dummy hash of the same cost when there is none (unknown e-mail), so
   * both cases take the same time. Returns false for an over-long password without hashing.
   */
  verify(password: string, hash: string | null | undefined): Promise<boolean>;
  /** True when the hash was made with another cost than the configured one (rehash on the next login). */
  needsRehash(hash: string): boolean;
}

export function createPasswordHasher(cost: number): PasswordHasher {
  // Computed once per process, in the background, at the configured cost.
  const dummyHash = bcrypt.hash(randomBytes(16).toString('hex'), cost);
  dummyHash.catch(() => undefined);

  return {
    hash: (password) => bcrypt.hash(normalizePassword(password), cost),
    async verify(password, hash) {
      const normalized = normalizePassword(password);
      if (Buffer.byteLength(normalized, 'utf8') > BCRYPT_MAX_BYTES) return false;
      if (!hash) {
        await bcrypt.compare(normalized, await dummyHash);
        return false;
      }
      return bcrypt.compare(normalized, hash);
    },
    needsRehash(hash) {
      try {
        return bcrypt.getRounds(hash) !== cost;
      } catch {
        return false;
      }
    },
  };
}
