import { randomBytes } from 'node:crypto';
import bcrypt from 'bcrypt';
import { BCRYPT_MAX_BYTES, normalizePassword } from '../../lib/auth/passwordPolicy';
import { createPasswordPool, type PasswordPool } from './passwordPool';

/**
 * bcrypt hashing with the configured cost. Passwords are NFKC-normalised, and a password longer than bcrypt's
 * 72 bytes never reaches bcrypt (which would silently compare only its first 72 bytes). The work runs in the
 * process's low-priority password workers (./passwordPool.ts), started on first use.
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

let sharedPool: PasswordPool | undefined;

/** One pool per process: it shares the process's cores, as libuv's thread pool would. */
function pool(): PasswordPool {
  return (sharedPool ??= createPasswordPool());
}

export function createPasswordHasher(cost: number): PasswordHasher {
  // Computed once per hasher, in the background, at the configured cost: ready before the first unknown e-mail.
  const dummyHash = pool().hash(randomBytes(16).toString('hex'), cost);
  dummyHash.catch(() => undefined);

  return {
    hash: (password) => pool().hash(normalizePassword(password), cost),
    async verify(password, hash) {
      const normalized = normalizePassword(password);
      if (Buffer.byteLength(normalized, 'utf8') > BCRYPT_MAX_BYTES) return false;
      if (!hash) {
        await pool().compare(normalized, await dummyHash);
        return false;
      }
      return pool().compare(normalized, hash);
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
