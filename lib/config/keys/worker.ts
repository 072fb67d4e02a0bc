import { z } from 'zod';
import { bool, duration, int, optionalInt, orNull, text } from '../schemas';
import { combined, setting } from '../settings';

/** Prometheus endpoints (docs/operating.md). Port 0 disables an endpoint. */
export const metrics = {
  workerHost: setting('WORKER_METRICS_HOST', text('127.0.0.1'), {
    meaning: 'worker Prometheus endpoint (`0` = off); see [docs/operating.md](docs/operating.md)',
    example: '127.0.0.1',
    note: 'Metrics (Prometheus text). The API serves GET /metrics on its own port. The worker serves its metrics on WORKER_METRICS_HOST:WORKER_METRICS_PORT and the Temporal SDK\'s own metrics on WORKER_SDK_METRICS_PORT (merged into the same page); 0 disables. Gauges read from PostgreSQL/Temporal are refreshed at most this often.',
  }),
  workerPort: setting('WORKER_METRICS_PORT', int(9464, 0, 65535), {
    meaning: 'worker Prometheus endpoint (`0` = off); see [docs/operating.md](docs/operating.md)',
    example: '9464',
  }),
  workerSdkPort: setting('WORKER_SDK_METRICS_PORT', int(9465, 0, 65535), {
    meaning: 'Temporal SDK metrics exporter, merged into the worker\'s page (`0` = off)',
    example: '9465',
  }),
  refreshIntervalMs: setting('METRICS_REFRESH_INTERVAL', duration('15s'), {
    meaning: 'runs-by-status and queue-backlog gauges are read at most this often',
    example: '15s',
  }),
  /** The API's /metrics on its own listener (host, port), or null: served on the public port. */
  api: combined(
    {
      host: setting('SERVICE_METRICS_HOST', text('127.0.0.1'), {
        meaning: 'unset: the API\'s `/metrics` is on `SERVICE_PORT`; set: `/metrics` moves to its own listener on this host and port and the public port no longer has it (docs/operating.md)',
        example: '127.0.0.1',
      }),
      port: setting('SERVICE_METRICS_PORT', optionalInt(1, 65535), {
        meaning: 'unset: the API\'s `/metrics` is on `SERVICE_PORT`; set: `/metrics` moves to its own listener on this host and port and the public port no longer has it (docs/operating.md)',
        note: '/metrics: empty port = served on SERVICE_PORT; a port = its own listener on SERVICE_METRICS_HOST, off the public port. A token (at least 16 characters) makes /metrics require `Authorization: Bearer <token>` wherever it is served.',
      }),
    },
    ({ host, port }): { host: string; port: number } | null => (port ? { host, port } : null),
  ),
  /** Bearer token that the API's /metrics requires, or null: no token asked. */
  apiToken: setting(
    'SERVICE_METRICS_TOKEN',
    z.string().min(16, 'SERVICE_METRICS_TOKEN must be at least 16 characters').optional().transform(orNull),
    { meaning: '>= 16 chars; the API\'s `/metrics` then requires `Authorization: Bearer <token>`', default: '(unset: no token)' },
  ),
};

/**
 * The worker creates the platform's schedules and the event dispatcher on its task queue at start.
 * `maxCachedWorkflows`: executions kept in the worker's sticky cache (undefined = the SDK's default, sized from the
 * heap; 0 = no cache, every workflow task replays the whole history, but the SDK then drops or retries in-flight
 * local activities, so runs stall until their workflow task times out).
 * `workflowStackTraces`: whether the SDK records a stack trace per workflow promise for the `__stack_trace`
 * query (worker/workflowStackTraces.ts); off by default, it costs 20–30% of the worker's CPU.
 */
