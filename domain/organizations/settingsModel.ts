import { randomUUID } from 'node:crypto';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { SECRET_NAME, SECRET_NAME_RULE } from '../../lib/dag/secretReferences';
import { isEncryptedSecret, maskSecret, type EncryptedSecret, type SecretBox } from '../../lib/secrets';
import { generateSigningSecret, signingSecretProblem } from '../../lib/triggers/standardWebhooks';
import { slugSchema } from './schemas';
import { hostRateLimitsSchema } from '../destinationLimits/schemas';
import type { HostRateLimit } from '../../lib/destinationLimits';

/**
 * The spec's three settings groups. Stored in `organizations.settings` (jsonb) except name and slug, which are
 * columns. Secrets are stored sealed (see lib/secrets.ts) and masked on every read. Reads merge the stored value
 * over the defaults, so an organization created before a field existed still answers with a sane value.
 */

// ---------- validation helpers ----------

const TIME_ZONES = new Set(Intl.supportedValuesOf('timeZone').concat(['UTC']));

export const timezoneSchema = z.string().refine((tz) => TIME_ZONES.has(tz), 'must be an IANA time zone such as Europe/Paris');

export const languageSchema = z
  .string()
  .max(35)
  .transform((tag, ctx) => {
    try {
      const [canonical] = Intl.getCanonicalLocales(tag);
      if (canonical) return canonical;
    } catch {
      // reported below
    }
    ctx.addIssue({ code: 'custom', message: 'must be a BCP 47 language tag such as en or pt-BR' });
    return z.NEVER;
  });

/** An IP address or a CIDR block, normalised (`10.0.0.1` → `10.0.0.1/32`). */
export const cidrSchema = z
  .string()
  .max(50)
  .transform((value, ctx) => {
    try {
      if (value.includes('/')) {
        const [addr, bits] = ipaddr.parseCIDR(value);
        return `${addr.toString()}/${bits}`;
      }
      const addr = ipaddr.parse(value);
      return `${addr.toString()}/${addr.kind() === 'ipv4' ? 32 : 128}`;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be an IP address or a CIDR block such as 203.0.113.0/24' });
      return z.NEVER;
    }
  });

const httpUrl = z.url({ protocol: /^https?$/ }).max(2048);
const eventName = z.string().regex(/^(\*|[a-z][a-z0-9_]*(\.([a-z][a-z0-9_]*|\*))*)$/, 'event names look like content.created or workflow.*');
/**
 * A secret as written, or the mask a read answered for it (`****` and up to its last four characters): a
 * read-modify-write sends the masks back, and a mask means "keep the stored secret" (see `resolveSecret`).
 */
const secretInput = z
  .string()
  .max(4096)
  .refine((v) => isSecretMask(v) || v.length >= 16, 'secrets are at least 16 characters (or the mask a read returned, to keep the stored one)');

/** What `maskSecret` answers: four asterisks and up to the secret's last four characters. Real secrets are longer. */
export function isSecretMask(value: string): boolean {
  return value.length <= 8 && value.startsWith('****');
}
const integrationName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,49}$/, 'lower-case letters, digits, - and _');

// ---------- update inputs (partial per group) ----------

export const generalUpdateSchema = z.strictObject({
  name: z.string().trim().min(1).max(255).optional(),
  slug: slugSchema.optional(),
  logoUrl: httpUrl.nullable().optional(),
  brandColor: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'a colour such as #1a2b3c').nullable().optional(),
  timezone: timezoneSchema.optional(),
  language: languageSchema.optional(),
});

export const securityUpdateSchema = z.strictObject({
  requireTwoFactor: z
    .boolean()
    .optional()
    .describe('members without two-factor sign-in are refused here (403 TWO_FACTOR_REQUIRED) until they enrol; API keys are not affected'),
  ipAllowlist: z.array(cidrSchema).max(100).optional().describe('empty = every address allowed'),
  sessionTimeoutMinutes: z.number().int().min(5).max(43_200).nullable().optional().describe(
    "minutes a session may stay unused while it acts in this organization (active organization or path); shortens the platform's idle timeout, never extends it; a refused session must log in again; null = the platform's",
  ),
  auditLogRetentionDays: z.number().int().min(1).max(3650).optional(),
});

/** Default overlap of a rotated outgoing-webhook secret: the previous one keeps signing for 24 hours. */
export const DEFAULT_SECRET_OVERLAP_MINUTES = 1440;

