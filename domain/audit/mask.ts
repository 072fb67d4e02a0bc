import { isEncryptedSecret, maskSecret } from '../../lib/secrets';

/**
 * Audit entries never hold a secret: values under secret-looking keys and encrypted secrets are masked before an
 * entry is written, whatever the caller passed.
 */
const SECRET_KEY = /(secret|password|token|credential|private|apikey|api_key|signing)/i;
export const MASK = '[masked]';

export function maskSecrets(value: unknown, depth = 0): unknown {
  if (depth > 20) return MASK;
  if (isEncryptedSecret(value)) return maskSecret(value);
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = SECRET_KEY.test(key) && v !== null && v !== undefined && typeof v !== 'boolean' ? MASK : maskSecrets(v, depth + 1);
    }
    return out;
  }
  return value;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

/** Keeps only what changed between two snapshots (objects compared key by key, anything else as a whole). */
export function diffSnapshots(before: unknown, after: unknown): { before: unknown; after: unknown } | null {
  if (isPlainObject(before) && isPlainObject(after)) {
    const b: Record<string, unknown> = {};
    const a: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const d = diffSnapshots(before[key], after[key]);
      if (d) {
        if (d.before !== undefined) b[key] = d.before;
        if (d.after !== undefined) a[key] = d.after;
      }
    }
    return Object.keys(a).length || Object.keys(b).length ? { before: b, after: a } : null;
  }
  return JSON.stringify(before) === JSON.stringify(after) ? null : { before, after };
}
