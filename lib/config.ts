import { z } from 'zod';
import { parseDuration } from './duration';
import { parseRateRule, type RateRule } from './rateRule';

/**
 * The whole configuration of the platform, read once from the environment at start-up, validated,
 * and passed down. Nothing else reads process.env.
 */

const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'])
    .optional()
    .transform((v) => (v === undefined ? def : v === 'true' || v === '1' || v === 'yes'));

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
  z.coerce.number().int().min(min).max(max).optional().default(def);

const duration = (def: string) =>
  z
    .string()
    .optional()
    .default(def)
    .transform((v, ctx) => {
      try {
        return parseDuration(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    });

/** A rate limit written as `10/15m` (hits per window) or `off`. */
const rate = (def: string) =>
  z
    .string()
    .optional()
    .default(def)
    .transform((v, ctx) => {
      try {
        return parseRateRule(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    });

/** MinIO's well-known development credentials (scripts/up, docker-compose): refused in production mode. */
const DEFAULT_MINIO_ACCESS_KEY = 'loomadmin';
const DEFAULT_MINIO_SECRET_KEY = 'loomadmin-secret';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).optional().default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().default('info'),

  SERVICE_HOST: z.string().optional().default('127.0.0.1'),
  SERVICE_PORT: int(3000, 0, 65535),
  SERVICE_PUBLIC_URL: z.string().url().optional(),
  SERVICE_BODY_LIMIT_BYTES: int(1024 * 1024, 1024),
  SERVICE_TRUST_PROXY: bool(false),
  // Unset: /metrics is served on the public port. Set: on its own listener (SERVICE_METRICS_HOST), off the public one.
  SERVICE_METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  SERVICE_METRICS_HOST: z.string().optional().default('127.0.0.1'),
  SERVICE_METRICS_TOKEN: z.string().min(16, 'SERVICE_METRICS_TOKEN must be at least 16 characters').optional(),

  SERVICE_JWT_SECRET: z
    .string({ error: 'SERVICE_JWT_SECRET is required (at least 32 characters)' })
    .min(32, 'SERVICE_JWT_SECRET must be at least 32 characters'),
  SERVICE_JWT_ISSUER: z.string().min(1).optional().default('loom'),
  SERVICE_JWT_ACCESS_TOKEN_DURATION: duration('15m'),
  SERVICE_JWT_REFRESH_TOKEN_DURATION: duration('7d'),
  SERVICE_AUTH_PASSWORD_MIN_LENGTH: int(8, 1, 72),
  SERVICE_AUTH_PASSWORD_REQUIRE_UPPERCASE: bool(true),
  SERVICE_AUTH_PASSWORD_REQUIRE_NUMBERS: bool(true),
  SERVICE_AUTH_PASSWORD_REQUIRE_SYMBOLS: bool(true),
  SERVICE_AUTH_MAX_SESSIONS_PER_USER: int(5, 1, 1000),
  SERVICE_AUTH_SESSION_IDLE_TIMEOUT: duration('30m'),
  SERVICE_AUTH_BCRYPT_COST: int(10, 4, 15),
  SERVICE_AUTH_REFRESH_REUSE_GRACE: duration('0s'),
  SERVICE_AUTH_PASSWORD_RESET_TOKEN_DURATION: duration('1h'),
  SERVICE_AUTH_EMAIL_VERIFICATION_TOKEN_DURATION: duration('1h'),
  SERVICE_RATE_LIMIT_LOGIN_IP: rate('50/15m'),
  SERVICE_RATE_LIMIT_LOGIN_ACCOUNT: rate('10/15m'),
  SERVICE_RATE_LIMIT_LOGIN_ACCOUNT_IP: rate('10/15m'),
  SERVICE_RATE_LIMIT_REGISTER_IP: rate('20/1h'),
  SERVICE_RATE_LIMIT_REFRESH_IP: rate('300/15m'),
  SERVICE_RATE_LIMIT_REFRESH_ACCOUNT: rate('60/15m'),
  SERVICE_RATE_LIMIT_RESET_IP: rate('20/1h'),
  SERVICE_RATE_LIMIT_RESET_ACCOUNT: rate('5/1h'),
  SERVICE_MAX_ORGANIZATIONS_PER_USER: int(10, 1, 10000),
  SERVICE_ENCRYPTION_KEY: z.string().min(32, 'SERVICE_ENCRYPTION_KEY must be at least 32 characters').optional(),
  SERVICE_INVITATION_TTL: duration('7d'),
  SERVICE_USAGE_FLUSH_INTERVAL: duration('1s'),
  SERVICE_ORGANIZATION_EXPORT_TTL: duration('7d'),
  SERVICE_PLAN_FREE_MEMBERS: int(3, 1),
  SERVICE_PLAN_FREE_API_CALLS: int(1000, 0),
  SERVICE_PLAN_FREE_STORAGE_GB: int(10, 0),
  SERVICE_PLAN_PRO_MEMBERS: int(20, 1),
  SERVICE_PLAN_PRO_API_CALLS: int(50_000, 0),
  SERVICE_PLAN_PRO_STORAGE_GB: int(100, 0),

  DATABASE_URL: z.string().optional().default('postgres://postgres@127.0.0.1:5432/loom'),
  DATABASE_POOL_MAX: int(10, 1, 200),

  TEMPORAL_ADDRESS: z.string().optional().default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().optional().default('default'),
  TEMPORAL_TASK_QUEUE: z.string().optional().default('loom'),
  TEMPORAL_UI_URL: z.string().url().optional().default('http://127.0.0.1:8233'),
  TEMPORAL_WORKFLOW_BUNDLE: z.string().optional(),

  RUN_HEARTBEAT_TIMEOUT: duration('30s'),
  RUN_NODE_TIMEOUT: duration('5m'),
  RUN_LOOP_BATCH_SIZE: int(500, 1, 2000),
  RUN_MAX_CONCURRENT_NODES: int(200, 1, 1500),
  RUN_LARGE_OUTPUT_BYTES: int(256 * 1024, 1024, 1024 * 1024),
  RUN_START_RATE_LIMIT: rate('300/1m'),
  RUN_MAX_ACTIVE_PER_ORGANIZATION: int(100, 0, 100_000),

  WORKER_METRICS_HOST: z.string().optional().default('127.0.0.1'),
  WORKER_METRICS_PORT: int(9464, 0, 65535),
  WORKER_SDK_METRICS_PORT: int(9465, 0, 65535),
  WORKER_ENSURE_BACKGROUND_JOBS: bool(true),
  WORKER_MAX_CACHED_WORKFLOWS: z.coerce.number().int().min(0).max(100_000).optional(),
  WORKER_WORKFLOW_STACK_TRACES: bool(false),
  METRICS_REFRESH_INTERVAL: duration('15s'),

  MINIO_ENDPOINT: z.string().optional().default('127.0.0.1'),
  MINIO_PORT: int(9000, 1, 65535),
  MINIO_USE_SSL: bool(false),
  MINIO_ACCESS_KEY: z.string().optional().default(DEFAULT_MINIO_ACCESS_KEY),
  MINIO_SECRET_KEY: z.string().optional().default(DEFAULT_MINIO_SECRET_KEY),
  MINIO_BUCKET: z.string().optional().default('loom'),
  MINIO_REGION: z.string().optional().default('us-east-1'),

  SMTP_HOST: z.string().optional().default('127.0.0.1'),
  SMTP_PORT: int(1025, 1, 65535),
  MAIL_FROM: z.string().optional().default('Loom <no-reply@loom.local>'),

  CONTENT_MAX_UPLOAD_BYTES: int(512 * 1024 * 1024, 1),
  // Byte-exact overrides of the plans' storage quotas (SERVICE_PLAN_*_STORAGE_GB) for content; 0 = unlimited.
  CONTENT_QUOTA_FREE_BYTES: z.coerce.number().int().min(0).optional(),
  CONTENT_QUOTA_PRO_BYTES: z.coerce.number().int().min(0).optional(),
  CONTENT_QUOTA_ENTERPRISE_BYTES: z.coerce.number().int().min(0).optional(),
  CONTENT_PROCESS_ON_UPLOAD: bool(true),
  CONTENT_PROCESSING_MAX_BYTES: int(100 * 1024 * 1024, 1),
  CONTENT_PROCESSING_MAX_ATTEMPTS: int(3, 1, 20),
  CONTENT_CHUNK_SIZE: int(1000, 100, 100_000),
  CONTENT_CHUNK_OVERLAP: int(150, 0, 50_000),
  CONTENT_EMBEDDING_PROVIDER: z.enum(['lexical', 'openai', 'cohere']).optional().default('lexical'),
  CONTENT_EMBEDDING_BASE_URL: z.string().url().optional(),
  CONTENT_EMBEDDING_MODEL: z.string().optional(),
  CONTENT_EMBEDDING_DIMENSIONS: z.coerce.number().int().min(1).max(8192).optional(),
  CONTENT_EMBEDDING_API_KEY: z.string().optional(),
  CONTENT_VECTOR_URI: z.string().optional().default('.data/lancedb'),
  CONTENT_VECTOR_INDEX_THRESHOLD: int(50_000, 1),
  CONTENT_VECTOR_SCRATCH_DIR: z.string().optional().default('.data/lancedb-tmp'),

  TRIGGERS_WEBHOOK_MAX_BODY_BYTES: int(256 * 1024, 1024, 16 * 1024 * 1024),
  TRIGGERS_WEBHOOK_RATE_LIMIT: rate('60/1m'),
  TRIGGERS_WEBHOOK_TOLERANCE: duration('5m'),
  TRIGGERS_APPROVAL_TIMEOUT: duration('24h'),
  TRIGGERS_SCHEDULE_CATCHUP_WINDOW: duration('5m'),
  EVENTS_DISPATCH_INTERVAL: duration('1s'),
  EVENTS_DISPATCH_BATCH: int(100, 1, 1000),
  EVENTS_PUBLISH_RATE_LIMIT: rate('600/1m'),
  WEBHOOKS_MAX_ATTEMPTS: int(8, 1, 50),
  WEBHOOKS_RETRY_INITIAL_INTERVAL: duration('30s'),
  WEBHOOKS_RETRY_MAX_INTERVAL: duration('1h'),
  WEBHOOKS_TIMEOUT: duration('10s'),
  WEBHOOKS_DISABLE_AFTER_FAILURES: int(10, 1, 1000),
  WEBHOOKS_ALLOWED_PRIVATE_HOSTS: z.string().optional().default(''),

  // Workflow tools (docs/workflows.md)
  TOOLS_HTTP_TIMEOUT: duration('30s'),
  TOOLS_HTTP_MAX_RESPONSE_BYTES: int(5 * 1024 * 1024, 1024),
  TOOLS_HTTP_MAX_REDIRECTS: int(5, 0, 20),
  TOOLS_HTTP_ALLOWED_HOSTS: z.string().optional().default(''),
  OUTBOUND_PROTECTED_ENDPOINTS: z
    .string()
    .optional()
    .default('')
    .refine((v) => v.split(',').every((e) => !e.trim() || /^(\[[0-9a-fA-F:.]+\]|[^:\s/]+):\d{1,5}$/.test(e.trim())), 'a comma-separated list of host:port'),
  TOOLS_DB_STATEMENT_TIMEOUT: duration('10s'),
  TOOLS_DB_MAX_ROWS: int(1000, 1, 100_000),
  TOOLS_EMAIL_ALLOW_HTML: bool(false),
  TOOLS_EMAIL_DAILY_RECIPIENTS: int(200, 0, 1_000_000),
  SERVICE_LLM_BASE_URL: z.string().url().optional(),
  SERVICE_LLM_API_KEY: z.string().optional(),
  SERVICE_LLM_MODEL: z.string().optional(),
  SERVICE_LLM_EMBEDDING_MODEL: z.string().optional(),
  SERVICE_LLM_TIMEOUT: duration('60s'),
});

export type Env = z.input<typeof envSchema>;

const GIB = 1024 ** 3;

export interface Config {
  env: 'development' | 'test' | 'production';
  logLevel: string;
  http: { host: string; port: number; publicUrl: string; bodyLimitBytes: number; trustProxy: boolean };
  jwt: { secret: string; issuer: string; accessTtlMs: number; refreshTtlMs: number };
  auth: {
    passwordMinLength: number;
    passwordRequireUppercase: boolean;
    passwordRequireNumbers: boolean;
    passwordRequireSymbols: boolean;
    maxSessionsPerUser: number;
    sessionIdleTimeoutMs: number;
    bcryptCost: number;
    /** How long a just-rotated refresh token answers 401 without revoking its session (0 = strict reuse detection). */
    refreshReuseGraceMs: number;
    passwordResetTtlMs: number;
    emailVerificationTtlMs: number;
  };
  /** Abuse limits of the auth endpoints (null = off); see api/ratelimit. */
  rateLimits: Record<
    'loginIp' | 'loginAccount' | 'loginAccountIp' | 'registerIp' | 'refreshIp' | 'refreshAccount' | 'resetIp' | 'resetAccount',
    RateRule | null
  >;
  organizations: {
    maxPerUser: number;
    /** Key material for secrets at rest; null means "derive from the JWT secret" (logged as a warning). */
    encryptionKey: string | null;
    invitationTtlMs: number;
    usageFlushIntervalMs: number;
    /** How long the data export of a deleted organization (and its download link) lives; at most 7 days. */
    exportTtlMs: number;
    /** Quotas per plan; null = unlimited (enterprise). */
    plans: Record<'free' | 'pro' | 'enterprise', PlanQuotas>;
  };
  database: { url: string; poolMax: number };
  temporal: { address: string; namespace: string; taskQueue: string; uiUrl: string; workflowBundlePath?: string };
  /** Knobs of workflow runs (docs/runs.md); passed into each run's input so its history records them. */
  runs: {
    heartbeatTimeoutMs: number;
    defaultNodeTimeoutMs: number;
    loopBatchSize: number;
    maxConcurrentNodes: number;
    largeOutputBytes: number;
  };
  /**
   * Per-organization admission of runs started through the API (docs/runs.md#fairness); kept out of `runs`, which
   * travels in every run's input. Null = off.
   */
  runAdmission: { startRate: RateRule | null; maxActivePerOrganization: number | null };
  /** Prometheus endpoints (docs/operating.md). Port 0 disables an endpoint. */
  metrics: {
    workerHost: string;
    workerPort: number;
    workerSdkPort: number;
    refreshIntervalMs: number;
    /** The API's /metrics on its own listener (host, port), or null: served on the public port. */
    api: { host: string; port: number } | null;
    /** Bearer token that the API's /metrics requires, or null: no token asked. */
    apiToken: string | null;
  };
  /**
   * The worker creates the platform's schedules and the event dispatcher on its task queue at start.
   * `maxCachedWorkflows`: executions kept in the worker's sticky cache (undefined = the SDK's default, sized from the
   * heap; 0 = no cache, every workflow task replays the whole history, but the SDK then drops or retries in-flight
   * local activities, so runs stall until their workflow task times out).
   * `workflowStackTraces`: whether the SDK records a stack trace per workflow promise for the `__stack_trace`
   * query (worker/workflowStackTraces.ts); off by default, it costs 20–30% of the worker's CPU.
   */
  worker: { ensureBackgroundJobs: boolean; maxCachedWorkflows?: number; workflowStackTraces: boolean };
  minio: {
    endPoint: string;
    port: number;
    useSSL: boolean;
    accessKey: string;
    secretKey: string;
    bucket: string;
    region: string;
  };
  mail: { host: string; port: number; from: string };
  /** Extra platform services (host:port) that no tenant destination may reach (lib/net/platformEndpoints.ts). */
  outbound: { protectedEndpoints: string[] };
  /** Built-in workflow tools. */
  tools: {
    http: { timeoutMs: number; maxResponseBytes: number; maxRedirects: number; allowedHosts: string[] };
    db: { statementTimeoutMs: number; maxRows: number };
    /**
     * `email_send` through the platform's mailer: HTML bodies only when `allowHtml`; at most `dailyRecipients`
     * recipients per organization per rolling 24 hours (0 = the tool sends nothing).
     */
    email: { allowHtml: boolean; dailyRecipients: number };
    /** The global OpenAI-compatible endpoint; an organization may configure its own (integration `llm`). */
    llm: { baseUrl?: string; apiKey?: string; model?: string; embeddingModel?: string; timeoutMs: number };
  };
  content: ContentConfig;
  /** Workflow triggers, events and outgoing webhooks (docs/triggers.md). */
  triggers: TriggersConfig;
}

export interface TriggersConfig {
  webhookMaxBodyBytes: number;
  /** Default per-trigger limit of inbound webhook calls (a trigger's `rateLimit` overrides it). */
  webhookRateLimit: RateRule | null;
  webhookToleranceMs: number;
  defaultApprovalTimeoutMs: number;
  defaultCatchupWindowMs: number;
  dispatchIntervalMs: number;
  /** Custom events an organization may publish per window (each can start runs that no admission gate refuses). */
  publishRate: RateRule | null;
  dispatchBatch: number;
  delivery: {
    maxAttempts: number;
    initialIntervalMs: number;
    maxIntervalMs: number;
    timeoutMs: number;
    disableAfterFailures: number;
    /** Hosts, IPs or CIDRs that deliveries may reach although private/loopback (SSRF guard exceptions). */
    allowedPrivateHosts: string[];
  };
}

export interface PlanQuotas {
  members: number | null;
  apiCallsPerMonth: number | null;
  storageBytes: number | null;
}

/** Content storage, processing, embeddings and vectors (docs/content.md). */
export interface ContentConfig {
  maxUploadBytes: number;
  /** Storage quota by plan, in bytes (the plan's quota unless overridden); null = unlimited. */
  quotaBytes: Record<'free' | 'pro' | 'enterprise', number | null>;
  processOnUpload: boolean;
  processingMaxBytes: number;
  processingMaxAttempts: number;
  chunkSize: number;
  chunkOverlap: number;
  /** The global embedding provider; an organization may choose its own in integration settings. */
  embedding: {
    provider: 'lexical' | 'openai' | 'cohere';
    baseUrl?: string;
    model?: string;
    dimensions?: number;
    apiKey?: string;
  };
  /** LanceDB location: a local directory, or s3://bucket/path (then the MinIO credentials are used). */
  vectorUri: string;
  vectorIndexThreshold: number;
  vectorScratchDir: string;
}

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "not set" so a copied .env.example with blank lines keeps the defaults.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration: ${lines.join('; ')}`);
  }
  const e = parsed.data;
  const productionProblems = e.NODE_ENV === 'production' ? productionRefusals(e) : [];
  if (productionProblems.length) throw new ConfigError(`invalid configuration: ${productionProblems.join('; ')}`);
  return {
    env: e.NODE_ENV,
    logLevel: e.LOG_LEVEL,
    http: {
      host: e.SERVICE_HOST,
      port: e.SERVICE_PORT,
      publicUrl: e.SERVICE_PUBLIC_URL ?? `http://127.0.0.1:${e.SERVICE_PORT}`,
      bodyLimitBytes: e.SERVICE_BODY_LIMIT_BYTES,
      trustProxy: e.SERVICE_TRUST_PROXY,
    },
    jwt: {
      secret: e.SERVICE_JWT_SECRET,
      issuer: e.SERVICE_JWT_ISSUER,
      accessTtlMs: e.SERVICE_JWT_ACCESS_TOKEN_DURATION,
      refreshTtlMs: e.SERVICE_JWT_REFRESH_TOKEN_DURATION,
    },
    auth: {
      passwordMinLength: e.SERVICE_AUTH_PASSWORD_MIN_LENGTH,
      passwordRequireUppercase: e.SERVICE_AUTH_PASSWORD_REQUIRE_UPPERCASE,
      passwordRequireNumbers: e.SERVICE_AUTH_PASSWORD_REQUIRE_NUMBERS,
      passwordRequireSymbols: e.SERVICE_AUTH_PASSWORD_REQUIRE_SYMBOLS,
      maxSessionsPerUser: e.SERVICE_AUTH_MAX_SESSIONS_PER_USER,
      sessionIdleTimeoutMs: e.SERVICE_AUTH_SESSION_IDLE_TIMEOUT,
      bcryptCost: e.SERVICE_AUTH_BCRYPT_COST,
      refreshReuseGraceMs: e.SERVICE_AUTH_REFRESH_REUSE_GRACE,
      passwordResetTtlMs: e.SERVICE_AUTH_PASSWORD_RESET_TOKEN_DURATION,
      emailVerificationTtlMs: e.SERVICE_AUTH_EMAIL_VERIFICATION_TOKEN_DURATION,
    },
    rateLimits: {
      loginIp: e.SERVICE_RATE_LIMIT_LOGIN_IP,
      loginAccount: e.SERVICE_RATE_LIMIT_LOGIN_ACCOUNT,
      loginAccountIp: e.SERVICE_RATE_LIMIT_LOGIN_ACCOUNT_IP,
      registerIp: e.SERVICE_RATE_LIMIT_REGISTER_IP,
      refreshIp: e.SERVICE_RATE_LIMIT_REFRESH_IP,
      refreshAccount: e.SERVICE_RATE_LIMIT_REFRESH_ACCOUNT,
      resetIp: e.SERVICE_RATE_LIMIT_RESET_IP,
      resetAccount: e.SERVICE_RATE_LIMIT_RESET_ACCOUNT,
    },
    organizations: {
      maxPerUser: e.SERVICE_MAX_ORGANIZATIONS_PER_USER,
      encryptionKey: e.SERVICE_ENCRYPTION_KEY ?? null,
      invitationTtlMs: e.SERVICE_INVITATION_TTL,
      usageFlushIntervalMs: e.SERVICE_USAGE_FLUSH_INTERVAL,
      exportTtlMs: Math.min(e.SERVICE_ORGANIZATION_EXPORT_TTL, 7 * 86_400_000),
      plans: {
        free: {
          members: e.SERVICE_PLAN_FREE_MEMBERS,
          apiCallsPerMonth: e.SERVICE_PLAN_FREE_API_CALLS,
          storageBytes: e.SERVICE_PLAN_FREE_STORAGE_GB * GIB,
        },
        pro: {
          members: e.SERVICE_PLAN_PRO_MEMBERS,
          apiCallsPerMonth: e.SERVICE_PLAN_PRO_API_CALLS,
          storageBytes: e.SERVICE_PLAN_PRO_STORAGE_GB * GIB,
        },
        enterprise: { members: null, apiCallsPerMonth: null, storageBytes: null },
      },
    },
    database: { url: e.DATABASE_URL, poolMax: e.DATABASE_POOL_MAX },
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      uiUrl: e.TEMPORAL_UI_URL,
      workflowBundlePath: e.TEMPORAL_WORKFLOW_BUNDLE,
    },
    runs: {
      heartbeatTimeoutMs: e.RUN_HEARTBEAT_TIMEOUT,
      defaultNodeTimeoutMs: e.RUN_NODE_TIMEOUT,
      loopBatchSize: e.RUN_LOOP_BATCH_SIZE,
      maxConcurrentNodes: e.RUN_MAX_CONCURRENT_NODES,
      largeOutputBytes: e.RUN_LARGE_OUTPUT_BYTES,
    },
    runAdmission: {
      startRate: e.RUN_START_RATE_LIMIT,
      maxActivePerOrganization: e.RUN_MAX_ACTIVE_PER_ORGANIZATION || null,
    },
    minio: {
      endPoint: e.MINIO_ENDPOINT,
      port: e.MINIO_PORT,
      useSSL: e.MINIO_USE_SSL,
      accessKey: e.MINIO_ACCESS_KEY,
      secretKey: e.MINIO_SECRET_KEY,
      bucket: e.MINIO_BUCKET,
      region: e.MINIO_REGION,
    },
    mail: { host: e.SMTP_HOST, port: e.SMTP_PORT, from: e.MAIL_FROM },
    outbound: { protectedEndpoints: e.OUTBOUND_PROTECTED_ENDPOINTS.split(',').map((h) => h.trim()).filter(Boolean) },
    tools: {
      http: {
        timeoutMs: e.TOOLS_HTTP_TIMEOUT,
        maxResponseBytes: e.TOOLS_HTTP_MAX_RESPONSE_BYTES,
        maxRedirects: e.TOOLS_HTTP_MAX_REDIRECTS,
        allowedHosts: e.TOOLS_HTTP_ALLOWED_HOSTS.split(',').map((h) => h.trim()).filter(Boolean),
      },
      db: { statementTimeoutMs: e.TOOLS_DB_STATEMENT_TIMEOUT, maxRows: e.TOOLS_DB_MAX_ROWS },
      email: { allowHtml: e.TOOLS_EMAIL_ALLOW_HTML, dailyRecipients: e.TOOLS_EMAIL_DAILY_RECIPIENTS },
      llm: {
        baseUrl: e.SERVICE_LLM_BASE_URL,
        apiKey: e.SERVICE_LLM_API_KEY,
        model: e.SERVICE_LLM_MODEL,
        embeddingModel: e.SERVICE_LLM_EMBEDDING_MODEL,
        timeoutMs: e.SERVICE_LLM_TIMEOUT,
      },
    },
    metrics: {
      workerHost: e.WORKER_METRICS_HOST,
      workerPort: e.WORKER_METRICS_PORT,
      workerSdkPort: e.WORKER_SDK_METRICS_PORT,
      refreshIntervalMs: e.METRICS_REFRESH_INTERVAL,
      api: e.SERVICE_METRICS_PORT ? { host: e.SERVICE_METRICS_HOST, port: e.SERVICE_METRICS_PORT } : null,
      apiToken: e.SERVICE_METRICS_TOKEN ?? null,
    },
    worker: {
      ensureBackgroundJobs: e.WORKER_ENSURE_BACKGROUND_JOBS,
      maxCachedWorkflows: e.WORKER_MAX_CACHED_WORKFLOWS,
      workflowStackTraces: e.WORKER_WORKFLOW_STACK_TRACES,
    },
    content: {
      maxUploadBytes: e.CONTENT_MAX_UPLOAD_BYTES,
      quotaBytes: {
        free: (e.CONTENT_QUOTA_FREE_BYTES ?? e.SERVICE_PLAN_FREE_STORAGE_GB * GIB) || null,
        pro: (e.CONTENT_QUOTA_PRO_BYTES ?? e.SERVICE_PLAN_PRO_STORAGE_GB * GIB) || null,
        enterprise: e.CONTENT_QUOTA_ENTERPRISE_BYTES || null,
      },
      processOnUpload: e.CONTENT_PROCESS_ON_UPLOAD,
      processingMaxBytes: e.CONTENT_PROCESSING_MAX_BYTES,
      processingMaxAttempts: e.CONTENT_PROCESSING_MAX_ATTEMPTS,
      chunkSize: e.CONTENT_CHUNK_SIZE,
      chunkOverlap: e.CONTENT_CHUNK_OVERLAP,
      embedding: {
        provider: e.CONTENT_EMBEDDING_PROVIDER,
        baseUrl: e.CONTENT_EMBEDDING_BASE_URL,
        model: e.CONTENT_EMBEDDING_MODEL,
        dimensions: e.CONTENT_EMBEDDING_DIMENSIONS,
        apiKey: e.CONTENT_EMBEDDING_API_KEY,
      },
      vectorUri: e.CONTENT_VECTOR_URI,
      vectorIndexThreshold: e.CONTENT_VECTOR_INDEX_THRESHOLD,
      vectorScratchDir: e.CONTENT_VECTOR_SCRATCH_DIR,
    },
    triggers: {
      webhookMaxBodyBytes: e.TRIGGERS_WEBHOOK_MAX_BODY_BYTES,
      webhookRateLimit: e.TRIGGERS_WEBHOOK_RATE_LIMIT,
      webhookToleranceMs: e.TRIGGERS_WEBHOOK_TOLERANCE,
      defaultApprovalTimeoutMs: e.TRIGGERS_APPROVAL_TIMEOUT,
      defaultCatchupWindowMs: e.TRIGGERS_SCHEDULE_CATCHUP_WINDOW,
      dispatchIntervalMs: e.EVENTS_DISPATCH_INTERVAL,
      dispatchBatch: e.EVENTS_DISPATCH_BATCH,
      publishRate: e.EVENTS_PUBLISH_RATE_LIMIT,
      delivery: {
        maxAttempts: e.WEBHOOKS_MAX_ATTEMPTS,
        initialIntervalMs: e.WEBHOOKS_RETRY_INITIAL_INTERVAL,
        maxIntervalMs: e.WEBHOOKS_RETRY_MAX_INTERVAL,
        timeoutMs: e.WEBHOOKS_TIMEOUT,
        disableAfterFailures: e.WEBHOOKS_DISABLE_AFTER_FAILURES,
        allowedPrivateHosts: e.WEBHOOKS_ALLOWED_PRIVATE_HOSTS.split(',').map((h) => h.trim()).filter(Boolean),
      },
    },
  };
}

/**
 * Development conveniences that production mode refuses: secrets at rest derived from the JWT secret (rotating it
 * would make them unreadable, and one leaked value would open both), and the object store's well-known credentials.
 */
function productionRefusals(e: z.output<typeof envSchema>): string[] {
  const problems: string[] = [];
  if (!e.SERVICE_ENCRYPTION_KEY) {
    problems.push('SERVICE_ENCRYPTION_KEY: required when NODE_ENV=production (at least 32 random characters)');
  }
  if (e.MINIO_ACCESS_KEY === DEFAULT_MINIO_ACCESS_KEY || e.MINIO_SECRET_KEY === DEFAULT_MINIO_SECRET_KEY) {
    problems.push('MINIO_ACCESS_KEY/MINIO_SECRET_KEY: the default credentials are refused when NODE_ENV=production');
  }
  return problems;
}

/** For process entry points: one clear line and exit code 2 on bad configuration, never a stack trace. */
export function loadConfigOrExit(processName: string, env: Record<string, string | undefined> = process.env): Config {
  try {
    return loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`${processName}: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
}