const webhookInput = z.strictObject({
  id: z.uuid().optional().describe('an existing endpoint to keep (its secret is kept unless a new one is given or rotateSecret is set)'),
  url: httpUrl,
  events: z.array(eventName).min(1).max(50),
  enabled: z.boolean().optional().default(true),
  secret: z
    .string()
    .max(4096)
    .optional()
    .describe('signing secret: whsec_ + base64 of 24-64 bytes (422 otherwise); left out on a new endpoint, one is generated and shown once'),
  rotateSecret: z.boolean().optional().describe('existing endpoint: generate a new secret (shown once in the answer)'),
  previousSecretOverlapMinutes: z
    .number()
    .int()
    .min(0)
    .max(10_080)
    .optional()
    .describe(`when the secret changes, minutes the previous one keeps signing alongside it (default ${DEFAULT_SECRET_OVERLAP_MINUTES}; 0 = at once)`),
});

const thirdPartyInput = z.strictObject({
  enabled: z.boolean().optional(),
  config: z.record(z.string().max(100), z.string().max(2048)).optional().describe('non-secret values, replaced as a whole'),
  secrets: z
    .record(z.string().max(100), secretInput.nullable())
    .optional()
    .describe('merged key by key: a string sets a value, null removes it'),
});

const ssoInput = z
  .strictObject({
    enabled: z.boolean(),
    protocol: z.enum(['oidc', 'saml']),
    oidc: z
      .strictObject({
        issuer: httpUrl,
        clientId: z.string().min(1).max(255),
        clientSecret: secretInput.optional().describe('kept when omitted; prefer clientSecretName'),
        clientSecretName: z
          .string()
          .regex(SECRET_NAME, SECRET_NAME_RULE)
          .nullable()
          .optional()
          .describe("name of the organization secret (PUT /api/v1/organizations/{id}/secrets/{name}) holding the client secret; used instead of clientSecret"),
        allowedEmailDomains: z
          .array(z.string().trim().toLowerCase().regex(/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'a domain such as example.com'))
          .max(50)
          .optional()
          .describe('e-mail domains allowed to sign in (the ID token\'s verified e-mail); empty = any'),
        defaultRole: z.enum(['admin', 'member', 'viewer']).optional().describe('role of a member created just in time (default member)'),
        jitProvisioning: z
          .boolean()
          .optional()
          .describe('create the account and the membership at the first sign-in (default false: only existing members may sign in)'),
      })
      .optional(),
    saml: z
      .strictObject({
        entityId: z.string().min(1).max(1024),
        ssoUrl: httpUrl,
        certificate: z.string().max(20_000).regex(/-----BEGIN CERTIFICATE-----/, 'a PEM certificate'),
      })
      .optional(),
  })
  .refine((s) => (s.protocol === 'oidc' ? !!s.oidc : !!s.saml), {
    message: 'the configuration of the chosen protocol is required',
  });

export const integrationUpdateSchema = z.strictObject({
  webhooks: z.array(webhookInput).max(20).optional().describe('replaces the list of endpoints'),
  thirdParty: z
    .record(integrationName, thirdPartyInput.nullable())
    .optional()
    .describe('per integration: an object updates it, null removes it'),
  sso: ssoInput.nullable().optional().describe('SSO configuration; OpenID Connect sign-in at GET /api/auth/sso/{slug}/authorize (docs/auth.md#single-sign-on-openid-connect)'),
  rateLimits: hostRateLimitsSchema
    .optional()
    .describe(
      'replaces the list: rate limits on destination hosts, shared by every run of the organization (docs/runs.md#rate-limits-on-destinations); one per host (with a port, for that port only)',
    ),
  apiKeys: z
    .strictObject({ href: z.string().max(2048) })
    .optional()
    .describe(
      'read-only: where the API keys are managed (their own endpoints). Accepted unchanged and ignored, so a read document can be sent back; a different value is refused (UNPROCESSABLE naming integration.apiKeys.href)',
    ),
});

export const settingsUpdateSchema = z
  .strictObject({
    general: generalUpdateSchema.optional(),
    security: securityUpdateSchema.optional(),
    integration: integrationUpdateSchema.optional(),
  })
  .refine((b) => b.general || b.security || b.integration, { message: 'give at least one group to update' });

export type SettingsUpdate = z.output<typeof settingsUpdateSchema>;

// ---------- stored shape ----------

export interface StoredWebhook {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  secret: EncryptedSecret;
  /** The secret before the last rotation, which deliveries also sign with until `expiresAt` (ISO time). */
  previousSecret?: { secret: EncryptedSecret; expiresAt: string } | null;
}

/** The secrets a delivery signs with at `now`: the current one, then the previous one during its overlap. */
export function signingSecretsOf(webhook: StoredWebhook, now: Date): EncryptedSecret[] {
  const previous = webhook.previousSecret;
  return previous && Date.parse(previous.expiresAt) > now.getTime() ? [webhook.secret, previous.secret] : [webhook.secret];
}

