/**
 * Bounds audit entries that an attacker can cause at will (403s, a revoked key presented again and again): at most
 * one entry per key (e.g. actor + route) per window, per process. Memory is bounded too: past `maxKeys` the oldest
 * keys are forgotten, which at worst lets one more entry through for them. With N API instances an attacker gets
 * at most N entries per key and window.
 */
export interface AuditThrottle {
  /** True when an entry for `key` may be written now (and counts it). */
  allow(key: string, nowMs?: number): boolean;
}

export function createAuditThrottle(options: { windowMs: number; maxKeys: number }): AuditThrottle {
  // Insertion order is age order: a key is re-inserted when it is allowed again.
  const lastAllowed = new Map<string, number>();
  return {
    allow(key, nowMs = Date.now()) {
      const last = lastAllowed.get(key);
      if (last !== undefined && nowMs - last < options.windowMs) return false;
      lastAllowed.delete(key);
      lastAllowed.set(key, nowMs);
      while (lastAllowed.size > options.maxKeys) {
        const oldest = lastAllowed.keys().next().value;
        if (oldest === undefined) break;
        lastAllowed.delete(oldest);
      }
      return true;
    },
  };
}
