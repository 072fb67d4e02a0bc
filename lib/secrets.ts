import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (integration credentials, webhook signing secrets, SSO client secrets): AES-256-GCM with a
 * random 96-bit IV per value. The key is derived with HKDF-SHA256 from SERVICE_ENCRYPTION_KEY, or, when that is
 * not configured, from SERVICE_JWT_SECRET under a different label (callers log a warning: rotating the JWT secret
 * then makes stored secrets unreadable).
 */
export interface EncryptedSecret {
  /** `v1:<base64url iv|tag|ciphertext>` */
  enc: string;
  /** Last characters of the plain value, so a masked read can still tell values apart. */
  last4: string;
}

export interface SecretBox {
  /** True when the key comes from SERVICE_ENCRYPTION_KEY rather than the JWT secret. */
  dedicatedKey: boolean;
  /**
   * `context` (optional) is bound to the ciphertext as GCM additional data: the value opens only with the same
   * context (e.g. `organization_secret:<organization id>:<name>`), so a sealed value copied to another row fails.
   */
  seal(plain: string, context?: string): EncryptedSecret;
  open(secret: EncryptedSecret, context?: string): string;
}

const VERSION = 'v1';

export function deriveKey(material: string, label: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(material, 'utf8'), Buffer.alloc(0), label, 32));
}

export function createSecretBox(options: { encryptionKey: string | null; jwtSecret: string }): SecretBox {
  const key = options.encryptionKey
    ? deriveKey(options.encryptionKey, 'loom/secrets-at-rest')
    : deriveKey(options.jwtSecret, 'loom/secrets-at-rest/from-jwt-secret');
  return {
    dedicatedKey: options.encryptionKey !== null,
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      if (context !== undefined) cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const packed = Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
      return { enc: `${VERSION}:${packed}`, last4: plain.length >= 12 ? plain.slice(-4) : '' };
    },
    open(secret, context) {
      const [version, packed] = secret.enc.split(':');
      if (version !== VERSION || !packed) throw new Error('unknown secret format');
      const raw = Buffer.from(packed, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      if (context !== undefined) decipher.setAAD(Buffer.from(context, 'utf8'));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

export function isEncryptedSecret(value: unknown): value is EncryptedSecret {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as EncryptedSecret).enc === 'string' &&
    typeof (value as EncryptedSecret).last4 === 'string'
  );
}

/** What a read shows instead of the secret. */
export function maskSecret(secret: EncryptedSecret): string {
  return secret.last4 ? `****${secret.last4}` : '****';
}
