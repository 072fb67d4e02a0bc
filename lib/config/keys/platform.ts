import { z } from 'zod';
import { bool, duration, int, optionalText, rate, splitList, text } from '../schemas';
import { setting } from '../settings';

/** MinIO's well-known development credentials (scripts/up, docker-compose): refused in production mode. */
export const DEFAULT_MINIO_ACCESS_KEY = 'loomadmin';
export const DEFAULT_MINIO_SECRET_KEY = 'loomadmin-secret';

export const database = {
  url: setting('DATABASE_URL', text('postgres://postgres@127.0.0.1:5432/loom'), {
    meaning: 'PostgreSQL',
    example: 'postgres://postgres@127.0.0.1:5432/loom',
  }),
  poolMax: setting('DATABASE_POOL_MAX', int(10, 1, 200), { meaning: 'connection pool size', example: '10' }),
};

export const temporal = {
  address: setting('TEMPORAL_ADDRESS', text('127.0.0.1:7233'), { meaning: 'Temporal frontend', example: '127.0.0.1:7233' }),
  namespace: setting('TEMPORAL_NAMESPACE', text('default'), { meaning: 'Temporal frontend', example: 'default' }),
  taskQueue: setting('TEMPORAL_TASK_QUEUE', text('loom'), { meaning: 'task queue of the worker', example: 'loom' }),
  uiUrl: setting('TEMPORAL_UI_URL', z.string().url().optional().default('http://127.0.0.1:8233'), {
    meaning: 'links to runs in Temporal Web',
    example: 'http://127.0.0.1:8233',
  }),
  tls: setting('TEMPORAL_TLS', bool(false), {
    meaning: 'connect to Temporal with TLS (implied by any TEMPORAL_TLS_* file and by TEMPORAL_API_KEY); docs/scaling.md#temporal-connection',
    default: 'false',
    note: 'Temporal over TLS (docs/scaling.md#temporal-connection): a self-hosted cluster with mTLS, or Temporal Cloud with an API key or mTLS',
  }),
  tlsCaFile: setting('TEMPORAL_TLS_CA_FILE', optionalText(), {
    meaning: "PEM file of the CA that signed the frontend's certificate (unset: the system's trusted CAs)",
    default: 'unset',
  }),
  tlsCertFile: setting('TEMPORAL_TLS_CERT_FILE', optionalText(), { meaning: 'mTLS: PEM file of the client certificate', default: 'unset' }),
  tlsKeyFile: setting('TEMPORAL_TLS_KEY_FILE', optionalText(), { meaning: 'mTLS: PEM file of the client certificate\'s private key', default: 'unset' }),
  tlsServerName: setting('TEMPORAL_TLS_SERVER_NAME', optionalText(), {
    meaning: 'the name to check the frontend\'s certificate against, when it is not the host of TEMPORAL_ADDRESS',
    default: 'unset',
  }),
  apiKey: setting('TEMPORAL_API_KEY', optionalText(), { meaning: 'API key for Temporal Cloud (sent as a bearer token, over TLS)', default: 'unset' }),
  workflowBundlePath: setting('TEMPORAL_WORKFLOW_BUNDLE', optionalText(), {
    meaning: 'path of a prebuilt workflow bundle (tests share one); unset, the worker bundles `workflows/` at start',
    default: 'unset',
    note: 'Optional: a prebuilt workflow bundle (unset: the worker bundles workflows/ at start)',
  }),
};

/** Knobs of workflow runs (docs/runs.md); passed into each run's input so its history records them. */
export const runs = {
  heartbeatTimeoutMs: setting('RUN_HEARTBEAT_TIMEOUT', duration('30s'), {
    meaning: 'tool activities heartbeat within this; a killed worker\'s activity is retried after it',
    example: '30s',
    note: 'Workflow runs (docs/runs.md): activity heartbeat timeout (a killed worker\'s activity is retried after it), per-attempt node timeout, loop batch size (items per child workflow), concurrent nodes per run, and the serialized size above which node outputs are kept in MinIO and passed by reference',
  }),
  defaultNodeTimeoutMs: setting('RUN_NODE_TIMEOUT', duration('5m'), {
    meaning: 'per-attempt time limit of a node unless its `retryPolicy.timeout` says otherwise',
    example: '5m',
  }),
  loopBatchSize: setting('RUN_LOOP_BATCH_SIZE', int(500, 1, 2000), {
    meaning: 'loops with more items run in child workflows of this many items (docs/runs.md)',
    example: '500',
  }),
  maxConcurrentNodes: setting('RUN_MAX_CONCURRENT_NODES', int(200, 1, 1500), { meaning: 'nodes executing at once in one run', example: '200' }),
  largeOutputBytes: setting('RUN_LARGE_OUTPUT_BYTES', int(256 * 1024, 1024, 1024 * 1024), {
    meaning: 'outputs larger than this (serialized) are kept in MinIO and passed by reference',
    example: '262144',
  }),
  /** Under Temporal's 2 MB payload limit, with room for the rest of a command (docs/runs.md#the-payload-budget). */
  payloadBudgetBytes: setting('RUN_PAYLOAD_BUDGET_BYTES', int(1024 * 1024, 16 * 1024, 1536 * 1024), {
    meaning: 'what a run assembles from several values (a node\'s inputs, a join, a loop\'s outputs, its results) stays within this by storing the largest first (docs/runs.md#the-payload-budget)',
    example: '1048576',
    note: 'what a run assembles from several values (a node\'s inputs, a join, loop outputs, results) stays within this',
  }),
};

