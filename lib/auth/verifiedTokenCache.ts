/**
 * Claims of tokens that already passed signature verification, keyed by the exact token string. Whether a string
 * carries a valid MAC under the process's key never changes, so a busy client's repeated token is verified once;
 * expiry does change, so every hit checks `exp` again, and an expired entry is dropped and reported as a miss (the
 * caller's full verification then answers with the right error). Only genuine tokens are ever stored, so forged
 * ones cannot fill it; the size is bounded, evicting the oldest entry first.
 *
 * Revocation is not the cache's concern: the session behind a token is still checked on every request.
 */
export interface VerifiedTokenCache<Claims extends { exp: number }> {
  get(token: string, nowSeconds: number): Claims | undefined;
  set(token: string, claims: Claims): void;
  readonly size: number;
}

export function createVerifiedTokenCache<Claims extends { exp: number }>(maxEntries: number): VerifiedTokenCache<Claims> {
  if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new Error('maxEntries must be a positive integer');
  const entries = new Map<string, Claims>();
  return {
    get(token, nowSeconds) {
      const claims = entries.get(token);
      if (claims === undefined) return undefined;
      if (claims.exp <= nowSeconds) {
        entries.delete(token);
        return undefined;
      }
      return claims;
    },
    set(token, claims) {
      if (entries.has(token)) return;
      if (entries.size >= maxEntries) {
        // Maps iterate in insertion order: the first key is the oldest entry.
        const oldest = entries.keys().next();
        if (!oldest.done) entries.delete(oldest.value);
      }
      entries.set(token, Object.freeze(claims));
    },
    get size() {
      return entries.size;
    },
  };
}
