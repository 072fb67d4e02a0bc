import { z } from 'zod';
import { duration, gibibytes, int, list, orNull, rate } from '../schemas';
import { combined, fixed, setting } from '../settings';

export interface PlanQuotas {
  members: number | null;
  apiCallsPerMonth: number | null;
  storageBytes: number | null;
}

const plan = (quotas: PlanQuotas): PlanQuotas => quotas;

export const organizations = {
  maxPerUser: setting('SERVICE_MAX_ORGANIZATIONS_PER_USER', int(10, 1, 10000), { meaning: 'organizations a user may belong to', example: '10' }),
  /** Key material for secrets at rest; null means "derive from the JWT secret" (logged as a warning). */
  encryptionKey: setting(
    'SERVICE_ENCRYPTION_KEY',
    z.string().min(32, 'SERVICE_ENCRYPTION_KEY must be at least 32 characters').optional().transform(orNull),
    {
      meaning: '>= 32 chars; AES-256-GCM key material for integration secrets at rest. **Required when `NODE_ENV=production`** (start-up fails naming it): rotating the JWT secret would otherwise make stored secrets unreadable',
      default: '(derived from `SERVICE_JWT_SECRET`, with a warning)',
      note: 'Organizations: secrets at rest (AES-256-GCM; at least 32 characters; when empty a key is derived from SERVICE_JWT_SECRET and a warning is logged; required when NODE_ENV=production), invitation lifetime, API-call counter flush, plan quotas',
    },
  ),
  invitationTtlMs: setting('SERVICE_INVITATION_TTL', duration('7d'), { meaning: 'invitation token lifetime', example: '7d' }),
  /**
   * Invitation mail (docs/organizations.md#invitations): resends of one invitation per window and per day, and all
   * invitation mail (new and resent) of one organization; 429 RATE_LIMITED with Retry-After beyond, `off` disables.
   */
  invitationResendRate: setting('SERVICE_INVITATION_RESEND_RATE_LIMIT', rate('1/1m'), {
    meaning: 'resends of one invitation (`off` disables); 429 RATE_LIMITED beyond',
    example: '1/1m',
  }),
  invitationResendDailyRate: setting('SERVICE_INVITATION_RESEND_DAILY_LIMIT', rate('5/1d'), {
    meaning: 'resends of one invitation per day (`off` disables)',
    example: '5/1d',
  }),
  invitationMailRate: setting('SERVICE_INVITATION_MAIL_RATE_LIMIT', rate('100/1d'), {
    meaning: 'invitation mails (new and resent) per organization (`off` disables)',
    example: '100/1d',
  }),
  usageFlushIntervalMs: setting('SERVICE_USAGE_FLUSH_INTERVAL', duration('1s'), {
    meaning: 'API-call counters are flushed to PostgreSQL this often',
    example: '1s',
  }),
  /**
   * Who charges the plans (domain/billing): `local` records subscriptions and charges nobody; `test` simulates a
   * card processor whose payments fail on demand (tests only: refused when NODE_ENV=production).
   */
  billingProvider: setting('SERVICE_BILLING_PROVIDER', z.enum(['local', 'test']).optional().default('local'), {
    meaning: 'who charges the plans: `local` records subscriptions and charges nobody; `test` simulates payments that fail on demand (tests only; **refused when `NODE_ENV=production`**; docs/organizations.md#billing)',
    example: 'local',
    note: 'Billing provider: local (records subscriptions, charges nobody) or test (payments fail on demand; tests only, refused when NODE_ENV=production)',
  }),
  /** How long the data export of a deleted organization (and its download link) lives; at most 7 days. */
  exportTtlMs: setting('SERVICE_ORGANIZATION_EXPORT_TTL', duration('7d').transform((ms) => Math.min(ms, 7 * 86_400_000)), {
    meaning: 'lifetime (max 7d) of an organization\'s data export (on deletion, or on demand) and its link; a workflow removes it afterwards',
    example: '7d',
    note: 'Data export of a deleted organization: link and object lifetime (max 7d, the presigned-URL limit)',
  }),
  /** The largest organization archive POST /organizations/{id}/imports accepts (streamed to object storage first). */
  importMaxBytes: setting('SERVICE_ORGANIZATION_IMPORT_MAX_BYTES', int(10 * 1024 ** 3, 1), {
    meaning: 'the largest organization archive an import accepts (413 past it; docs/organizations.md#export-and-import)',
    example: '10737418240',
  }),
  /**
   * DNS servers (`host` or `host:port`, comma-separated) asked for the TXT record that proves an organization owns
   * an e-mail domain (docs/organizations.md#verified-domains); empty = the system's resolver.
   */
  domainVerificationDnsServers: setting('SERVICE_DOMAIN_VERIFICATION_DNS_SERVERS', list(), {
    meaning: 'DNS servers (`host` or `host:port`, comma-separated) asked for the `_loom-verification.<domain>` TXT record that proves an organization owns an e-mail domain ([docs/organizations.md](docs/organizations.md#verified-domains))',
    default: 'empty (the system\'s resolver)',
    note: 'DNS servers asked for the TXT proof of an organization\'s e-mail domain (empty: the system\'s resolver)',
  }),
  /** Quotas per plan; null = unlimited (enterprise). */
  plans: {
    free: combined(
      {
        members: setting('SERVICE_PLAN_FREE_MEMBERS', int(3, 1), {
          meaning: 'free plan quotas (members include pending invitations; API calls per calendar month)',
          example: '3',
        }),
        apiCallsPerMonth: setting('SERVICE_PLAN_FREE_API_CALLS', int(1000, 0), {
          meaning: 'free plan quotas (members include pending invitations; API calls per calendar month)',
          example: '1000',
        }),
        storageBytes: setting('SERVICE_PLAN_FREE_STORAGE_GB', gibibytes(10), {
          meaning: 'free plan quotas (members include pending invitations; API calls per calendar month)',
          example: '10',
        }),
      },
      plan,
    ),
    pro: combined(
      {
        members: setting('SERVICE_PLAN_PRO_MEMBERS', int(20, 1), { meaning: 'pro plan quotas (enterprise: unlimited)', example: '20' }),
        apiCallsPerMonth: setting('SERVICE_PLAN_PRO_API_CALLS', int(50_000, 0), {
          meaning: 'pro plan quotas (enterprise: unlimited)',
          example: '50000',
        }),
        storageBytes: setting('SERVICE_PLAN_PRO_STORAGE_GB', gibibytes(100), {
          meaning: 'pro plan quotas (enterprise: unlimited)',
          example: '100',
        }),
      },
      plan,
    ),
    enterprise: fixed(plan({ members: null, apiCallsPerMonth: null, storageBytes: null })),
  },
};