export const worker = {
  ensureBackgroundJobs: setting('WORKER_ENSURE_BACKGROUND_JOBS', bool(true), {
    meaning: 'the worker creates the dead-letter purge and audit retention schedules and the event dispatcher on its task queue at start',
    example: 'true',
    note: 'The worker creates the purge/retention schedules and the event dispatcher on its task queue at start',
  }),
  maxCachedWorkflows: setting('WORKER_MAX_CACHED_WORKFLOWS', optionalInt(0, 100_000), {
    meaning: 'workflow executions the worker keeps cached between tasks; `0` = none, every task replays its history (beware: the SDK then drops or retries in-flight local activities, which stalls runs until their workflow task times out)',
    default: 'SDK default (from the heap size)',
    note: 'Workflow executions kept in the worker\'s cache (unset: the Temporal SDK\'s default, sized from the heap; 0: no cache, every workflow task replays its history; the SDK then drops or retries in-flight local activities, so runs stall until their workflow task times out: a debugging setting, not one for production)',
  }),
  workflowStackTraces: setting('WORKER_WORKFLOW_STACK_TRACES', bool(false), {
    meaning: '`true`: the worker records a stack trace per workflow promise, so Temporal Web\'s "Stack Trace" tab (the `__stack_trace` query) shows where an execution waits; it costs 20–30% of the worker\'s CPU per run, so it is a debugging setting (docs/operating.md#stack-traces)',
    example: 'false',
    note: 'Record a stack trace per workflow promise for Temporal Web\'s "Stack Trace" tab (the __stack_trace query). Off: the tab answers "stack traces are not enabled on this worker", and the worker spends 20-30% less CPU per run',
  }),
  /** Fail a query through the pool inside an open transaction, or a nested transaction (lib/db/transactionGuard.ts). */
  transactionGuard: setting('WORKER_TRANSACTION_GUARD', bool(false), {
    meaning: '`true`: an activity that queries through the pool while its own transaction is open, or nests a transaction, fails with `transaction guard: …` in the log (lib/db/transactionGuard.ts); a check for tests and development, it costs CPU on every query',
    example: 'false',
    note: 'Fail pool queries and nested transactions inside an open transaction (a check for tests and development)',
  }),
  /**
   * Longest a workflow thread may stay in one call into workflow code (the SDK's own isolate timeout is 5 s too);
   * watched from the worker's main thread, which terminates a thread stuck longer (worker/isolateWatch.ts).
   */
  isolateExecutionTimeoutMs: setting('WORKER_ISOLATE_EXECUTION_TIMEOUT', duration('5s'), {
    meaning: 'longest a workflow thread may stay in one call into workflow code; the worker\'s main thread watches it (instead of a watchdog thread per call) and terminates a thread stuck longer, so the worker exits to be restarted (worker/isolateWatch.ts)',
    example: '5s',
  }),
  /**
   * Longest wait between two heartbeats the worker sends for one activity (the SDK's maxHeartbeatThrottleInterval;
   * otherwise 80% of the heartbeat timeout). A cancellation reaches a running activity only in a heartbeat's
   * answer, so this bounds how late a cancel, a fail_fast or a join reaches a busy tool (docs/runs.md#cancellation).
   */
  heartbeatThrottleMs: setting('WORKER_HEARTBEAT_THROTTLE', duration('500ms'), {
    meaning: 'longest wait between two heartbeats the worker sends for one running tool; a cancellation (cancel, `fail_fast`, a join\'s losers) reaches a busy tool only in a heartbeat\'s answer, so this bounds how late it arrives (docs/runs.md#cancellation)',
    example: '500ms',
    note: 'Longest wait between two heartbeats of a running tool: a cancellation reaches a busy tool only in a heartbeat\'s answer, so this bounds how late a cancel, a fail_fast or a join\'s cancellation arrives',
  }),
  /**
   * Memory for stored values being read, shared by the worker's activities (three bytes counted per stored byte:
   * text and parsed copy); an activity past it waits (activities/runs/valueMemory.ts, docs/runs.md#large-values).
   */
  storedValueMemoryBytes: setting('WORKER_STORED_VALUE_MEMORY', int(1024 * 1024 * 1024, 64 * 1024 * 1024), {
    meaning: 'memory (bytes, at least 64 MiB) for stored run values being read, shared by the worker\'s activities, three counted per stored byte; a tool activity past it waits, the oldest holder always goes on (docs/runs.md#large-values)',
    example: '1073741824',
    note: 'memory for stored run values being read, shared by the worker\'s activities (3 bytes counted per stored byte)',
  }),
};