/**
 * Per-organization admission of runs started through the API (docs/runs.md#fairness); kept out of `runs`, which
 * travels in every run's input. Null = off.
 */
export const runAdmission = {
  startRate: setting('RUN_START_RATE_LIMIT', rate('300/1m'), {
    meaning: 'run starts through the API per organization (start, retry, dead-letter replay; `off` disables); 429 RATE_LIMITED beyond (docs/runs.md#fairness)',
    example: '300/1m',
    note: 'Fairness between organizations (docs/runs.md#fairness): run starts through the API per organization per window (`off` disables) and open runs per organization (0 = no cap); over either, 429 RATE_LIMITED with Retry-After',
  }),
  maxActivePerOrganization: setting('RUN_MAX_ACTIVE_PER_ORGANIZATION', int(100, 0, 100_000).transform((n) => n || null), {
    meaning: 'open runs per organization above which API starts answer 429 (`0` = no cap); trigger-started runs count but are never refused',
    example: '100',
  }),
};

/**
 * Run and wait (docs/runs.md#run-and-wait): the longest a start (`?wait=`, `Prefer: wait=`) or a webhook call may
 * wait for its run to finish; longer waits asked for are shortened to it. At most 5 minutes (Node's request timeout).
 */
export const runWait = {
  maxMs: setting('RUN_WAIT_MAX', duration('60s').refine((ms) => ms <= 300_000, 'RUN_WAIT_MAX must be at most 5m'), {
    meaning: 'longest wait of run and wait (`POST .../runs?wait=30s`, `Prefer: wait=30`, webhooks with `Prefer: wait=`); longer waits are shortened to it; at most `5m` (docs/runs.md#run-and-wait)',
    example: '60s',
    note: 'Run and wait: the longest a start or webhook call may wait for its run to finish (at most 5m)',
  }),
};

export const minio = {
  endPoint: setting('MINIO_ENDPOINT', text('127.0.0.1'), { meaning: 'object storage', example: '127.0.0.1' }),
  port: setting('MINIO_PORT', int(9000, 1, 65535), { meaning: 'object storage', example: '9000' }),
  useSSL: setting('MINIO_USE_SSL', bool(false), { meaning: 'object storage', example: 'false' }),
  accessKey: setting('MINIO_ACCESS_KEY', text(DEFAULT_MINIO_ACCESS_KEY), {
    meaning: 'object storage credentials; the defaults are refused when `NODE_ENV=production`',
    example: 'loomadmin',
  }),
  secretKey: setting('MINIO_SECRET_KEY', text(DEFAULT_MINIO_SECRET_KEY), {
    meaning: 'object storage credentials; the defaults are refused when `NODE_ENV=production`',
    example: 'loomadmin-secret',
  }),
  bucket: setting('MINIO_BUCKET', text('loom'), { meaning: 'bucket (created on start)', example: 'loom' }),
  region: setting('MINIO_REGION', text('us-east-1'), { meaning: 'bucket (created on start)', example: 'us-east-1' }),
};

export const mail = {
  host: setting('SMTP_HOST', text('127.0.0.1'), { meaning: 'outgoing mail', example: '127.0.0.1' }),
  port: setting('SMTP_PORT', int(1025, 1, 65535), { meaning: 'outgoing mail', example: '1025' }),
  from: setting('MAIL_FROM', text('Loom <no-reply@loom.local>'), { meaning: 'outgoing mail', example: 'Loom <no-reply@loom.local>' }),
};

/** Extra platform services (host:port) that no tenant destination may reach (lib/net/platformEndpoints.ts). */
export const outbound = {
  protectedEndpoints: setting(
    'OUTBOUND_PROTECTED_ENDPOINTS',
    text('')
      .refine((v) => v.split(',').every((e) => !e.trim() || /^(\[[0-9a-fA-F:.]+\]|[^:\s/]+):\d{1,5}$/.test(e.trim())), 'a comma-separated list of host:port')
      .transform(splitList),
    {
      meaning: 'extra `host:port` list of platform services that no tenant destination may reach, whatever the allow-lists say; the database, MinIO, Temporal (+ Web), the API, SMTP and worker metrics endpoints are always protected ([docs/security.md](docs/security.md#outbound-policy))',
      default: 'empty (`.env.example`: the dev MinIO console and mail catcher)',
      example: '127.0.0.1:9001,127.0.0.1:8025',
      note: 'Platform services no workflow, webhook or provider may reach, beyond those derived from this file (database, MinIO, Temporal, Temporal Web, API, SMTP, worker metrics): here the dev stack\'s MinIO console and mail catcher.',
    },
  ),
};
