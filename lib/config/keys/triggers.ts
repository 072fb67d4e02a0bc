import { duration, int, list, rate } from '../schemas';
import { setting } from '../settings';

/** Workflow triggers, events and outgoing webhooks (docs/triggers.md). */
export const triggers = {
  webhookMaxBodyBytes: setting('TRIGGERS_WEBHOOK_MAX_BODY_BYTES', int(256 * 1024, 1024, 16 * 1024 * 1024), {
    meaning: 'largest body an inbound webhook trigger accepts (413 past it; docs/triggers.md)',
    example: '262144',
  }),
  /** Default per-trigger limit of inbound webhook calls (a trigger's `rateLimit` overrides it). */
  webhookRateLimit: setting('TRIGGERS_WEBHOOK_RATE_LIMIT', rate('60/1m'), { meaning: 'default calls per window of one webhook trigger (its `rateLimit` overrides it)', example: '60/1m' }),
  /**
   * Inbound webhook calls per organization, all its triggers together: a trigger's own `rateLimit` (`off`
   * included) is a limit within this one, so a member cannot start runs by webhook at a pace of their choosing.
   */
  webhookOrganizationRateLimit: setting('TRIGGERS_WEBHOOK_ORGANIZATION_RATE_LIMIT', rate('600/1m'), {
    meaning: 'inbound webhook calls per organization, all its triggers together; a trigger\'s `rateLimit` (`off` included) is a limit within it (`off` disables)',
    example: '600/1m',
    note: 'All of an organization\'s inbound webhook calls together (a trigger\'s rateLimit, off included, is a limit within it)',
  }),
  webhookToleranceMs: setting('TRIGGERS_WEBHOOK_TOLERANCE', duration('5m'), { meaning: 'how far a signed webhook\'s timestamp may be from now (hmac authentication)', example: '5m' }),
  defaultApprovalTimeoutMs: setting('TRIGGERS_APPROVAL_TIMEOUT', duration('24h'), {
    meaning: 'defaults of manual approvals and schedules',
    example: '24h',
  }),
  defaultCatchupWindowMs: setting('TRIGGERS_SCHEDULE_CATCHUP_WINDOW', duration('5m'), {
    meaning: 'defaults of manual approvals and schedules',
    example: '5m',
  }),
  dispatchIntervalMs: setting('EVENTS_DISPATCH_INTERVAL', duration('1s'), {
    meaning: 'outbox polling of the event dispatcher (docs/events.md)',
    example: '1s',
  }),
  dispatchBatch: setting('EVENTS_DISPATCH_BATCH', int(100, 1, 1000), {
    meaning: 'outbox polling of the event dispatcher (docs/events.md)',
    example: '100',
  }),
  /**
   * Poison events (docs/events.md#quarantine): an event whose dispatch keeps failing is retried after
   * `dispatchRetryInitialMs`, doubling up to `dispatchRetryMaxMs`, and quarantined after `dispatchMaxAttempts`.
   */
  dispatchMaxAttempts: setting('EVENTS_DISPATCH_MAX_ATTEMPTS', int(8, 1, 100), {
    meaning: 'an event whose dispatch keeps failing is retried with this backoff (doubling) and quarantined after the attempts; list and replay at `/api/v1/events/quarantine` (docs/events.md#quarantine)',
    example: '8',
    note: 'Poison events: retried with a doubling backoff, then quarantined (GET /api/v1/events/quarantine)',
  }),
  dispatchRetryInitialMs: setting('EVENTS_DISPATCH_RETRY_INTERVAL', duration('10s'), {
    meaning: 'an event whose dispatch keeps failing is retried with this backoff (doubling) and quarantined after the attempts; list and replay at `/api/v1/events/quarantine` (docs/events.md#quarantine)',
    example: '10s',
  }),
  dispatchRetryMaxMs: setting('EVENTS_DISPATCH_RETRY_MAX_INTERVAL', duration('5m'), {
    meaning: 'an event whose dispatch keeps failing is retried with this backoff (doubling) and quarantined after the attempts; list and replay at `/api/v1/events/quarantine` (docs/events.md#quarantine)',
    example: '5m',
  }),
  /** Custom events an organization may publish per window (each can start runs that no admission gate refuses). */
  publishRate: setting('EVENTS_PUBLISH_RATE_LIMIT', rate('600/1m'), {
    meaning: 'custom events published per organization (`off` disables); 429 RATE_LIMITED beyond, so events cannot flood the runs they trigger (docs/runs.md#fairness)',
    example: '600/1m',
    note: 'Custom events (POST /api/v1/events) per organization per window; off disables',
  }),
  /**
   * Runs event triggers may start per organization per window. Run events chain (a run's `run.completed` starts a
   * run of every other subscribed workflow, to depth 5), so one start could fan out to tens of thousands; past the
   * budget the organization's events wait for the next window and other organizations' events go first.
   */
  eventRunRate: setting('EVENTS_TRIGGERED_RUNS_RATE_LIMIT', rate('300/1m'), {
    meaning: 'runs event triggers may start per organization (`off` disables); beyond it the organization\'s events wait for the next window while other organizations\' events are dispatched (docs/runs.md#fairness)',
    example: '300/1m',
    note: 'Runs event triggers may start per organization per window; beyond it the organization\'s events wait; off disables',
  }),
  /**
   * Runs schedule triggers may start per organization per window. A 6-field cron fires every second and `allow_all`
   * lets firings overlap, so a tenant picks the pace; past the budget a firing waits (a durable timer) for the next
   * window, at most 15 minutes, and other organizations' firings are unaffected.
   */
  scheduleRunRate: setting('SCHEDULES_TRIGGERED_RUNS_RATE_LIMIT', rate('300/1m'), {
    meaning: 'runs schedule triggers may start per organization (`off` disables); beyond it a firing waits for the next window, at most 15 minutes (docs/triggers.md#schedule-triggers)',
    example: '300/1m',
    note: 'Runs schedule triggers may start per organization per window; beyond it a firing waits (at most 15 minutes); off disables',
  }),
  delivery: {
    maxAttempts: setting('WEBHOOKS_MAX_ATTEMPTS', int(8, 1, 50), { meaning: 'outgoing webhook deliveries', example: '8' }),
    initialIntervalMs: setting('WEBHOOKS_RETRY_INITIAL_INTERVAL', duration('30s'), { meaning: 'outgoing webhook deliveries', example: '30s' }),
    maxIntervalMs: setting('WEBHOOKS_RETRY_MAX_INTERVAL', duration('1h'), { meaning: 'outgoing webhook deliveries', example: '1h' }),
    timeoutMs: setting('WEBHOOKS_TIMEOUT', duration('10s'), { meaning: 'outgoing webhook deliveries', example: '10s' }),
    disableAfterFailures: setting('WEBHOOKS_DISABLE_AFTER_FAILURES', int(10, 1, 1000), {
      meaning: 'auto-disable threshold; SSRF exceptions for deliveries',
      example: '10',
    }),
    /** Hosts, IPs or CIDRs that deliveries may reach although private/loopback (SSRF guard exceptions). */
    allowedPrivateHosts: setting('WEBHOOKS_ALLOWED_PRIVATE_HOSTS', list(), {
      meaning: 'auto-disable threshold; SSRF exceptions for deliveries',
      default: 'empty',
      note: 'comma-separated hosts/IPs/CIDRs deliveries may reach although private or loopback (empty = none)',
    }),
  },
};