export interface StoredSettings {
  general: { logoUrl: string | null; brandColor: string | null; timezone: string; language: string };
  security: {
    requireTwoFactor: boolean;
    ipAllowlist: string[];
    sessionTimeoutMinutes: number | null;
    auditLogRetentionDays: number;
  };
  integration: {
    webhooks: StoredWebhook[];
    thirdParty: Record<string, { enabled: boolean; config: Record<string, string>; secrets: Record<string, EncryptedSecret> }>;
    /** Absent in documents stored before rate limits on destinations existed (read as none). */
    rateLimits: HostRateLimit[];
    sso: {
      enabled: boolean;
      protocol: 'oidc' | 'saml';
      oidc?: {
        issuer: string;
        clientId: string;
        clientSecret: EncryptedSecret | null;
        /** Absent in documents stored before SSO sign-in existed. */
        clientSecretName?: string | null;
        allowedEmailDomains?: string[];
        defaultRole?: 'admin' | 'member' | 'viewer';
        jitProvisioning?: boolean;
      };
      saml?: { entityId: string; ssoUrl: string; certificate: string };
    } | null;
  };
}

export const DEFAULT_AUDIT_RETENTION_DAYS = 365;

export function defaultSettings(): StoredSettings {
  return {
    general: { logoUrl: null, brandColor: null, timezone: 'UTC', language: 'en' },
    security: { requireTwoFactor: false, ipAllowlist: [], sessionTimeoutMinutes: null, auditLogRetentionDays: DEFAULT_AUDIT_RETENTION_DAYS },
    integration: { webhooks: [], thirdParty: {}, rateLimits: [], sso: null },
  };
}

/** Stored jsonb (possibly partial or `{}`) → complete settings. */
export function withDefaults(stored: unknown): StoredSettings {
  const s = (stored && typeof stored === 'object' ? stored : {}) as Partial<StoredSettings>;
  const d = defaultSettings();
  return {
    general: { ...d.general, ...(s.general ?? {}) },
    security: { ...d.security, ...(s.security ?? {}) },
    integration: { ...d.integration, ...(s.integration ?? {}) },
  };
}

// ---------- applying an update ----------

export class SettingsRuleError extends Error {
  constructor(readonly path: string, message: string) {
    super(message);
  }
}

/**
 * A secret field of an update: a mask (what a read answered) keeps the stored secret when it is that secret's mask,
 * and is refused otherwise (a mask never becomes a secret); anything else is a new secret, sealed.
 */
function resolveSecret(value: string, old: EncryptedSecret | null | undefined, path: string, box: SecretBox): EncryptedSecret {
  if (!isSecretMask(value)) return box.seal(value);
  if (old && maskSecret(old) === value) return old;
  throw new SettingsRuleError(
    path,
    old
      ? 'this mask is not the stored secret\'s: send the mask unchanged to keep the secret, or the new secret in clear'
      : 'a mask stands for a stored secret, and there is none here: send the secret in clear',
  );
}

/** A webhook signing secret this update generated, to be shown once in the answer. */
export interface GeneratedSecret {
  endpointId: string;
  secret: string;
}

/**
 * Applies a partial update (general's name/slug excluded: they are columns). Pure apart from sealing secrets and
 * generating webhook secrets, which are pushed to `generated` (their only plain-text appearance).
 */
