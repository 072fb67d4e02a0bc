import { z } from 'zod';
import { bool, duration, int, list, optionalInt, optionalText, rate, splitList, text, url } from './schemas';
import { combined, fixed, setting } from './settings';

/**
 * Every configuration key, once: its environment variable, schema and default, at the place its value takes in
 * `Config` (lib/config.ts), with the field's doc comment. Add a key here, to `.env.example` and to the README table
 * (test/unit/configKeys.test.ts checks both).
 */

/** MinIO's well-known development credentials (scripts/up, docker-compose): refused in production mode. */
export const DEFAULT_MINIO_ACCESS_KEY = 'loomadmin';
export const DEFAULT_MINIO_SECRET_KEY = 'loomadmin-secret';

const GIB = 1024 ** 3;
const gibibytes = (def: number) => int(def, 0).transform((gb) => gb * GIB);
const orNull = <T>(value: T | undefined): T | null => value ?? null;

export interface PlanQuotas {
  members: number | null;
  apiCallsPerMonth: number | null;
  storageBytes: number | null;
}

const plan = (quotas: PlanQuotas): PlanQuotas => quotas;

export const spec = {
  env: setting('NODE_ENV', z.enum(['development', 'test', 'production']).optional().default('development')),
  logLevel: setting('LOG_LEVEL', z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().default('info')),
  http: {
    host: setting('SERVICE_HOST', text('127.0.0.1')),
    port: setting('SERVICE_PORT', int(3000, 0, 65535)),
    /** The API's public base URL; unset: `http://127.0.0.1:<port>` (lib/config.ts). */
    publicUrl: setting('SERVICE_PUBLIC_URL', url()),
    /**
     * A client application's base URL: when set, e-mailed links open its pages (`<app>/invitations/accept?token=`,
     * `/verify-email?token=`, `/reset-password?token=`) instead of the API's own (docs/auth.md#links-in-e-mails).
     */
    appUrl: setting(
      'SERVICE_APP_URL',
      z
        .string()
        .refine((v) => {
          try {
            const u = new URL(v);
            return (u.protocol === 'https:' || u.protocol === 'http:') && !u.search && !u.hash && !u.username && !u.password;
          } catch {
            return false;
          }
        }, 'SERVICE_APP_URL must be an http(s) URL without credentials, query or fragment')
        .transform((v) => v.replace(/\/+$/, ''))
        .optional(),
    ),
    bodyLimitBytes: setting('SERVICE_BODY_LIMIT_BYTES', int(1024 * 1024, 1024)),
    trustProxy: setting('SERVICE_TRUST_PROXY', bool(false)),
    /**
     * Write requests (POST, PUT, PATCH, DELETE) one organization runs at once in this API process (on account routes,
     * one user); more wait in its queue, at most `writeQueue` of them for `writeQueueTimeoutMs`, then 429
     * RATE_LIMITED with Retry-After for that organization alone. Kept well below DATABASE_POOL_MAX, so one tenant's
     * burst leaves the database pool to the others (docs/operating.md#database-pool-and-mail).
     */
    writeConcurrency: setting('SERVICE_WRITE_CONCURRENCY_PER_ORGANIZATION', int(3, 1, 200)),
    writeQueue: setting('SERVICE_WRITE_QUEUE_PER_ORGANIZATION', int(200, 0, 100_000)),
    writeQueueTimeoutMs: setting('SERVICE_WRITE_QUEUE_TIMEOUT', duration('15s')),
  },
  jwt: {
    secret: setting(
      'SERVICE_JWT_SECRET',
      z.string({ error: 'SERVICE_JWT_SECRET is required (at least 32 characters)' }).min(32, 'SERVICE_JWT_SECRET must be at least 32 characters'),
    ),
    issuer: setting('SERVICE_JWT_ISSUER', z.string().min(1).optional().default('loom')),
    accessTtlMs: setting('SERVICE_JWT_ACCESS_TOKEN_DURATION', duration('15m')),
    refreshTtlMs: setting('SERVICE_JWT_REFRESH_TOKEN_DURATION', duration('7d')),
  },
  auth: {
    passwordMinLength: setting('SERVICE_AUTH_PASSWORD_MIN_LENGTH', int(8, 1, 72)),
    passwordRequireUppercase: setting('SERVICE_AUTH_PASSWORD_REQUIRE_UPPERCASE', bool(true)),
    passwordRequireNumbers: setting('SERVICE_AUTH_PASSWORD_REQUIRE_NUMBERS', bool(true)),
    passwordRequireSymbols: setting('SERVICE_AUTH_PASSWORD_REQUIRE_SYMBOLS', bool(true)),
    maxSessionsPerUser: setting('SERVICE_AUTH_MAX_SESSIONS_PER_USER', int(5, 1, 1000)),
    sessionIdleTimeoutMs: setting('SERVICE_AUTH_SESSION_IDLE_TIMEOUT', duration('30m')),
    bcryptCost: setting('SERVICE_AUTH_BCRYPT_COST', int(10, 4, 15)),
    /**
     * How long after a rotation the spent refresh token is answered with the same successor (a client racing itself)
     * instead of revoking its session; 0 = strict (any reuse revokes).
     */
    refreshReuseGraceMs: setting('SERVICE_AUTH_REFRESH_REUSE_GRACE', duration('10s')),
    /**
     * Longest time an API process serves a session check or an organization access check from memory
     * (docs/auth.md#session-check, #access-check); changes evict them at once through PostgreSQL notices, this
     * bounds a missed one. 0 = read both on every request.
     */
    sessionCacheTtlMs: setting('SERVICE_AUTH_SESSION_CACHE_TTL', duration('5s')),
    passwordResetTtlMs: setting('SERVICE_AUTH_PASSWORD_RESET_TOKEN_DURATION', duration('1h')),
    emailVerificationTtlMs: setting('SERVICE_AUTH_EMAIL_VERIFICATION_TOKEN_DURATION', duration('1h')),
  },
  /** Abuse limits of the auth endpoints (null = off); see api/ratelimit. */
  rateLimits: {
    loginIp: setting('SERVICE_RATE_LIMIT_LOGIN_IP', rate('50/15m')),
    loginAccount: setting('SERVICE_RATE_LIMIT_LOGIN_ACCOUNT', rate('10/15m')),
    loginAccountIp: setting('SERVICE_RATE_LIMIT_LOGIN_ACCOUNT_IP', rate('10/15m')),
    registerIp: setting('SERVICE_RATE_LIMIT_REGISTER_IP', rate('20/1h')),
    refreshIp: setting('SERVICE_RATE_LIMIT_REFRESH_IP', rate('300/15m')),
    refreshAccount: setting('SERVICE_RATE_LIMIT_REFRESH_ACCOUNT', rate('60/15m')),
    resetIp: setting('SERVICE_RATE_LIMIT_RESET_IP', rate('20/1h')),
    resetAccount: setting('SERVICE_RATE_LIMIT_RESET_ACCOUNT', rate('5/1h')),
    /** Two-factor code checks per account (sign-in step, enrolment, disabling); every check counts. */
    twoFactorAccount: setting('SERVICE_RATE_LIMIT_TWO_FACTOR_ACCOUNT', rate('10/15m')),
  },
  organizations: {
    maxPerUser: setting('SERVICE_MAX_ORGANIZATIONS_PER_USER', int(10, 1, 10000)),
    /** Key material for secrets at rest; null means "derive from the JWT secret" (logged as a warning). */
    encryptionKey: setting(
      'SERVICE_ENCRYPTION_KEY',
      z.string().min(32, 'SERVICE_ENCRYPTION_KEY must be at least 32 characters').optional().transform(orNull),
    ),
    invitationTtlMs: setting('SERVICE_INVITATION_TTL', duration('7d')),
    /**
     * Invitation mail (docs/organizations.md#invitations): resends of one invitation per window and per day, and all
     * invitation mail (new and resent) of one organization; 429 RATE_LIMITED with Retry-After beyond, `off` disables.
     */
    invitationResendRate: setting('SERVICE_INVITATION_RESEND_RATE_LIMIT', rate('1/1m')),
    invitationResendDailyRate: setting('SERVICE_INVITATION_RESEND_DAILY_LIMIT', rate('5/1d')),
    invitationMailRate: setting('SERVICE_INVITATION_MAIL_RATE_LIMIT', rate('100/1d')),
    usageFlushIntervalMs: setting('SERVICE_USAGE_FLUSH_INTERVAL', duration('1s')),
    /**
     * Who charges the plans (domain/billing): `local` records subscriptions and charges nobody; `test` simulates a
     * card processor whose payments fail on demand (tests only: refused when NODE_ENV=production).
     */
    billingProvider: setting('SERVICE_BILLING_PROVIDER', z.enum(['local', 'test']).optional().default('local')),
    /** How long the data export of a deleted organization (and its download link) lives; at most 7 days. */
    exportTtlMs: setting('SERVICE_ORGANIZATION_EXPORT_TTL', duration('7d').transform((ms) => Math.min(ms, 7 * 86_400_000))),
    /**
     * DNS servers (`host` or `host:port`, comma-separated) asked for the TXT record that proves an organization owns
     * an e-mail domain (docs/organizations.md#verified-domains); empty = the system's resolver.
     */
    domainVerificationDnsServers: setting('SERVICE_DOMAIN_VERIFICATION_DNS_SERVERS', list()),
    /** Quotas per plan; null = unlimited (enterprise). */
    plans: {
      free: combined(
        {
          members: setting('SERVICE_PLAN_FREE_MEMBERS', int(3, 1)),
          apiCallsPerMonth: setting('SERVICE_PLAN_FREE_API_CALLS', int(1000, 0)),
          storageBytes: setting('SERVICE_PLAN_FREE_STORAGE_GB', gibibytes(10)),
        },
        plan,
      ),
      pro: combined(
        {
          members: setting('SERVICE_PLAN_PRO_MEMBERS', int(20, 1)),
          apiCallsPerMonth: setting('SERVICE_PLAN_PRO_API_CALLS', int(50_000, 0)),
          storageBytes: setting('SERVICE_PLAN_PRO_STORAGE_GB', gibibytes(100)),
        },
        plan,
      ),
      enterprise: fixed(plan({ members: null, apiCallsPerMonth: null, storageBytes: null })),
    },
  },
  database: {
    url: setting('DATABASE_URL', text('postgres://postgres@127.0.0.1:5432/loom')),
    poolMax: setting('DATABASE_POOL_MAX', int(10, 1, 200)),
  },
  temporal: {
    address: setting('TEMPORAL_ADDRESS', text('127.0.0.1:7233')),
    namespace: setting('TEMPORAL_NAMESPACE', text('default')),
    taskQueue: setting('TEMPORAL_TASK_QUEUE', text('loom')),
    uiUrl: setting('TEMPORAL_UI_URL', z.string().url().optional().default('http://127.0.0.1:8233')),
    workflowBundlePath: setting('TEMPORAL_WORKFLOW_BUNDLE', optionalText()),
  },
  /** Knobs of workflow runs (docs/runs.md); passed into each run's input so its history records them. */
  runs: {
    heartbeatTimeoutMs: setting('RUN_HEARTBEAT_TIMEOUT', duration('30s')),
    defaultNodeTimeoutMs: setting('RUN_NODE_TIMEOUT', duration('5m')),
    loopBatchSize: setting('RUN_LOOP_BATCH_SIZE', int(500, 1, 2000)),
    maxConcurrentNodes: setting('RUN_MAX_CONCURRENT_NODES', int(200, 1, 1500)),
    largeOutputBytes: setting('RUN_LARGE_OUTPUT_BYTES', int(256 * 1024, 1024, 1024 * 1024)),
    /** Under Temporal's 2 MB payload limit, with room for the rest of a command (docs/runs.md#the-payload-budget). */
    payloadBudgetBytes: setting('RUN_PAYLOAD_BUDGET_BYTES', int(1024 * 1024, 16 * 1024, 1536 * 1024)),
  },
  /**
   * Per-organization admission of runs started through the API (docs/runs.md#fairness); kept out of `runs`, which
   * travels in every run's input. Null = off.
   */
  runAdmission: {
    startRate: setting('RUN_START_RATE_LIMIT', rate('300/1m')),
    maxActivePerOrganization: setting('RUN_MAX_ACTIVE_PER_ORGANIZATION', int(100, 0, 100_000).transform((n) => n || null)),
  },
  /**
   * Run and wait (docs/runs.md#run-and-wait): the longest a start (`?wait=`, `Prefer: wait=`) or a webhook call may
   * wait for its run to finish; longer waits asked for are shortened to it. At most 5 minutes (Node's request timeout).
   */
  runWait: {
    maxMs: setting('RUN_WAIT_MAX', duration('60s').refine((ms) => ms <= 300_000, 'RUN_WAIT_MAX must be at most 5m')),
  },
  minio: {
    endPoint: setting('MINIO_ENDPOINT', text('127.0.0.1')),
    port: setting('MINIO_PORT', int(9000, 1, 65535)),
    useSSL: setting('MINIO_USE_SSL', bool(false)),
    accessKey: setting('MINIO_ACCESS_KEY', text(DEFAULT_MINIO_ACCESS_KEY)),
    secretKey: setting('MINIO_SECRET_KEY', text(DEFAULT_MINIO_SECRET_KEY)),
    bucket: setting('MINIO_BUCKET', text('loom')),
    region: setting('MINIO_REGION', text('us-east-1')),
  },
  mail: {
    host: setting('SMTP_HOST', text('127.0.0.1')),
    port: setting('SMTP_PORT', int(1025, 1, 65535)),
    from: setting('MAIL_FROM', text('Loom <no-reply@loom.local>')),
  },
  /** Extra platform services (host:port) that no tenant destination may reach (lib/net/platformEndpoints.ts). */
  outbound: {
    protectedEndpoints: setting(
      'OUTBOUND_PROTECTED_ENDPOINTS',
      text('')
        .refine((v) => v.split(',').every((e) => !e.trim() || /^(\[[0-9a-fA-F:.]+\]|[^:\s/]+):\d{1,5}$/.test(e.trim())), 'a comma-separated list of host:port')
        .transform(splitList),
    ),
  },
  /** Built-in workflow tools (docs/workflows.md). */
  tools: {
    /**
     * The test tools (`delay`, `fail`: sleeps and failures on demand, docs/adding-a-tool.md): the worker registers
     * them and the API lists and accepts them only when true (the test suite and scripts/up's development stack).
     */
    testToolsEnabled: setting('TOOLS_TEST_TOOLS_ENABLED', bool(false)),
    /** More folders of tool modules the worker loads beside activities/tools/ (docs/adding-a-tool.md). */
    directories: setting('TOOLS_DIRECTORIES', list()),
    /**
     * The API reads the tool catalogue the workers publish at start (domain/tools) at most this often: how long after
     * a worker restart its new tools may still be unknown to an API.
     */
    catalogueRefreshMs: setting('TOOLS_CATALOGUE_REFRESH', duration('2s')),
    /** Test runs of one tool with sample input (POST /api/v1/tools/{tool}/test, docs/workflows.md#test-a-tool). */
    testRun: {
      /** per organization */
      rate: setting('TOOLS_TEST_RUN_RATE_LIMIT', rate('30/1m')),
      /** the longest `timeout_ms` a test run may ask for (and its default) */
      maxTimeoutMs: setting('TOOLS_TEST_RUN_MAX_TIMEOUT', duration('60s').refine((ms) => ms >= 1000 && ms <= 300_000, 'TOOLS_TEST_RUN_MAX_TIMEOUT must be between 1s and 5m')),
    },
    http: {
      timeoutMs: setting('TOOLS_HTTP_TIMEOUT', duration('30s')),
      maxResponseBytes: setting('TOOLS_HTTP_MAX_RESPONSE_BYTES', int(5 * 1024 * 1024, 1024)),
      maxRedirects: setting('TOOLS_HTTP_MAX_REDIRECTS', int(5, 0, 20)),
      allowedHosts: setting('TOOLS_HTTP_ALLOWED_HOSTS', list()),
    },
    db: {
      statementTimeoutMs: setting('TOOLS_DB_STATEMENT_TIMEOUT', duration('10s')),
      maxRows: setting('TOOLS_DB_MAX_ROWS', int(1000, 1, 100_000)),
      /**
       * Bytes of rows one call reads (as the server sends them); past it the rest is not fetched and `truncated` is
       * true. A server that sends more than twice this in one batch (one huge row) fails the call.
       */
      maxResultBytes: setting('TOOLS_DB_MAX_RESULT_BYTES', int(5 * 1024 * 1024, 1024, 64 * 1024 * 1024)),
    },
    /**
     * `email_send` through the platform's mailer: HTML bodies only when `allowHtml`; at most `dailyRecipients`
     * recipients per organization per rolling 24 hours (0 = the tool sends nothing).
     */
    email: {
      allowHtml: setting('TOOLS_EMAIL_ALLOW_HTML', bool(false)),
      dailyRecipients: setting('TOOLS_EMAIL_DAILY_RECIPIENTS', int(200, 0, 1_000_000)),
    },
    /** The global OpenAI-compatible endpoint; an organization may configure its own (integration `llm`). */
    llm: {
      baseUrl: setting('SERVICE_LLM_BASE_URL', url()),
      apiKey: setting('SERVICE_LLM_API_KEY', optionalText()),
      model: setting('SERVICE_LLM_MODEL', optionalText()),
      embeddingModel: setting('SERVICE_LLM_EMBEDDING_MODEL', optionalText()),
      timeoutMs: setting('SERVICE_LLM_TIMEOUT', duration('60s')),
    },
  },
  /** Prometheus endpoints (docs/operating.md). Port 0 disables an endpoint. */
  metrics: {
    workerHost: setting('WORKER_METRICS_HOST', text('127.0.0.1')),
    workerPort: setting('WORKER_METRICS_PORT', int(9464, 0, 65535)),
    workerSdkPort: setting('WORKER_SDK_METRICS_PORT', int(9465, 0, 65535)),
    refreshIntervalMs: setting('METRICS_REFRESH_INTERVAL', duration('15s')),
    /** The API's /metrics on its own listener (host, port), or null: served on the public port. */
    api: combined(
      {
        host: setting('SERVICE_METRICS_HOST', text('127.0.0.1')),
        port: setting('SERVICE_METRICS_PORT', optionalInt(1, 65535)),
      },
      ({ host, port }): { host: string; port: number } | null => (port ? { host, port } : null),
    ),
    /** Bearer token that the API's /metrics requires, or null: no token asked. */
    apiToken: setting(
      'SERVICE_METRICS_TOKEN',
      z.string().min(16, 'SERVICE_METRICS_TOKEN must be at least 16 characters').optional().transform(orNull),
    ),
  },
  /**
   * The worker creates the platform's schedules and the event dispatcher on its task queue at start.
   * `maxCachedWorkflows`: executions kept in the worker's sticky cache (undefined = the SDK's default, sized from the
   * heap; 0 = no cache, every workflow task replays the whole history, but the SDK then drops or retries in-flight
   * local activities, so runs stall until their workflow task times out).
   * `workflowStackTraces`: whether the SDK records a stack trace per workflow promise for the `__stack_trace`
   * query (worker/workflowStackTraces.ts); off by default, it costs 20–30% of the worker's CPU.
   */
  worker: {
    ensureBackgroundJobs: setting('WORKER_ENSURE_BACKGROUND_JOBS', bool(true)),
    maxCachedWorkflows: setting('WORKER_MAX_CACHED_WORKFLOWS', optionalInt(0, 100_000)),
    workflowStackTraces: setting('WORKER_WORKFLOW_STACK_TRACES', bool(false)),
    /** Fail a query through the pool inside an open transaction, or a nested transaction (lib/db/transactionGuard.ts). */
    transactionGuard: setting('WORKER_TRANSACTION_GUARD', bool(false)),
    /**
     * Longest a workflow thread may stay in one call into workflow code (the SDK's own isolate timeout is 5 s too);
     * watched from the worker's main thread, which terminates a thread stuck longer (worker/isolateWatch.ts).
     */
    isolateExecutionTimeoutMs: setting('WORKER_ISOLATE_EXECUTION_TIMEOUT', duration('5s')),
    /**
     * Longest wait between two heartbeats the worker sends for one activity (the SDK's maxHeartbeatThrottleInterval;
     * otherwise 80% of the heartbeat timeout). A cancellation reaches a running activity only in a heartbeat's
     * answer, so this bounds how late a cancel, a fail_fast or a join reaches a busy tool (docs/runs.md#cancellation).
     */
    heartbeatThrottleMs: setting('WORKER_HEARTBEAT_THROTTLE', duration('500ms')),
    /**
     * Memory for stored values being read, shared by the worker's activities (three bytes counted per stored byte:
     * text and parsed copy); an activity past it waits (activities/runs/valueMemory.ts, docs/runs.md#large-values).
     */
    storedValueMemoryBytes: setting('WORKER_STORED_VALUE_MEMORY', int(1024 * 1024 * 1024, 64 * 1024 * 1024)),
  },
  /** Content storage, processing, embeddings and vectors (docs/content.md). */
  content: {
    maxUploadBytes: setting('CONTENT_MAX_UPLOAD_BYTES', int(512 * 1024 * 1024, 1)),
    /**
     * Storage quota by plan, in bytes; null = unlimited. Byte-exact overrides of the plans' storage quotas
     * (SERVICE_PLAN_*_STORAGE_GB); unset, the plan's quota applies (lib/config.ts); 0 = unlimited.
     */
    quotaBytes: {
      free: setting('CONTENT_QUOTA_FREE_BYTES', optionalInt(0)),
      pro: setting('CONTENT_QUOTA_PRO_BYTES', optionalInt(0)),
      enterprise: setting('CONTENT_QUOTA_ENTERPRISE_BYTES', optionalInt(0).transform((n) => n || null)),
    },
    processOnUpload: setting('CONTENT_PROCESS_ON_UPLOAD', bool(true)),
    processingMaxBytes: setting('CONTENT_PROCESSING_MAX_BYTES', int(100 * 1024 * 1024, 1)),
    processingMaxAttempts: setting('CONTENT_PROCESSING_MAX_ATTEMPTS', int(3, 1, 20)),
    chunkSize: setting('CONTENT_CHUNK_SIZE', int(1000, 100, 100_000)),
    chunkOverlap: setting('CONTENT_CHUNK_OVERLAP', int(150, 0, 50_000)),
    /**
     * Semantic results scoring below this cosine similarity are left out (semantic mode, and the semantic half of
     * hybrid). Unset: 0.2 for the built-in lexical embedder (calibrated on test/fixtures/relevance: unrelated short
     * texts reach ~0.25 through hash collisions), no floor for other providers, whose scales differ.
     */
    searchMinSemanticScore: setting('CONTENT_SEARCH_MIN_SEMANTIC_SCORE', z.coerce.number().min(0).max(1).optional()),
    /** The global embedding provider; an organization may choose its own in integration settings. */
    embedding: {
      provider: setting('CONTENT_EMBEDDING_PROVIDER', z.enum(['lexical', 'openai', 'cohere']).optional().default('lexical')),
      baseUrl: setting('CONTENT_EMBEDDING_BASE_URL', url()),
      model: setting('CONTENT_EMBEDDING_MODEL', optionalText()),
      dimensions: setting('CONTENT_EMBEDDING_DIMENSIONS', optionalInt(1, 8192)),
      apiKey: setting('CONTENT_EMBEDDING_API_KEY', optionalText()),
    },
    /**
     * Custom embedding models an organization may register (POST /api/v1/embedding-models, or a first vector of a new
     * name): each may add a vector table that every document-vector write and read of every tenant goes through.
     */
    embeddingModelsMax: setting('CONTENT_EMBEDDING_MODELS_MAX', int(10, 1, 100)),
    /** LanceDB location: a local directory, or s3://bucket/path (then the MinIO credentials are used). */
    vectorUri: setting('CONTENT_VECTOR_URI', text('.data/lancedb')),
    vectorIndexThreshold: setting('CONTENT_VECTOR_INDEX_THRESHOLD', int(50_000, 1)),
    /** Temporary files of LanceDB index builds, in a folder per process (lib/vectors/scratch.ts). */
    vectorScratchDir: setting('CONTENT_VECTOR_SCRATCH_DIR', text('.data/lancedb-tmp')),
  },
  /** Workflow triggers, events and outgoing webhooks (docs/triggers.md). */
  triggers: {
    webhookMaxBodyBytes: setting('TRIGGERS_WEBHOOK_MAX_BODY_BYTES', int(256 * 1024, 1024, 16 * 1024 * 1024)),
    /** Default per-trigger limit of inbound webhook calls (a trigger's `rateLimit` overrides it). */
    webhookRateLimit: setting('TRIGGERS_WEBHOOK_RATE_LIMIT', rate('60/1m')),
    /**
     * Inbound webhook calls per organization, all its triggers together: a trigger's own `rateLimit` (`off`
     * included) is a limit within this one, so a member cannot start runs by webhook at a pace of their choosing.
     */
    webhookOrganizationRateLimit: setting('TRIGGERS_WEBHOOK_ORGANIZATION_RATE_LIMIT', rate('600/1m')),
    webhookToleranceMs: setting('TRIGGERS_WEBHOOK_TOLERANCE', duration('5m')),
    defaultApprovalTimeoutMs: setting('TRIGGERS_APPROVAL_TIMEOUT', duration('24h')),
    defaultCatchupWindowMs: setting('TRIGGERS_SCHEDULE_CATCHUP_WINDOW', duration('5m')),
    dispatchIntervalMs: setting('EVENTS_DISPATCH_INTERVAL', duration('1s')),
    dispatchBatch: setting('EVENTS_DISPATCH_BATCH', int(100, 1, 1000)),
    /**
     * Poison events (docs/events.md#quarantine): an event whose dispatch keeps failing is retried after
     * `dispatchRetryInitialMs`, doubling up to `dispatchRetryMaxMs`, and quarantined after `dispatchMaxAttempts`.
     */
    dispatchMaxAttempts: setting('EVENTS_DISPATCH_MAX_ATTEMPTS', int(8, 1, 100)),
    dispatchRetryInitialMs: setting('EVENTS_DISPATCH_RETRY_INTERVAL', duration('10s')),
    dispatchRetryMaxMs: setting('EVENTS_DISPATCH_RETRY_MAX_INTERVAL', duration('5m')),
    /** Custom events an organization may publish per window (each can start runs that no admission gate refuses). */
    publishRate: setting('EVENTS_PUBLISH_RATE_LIMIT', rate('600/1m')),
    /**
     * Runs event triggers may start per organization per window. Run events chain (a run's `run.completed` starts a
     * run of every other subscribed workflow, to depth 5), so one start could fan out to tens of thousands; past the
     * budget the organization's events wait for the next window and other organizations' events go first.
     */
    eventRunRate: setting('EVENTS_TRIGGERED_RUNS_RATE_LIMIT', rate('300/1m')),
    /**
     * Runs schedule triggers may start per organization per window. A 6-field cron fires every second and `allow_all`
     * lets firings overlap, so a tenant picks the pace; past the budget a firing waits (a durable timer) for the next
     * window, at most 15 minutes, and other organizations' firings are unaffected.
     */
    scheduleRunRate: setting('SCHEDULES_TRIGGERED_RUNS_RATE_LIMIT', rate('300/1m')),
    delivery: {
      maxAttempts: setting('WEBHOOKS_MAX_ATTEMPTS', int(8, 1, 50)),
      initialIntervalMs: setting('WEBHOOKS_RETRY_INITIAL_INTERVAL', duration('30s')),
      maxIntervalMs: setting('WEBHOOKS_RETRY_MAX_INTERVAL', duration('1h')),
      timeoutMs: setting('WEBHOOKS_TIMEOUT', duration('10s')),
      disableAfterFailures: setting('WEBHOOKS_DISABLE_AFTER_FAILURES', int(10, 1, 1000)),
      /** Hosts, IPs or CIDRs that deliveries may reach although private/loopback (SSRF guard exceptions). */
      allowedPrivateHosts: setting('WEBHOOKS_ALLOWED_PRIVATE_HOSTS', list()),
    },
  },
};
