import { DEFAULT_MINIO_ACCESS_KEY, DEFAULT_MINIO_SECRET_KEY, spec } from './config/spec';
import { envKeys, envSchema, valuesOf, type Values } from './config/settings';
import { temporalTransport, TemporalTransportError } from './temporalTransport';

export type { PlanQuotas } from './config/spec';

/**
 * The whole configuration of the platform, read once from the environment at start-up, validated, and passed down.
 * Nothing else reads process.env. Each key is declared once, in its section of lib/config/keys/ (composed by lib/config/spec.ts), at its place in `Config`.
 */

/** Defaults that come from another section (written once, here). */
function withCrossDefaults(values: Values<typeof spec>) {
  const { http, content, organizations } = values;
  return {
    ...values,
    http: { ...http, publicUrl: http.publicUrl ?? `http://127.0.0.1:${http.port}` },
    content: {
      ...content,
      quotaBytes: {
        free: (content.quotaBytes.free ?? organizations.plans.free.storageBytes) || null,
        pro: (content.quotaBytes.pro ?? organizations.plans.pro.storageBytes) || null,
        enterprise: content.quotaBytes.enterprise,
      },
    },
  };
}

export type Config = ReturnType<typeof withCrossDefaults>;
/** Content storage, processing, embeddings and vectors (docs/content.md). */
export type ContentConfig = Config['content'];
/** Workflow triggers, events and outgoing webhooks (docs/triggers.md). */
export type TriggersConfig = Config['triggers'];

const schema = envSchema(spec);

/** Every environment variable the configuration reads, in spec order. */
export const CONFIG_KEYS: readonly string[] = envKeys(spec);

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "not set" so a copied .env.example with blank lines keeps the defaults.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration: ${lines.join('; ')}`);
  }
  const config = withCrossDefaults(valuesOf(spec, parsed.data));
  const productionProblems = config.env === 'production' ? productionRefusals(config) : [];
  if (productionProblems.length) throw new ConfigError(`invalid configuration: ${productionProblems.join('; ')}`);
  return config;
}

/**
 * Development conveniences that production mode refuses: secrets at rest derived from the JWT secret (rotating it
 * would make them unreadable, and one leaked value would open both), the object store's well-known credentials, and
 * the test billing provider.
 */
export function productionRefusals(config: Pick<Config, 'organizations' | 'minio'>): string[] {
  const problems: string[] = [];
  if (!config.organizations.encryptionKey) {
    problems.push('SERVICE_ENCRYPTION_KEY: required when NODE_ENV=production (at least 32 random characters)');
  }
  if (config.minio.accessKey === DEFAULT_MINIO_ACCESS_KEY || config.minio.secretKey === DEFAULT_MINIO_SECRET_KEY) {
    problems.push('MINIO_ACCESS_KEY/MINIO_SECRET_KEY: the default credentials are refused when NODE_ENV=production');
  }
  if (config.organizations.billingProvider === 'test') {
    problems.push('SERVICE_BILLING_PROVIDER: the test provider (payments that fail on demand) is refused when NODE_ENV=production');
  }
  return problems;
}

/** For process entry points: one clear line and exit code 2 on bad configuration, never a stack trace. */
export function loadConfigOrExit(processName: string, env: Record<string, string | undefined> = process.env): Config {
  try {
    const config = loadConfig(env);
    // The Temporal TLS files are read and checked now, so that a wrong one stops the process with its setting named.
    temporalTransport(config.temporal);
    return config;
  } catch (err) {
    if (err instanceof ConfigError || err instanceof TemporalTransportError) {
      console.error(`${processName}: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
}