export function applySettingsUpdate(
  current: StoredSettings,
  update: SettingsUpdate,
  box: SecretBox,
  options: { now?: Date; generated?: GeneratedSecret[] } = {},
): StoredSettings {
  const now = options.now ?? new Date();
  const next: StoredSettings = structuredClone(current);
  if (update.general) {
    const { name: _n, slug: _s, ...rest } = update.general;
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) (next.general as Record<string, unknown>)[k] = v;
  }
  if (update.security) {
    for (const [k, v] of Object.entries(update.security)) if (v !== undefined) (next.security as Record<string, unknown>)[k] = v;
    next.security.ipAllowlist = [...new Set(next.security.ipAllowlist)];
  }
  const integration = update.integration;
  if (integration?.webhooks) {
    const existing = new Map(current.integration.webhooks.map((w) => [w.id, w]));
    next.integration.webhooks = integration.webhooks.map((w, i) => {
      const old = w.id ? existing.get(w.id) : undefined;
      if (w.id && !old) throw new SettingsRuleError(`integration.webhooks.${i}.id`, 'no webhook endpoint with this id');
      const path = `integration.webhooks.${i}.secret`;
      if (w.secret !== undefined && w.rotateSecret) throw new SettingsRuleError(path, 'give a secret or rotateSecret, not both');
      // A mask sent back by a read-modify-write keeps the stored secret (resolveSecret refuses any other mask).
      const kept = w.secret !== undefined && isSecretMask(w.secret) ? resolveSecret(w.secret, old?.secret, path, box) : null;
      const problem = w.secret !== undefined && !kept ? signingSecretProblem(w.secret) : null;
      if (problem) throw new SettingsRuleError(path, `the signing secret ${problem}`);
      const id = old?.id ?? randomUUID();
      let plain = kept ? undefined : w.secret;
      if (plain === undefined && (!old || w.rotateSecret)) {
        plain = generateSigningSecret();
        options.generated?.push({ endpointId: id, secret: plain });
      }
      const base = { id, url: w.url, events: [...new Set(w.events)], enabled: w.enabled };
      if (plain === undefined) {
        // Secret kept: so is the previous one, while its overlap lasts.
        const previous = old!.previousSecret && Date.parse(old!.previousSecret.expiresAt) > now.getTime() ? old!.previousSecret : null;
        return { ...base, secret: old!.secret, previousSecret: previous };
      }
      const overlap = w.previousSecretOverlapMinutes ?? DEFAULT_SECRET_OVERLAP_MINUTES;
      return {
        ...base,
        secret: box.seal(plain),
        previousSecret: old && overlap > 0 ? { secret: old.secret, expiresAt: new Date(now.getTime() + overlap * 60_000).toISOString() } : null,
      };
    });
  }
  if (integration?.thirdParty) {
    for (const [name, value] of Object.entries(integration.thirdParty)) {
      if (value === null) {
        delete next.integration.thirdParty[name];
        continue;
      }
      const old = current.integration.thirdParty[name];
      const secrets = { ...(old?.secrets ?? {}) };
      for (const [key, secret] of Object.entries(value.secrets ?? {})) {
        if (secret === null) delete secrets[key];
        else secrets[key] = resolveSecret(secret, old?.secrets[key], `integration.thirdParty.${name}.secrets.${key}`, box);
      }
      next.integration.thirdParty[name] = {
        enabled: value.enabled ?? old?.enabled ?? true,
        config: value.config ?? old?.config ?? {},
        secrets,
      };
    }
  }
  if (integration?.rateLimits) next.integration.rateLimits = integration.rateLimits;
  if (integration && integration.sso !== undefined) {
    const sso = integration.sso;
    if (sso === null) next.integration.sso = null;
    else {
      const oldSecret = current.integration.sso?.oidc?.clientSecret ?? null;
      if (sso.protocol === 'oidc' && !sso.oidc!.clientSecret && !sso.oidc!.clientSecretName && !oldSecret) {
        throw new SettingsRuleError('integration.sso.oidc.clientSecretName', 'an OIDC client secret is required: name an organization secret (or give clientSecret)');
      }
      next.integration.sso = {
        enabled: sso.enabled,
        protocol: sso.protocol,
        ...(sso.oidc
          ? {
              oidc: {
                issuer: sso.oidc.issuer,
                clientId: sso.oidc.clientId,
                clientSecret: sso.oidc.clientSecret
                  ? resolveSecret(sso.oidc.clientSecret, oldSecret, 'integration.sso.oidc.clientSecret', box)
                  : oldSecret,
                clientSecretName: sso.oidc.clientSecretName ?? null,
                allowedEmailDomains: [...new Set(sso.oidc.allowedEmailDomains ?? [])],
                defaultRole: sso.oidc.defaultRole ?? 'member',
                jitProvisioning: sso.oidc.jitProvisioning ?? false,
              },
            }
          : {}),
        ...(sso.saml ? { saml: sso.saml } : {}),
      };
    }
  }
  return next;
}

/**
 * Turns one enabled webhook endpoint off, for the automatic disabling after a run of failed deliveries. Works on the
 * stored document as it is (defaults are not written into it); null when the endpoint is gone or already off.
 */
export function disableWebhook(stored: unknown, endpointId: string): { settings: unknown; webhook: StoredWebhook } | null {
  const settings = structuredClone((stored ?? {}) as { integration?: { webhooks?: StoredWebhook[] } });
  const webhook = settings.integration?.webhooks?.find((w) => w.id === endpointId);
  if (!webhook || !webhook.enabled) return null;
  webhook.enabled = false;
  return { settings, webhook };
}

// ---------- reading ----------

/** Replaces every sealed secret with its mask. */
export function maskStored<T>(value: T): T {
  if (isEncryptedSecret(value)) return maskSecret(value) as T;
  if (Array.isArray(value)) return value.map((v) => maskStored(v)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskStored(v)])) as T;
  }
  return value;
}

export function isIpAllowed(ip: string, allowlist: string[]): boolean {
  if (allowlist.length === 0) return true;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.process(ip);
  } catch {
    return false;
  }
  for (const cidr of allowlist) {
    try {
      const [range, bits] = ipaddr.parseCIDR(cidr);
      if (addr.kind() === range.kind() && addr.match([range, bits] as [typeof addr, number])) return true;
      // An IPv4 range also admits the IPv4-mapped IPv6 form (process() already unwraps those).
    } catch {
      // a stored value that no longer parses never admits anyone
    }
  }
  return false;
}
