import type { Knex } from 'knex';
import type { CursorPosition } from '../../lib/pagination';

/**
 * All SQL on the events domain's tables: `outbox_events` (written in the transaction of the change that causes the
 * event, claimed and marked by the dispatcher), `webhook_deliveries` (one row per delivery of an event to an
 * endpoint, with its attempt log) and `webhook_endpoint_health` (each endpoint's run of failed deliveries).
 * Functions take the db or the caller's transaction first.
 */
type Conn = Knex | Knex.Transaction;

// ---------- outbox_events ----------

export interface OutboxEventRow {
  id: string;
  organization_id: string | null;
  type: string;
  payload: Record<string, unknown>;
  created_at: Date;
  dispatched_at: Date | null;
  /** Failed dispatch attempts since the event was written or last replayed (migration 1015). */
  attempts: number;
  last_error: string | null;
  /** After a failed attempt: not claimed again before this time. */
  next_attempt_at: Date | null;
  /** `quarantined`: set aside after the last allowed attempt, never claimed; `replayed`: dispatchable again. */
  quarantine_status: 'quarantined' | 'replayed' | null;
  quarantined_at: Date | null;
  replayed_at: Date | null;
}

export interface NewOutboxEvent {
  /** Omitted: PostgreSQL assigns one. */
  id?: string;
  organizationId: string;
  type: string;
  payload: Record<string, unknown>;
}

function outboxValues(event: NewOutboxEvent) {
  return {
    ...(event.id !== undefined ? { id: event.id } : {}),
    organization_id: event.organizationId,
    type: event.type,
    payload: JSON.stringify(event.payload),
  };
}

/**
 * The outbox insert as a clause of another module's statement: one event per row of `source` (a CTE of that
 * statement), for a change that must commit with its event in one round trip (a run's final write,
 * domain/runs/queries.ts). The values are SQL expressions of the caller's, over `source`'s columns and parameters;
 * this module stays the one that writes the table.
 */
export function outboxInsertClause(source: string, values: { id: string; organizationId: string; type: string; payload: string }, where: string): string {
  return `INSERT INTO outbox_events (id, organization_id, type, payload)
    SELECT ${values.id}, ${values.organizationId}, ${values.type}, ${values.payload}
      FROM ${source}
     WHERE ${where}`;
}

export async function insertOutboxEvent(db: Conn, event: NewOutboxEvent): Promise<void> {
  await db('outbox_events').insert(outboxValues(event));
}

/** Inserts the event unless its id exists already; true when this call inserted it. */
export async function insertOutboxEventIfAbsent(db: Conn, event: NewOutboxEvent & { id: string }): Promise<boolean> {
  const inserted = await db('outbox_events').insert(outboxValues(event)).onConflict('id').ignore().returning('id');
  return inserted.length > 0;
}

export async function getOutboxEventOrigin(
  db: Conn,
  id: string,
): Promise<{ organization_id: string | null; created_at: Date } | undefined> {
  return (await db('outbox_events').where({ id }).first('organization_id', 'created_at')) as
    | { organization_id: string | null; created_at: Date }
    | undefined;
}

/** Due: undispatched, not quarantined (or replayed), and not waiting (after a failure, a deferral or a claim). */
function whereDue(db: Conn, q: Knex.QueryBuilder): Knex.QueryBuilder {
  const now = db.raw('clock_timestamp()');
  return q
    .whereNull('dispatched_at')
    .andWhere((w) => w.whereNull('quarantine_status').orWhere('quarantine_status', 'replayed'))
    .andWhere((w) => w.whereNull('next_attempt_at').orWhere('next_attempt_at', '<=', now));
}

/**
 * Claims the oldest due events for `leaseMs`: one statement that pushes their next_attempt_at past the lease, so no
 * other dispatcher takes them meanwhile and no transaction stays open while they are dispatched (Temporal starts
 * are network calls). A dispatcher that dies leaves them to be claimed again when the lease ends; the ids of what a
 * dispatch starts derive from the event, so nothing starts twice. Oldest first.
 */
export async function claimUndispatchedEvents(db: Conn, limit: number, leaseMs: number): Promise<OutboxEventRow[]> {
  const rows = (await db('outbox_events')
    .whereIn('id', whereDue(db, db('outbox_events').select('id')).orderBy('created_at').limit(limit).forUpdate().skipLocked())
    .update({ next_attempt_at: db.raw("clock_timestamp() + (? || ' milliseconds')::interval", [String(leaseMs)]) })
    .returning('*')) as OutboxEventRow[];
  return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
}

/** Gives claimed events back before their lease ends (a dispatch that stopped for a platform failure). */
export async function releaseClaimedEvents(db: Conn, ids: string[]): Promise<void> {
  if (ids.length) await db('outbox_events').whereIn('id', ids).whereNull('dispatched_at').update({ next_attempt_at: null });
}

/**
 * An organization out of its budget of event-started runs: every one of its events due now and those of the
 * current claim (`claimed`) are claimed again after `delayMs`, no attempt counted. One statement per organization and
 * window, so a backlog of thousands is not claimed and deferred event by event ahead of other organizations' events.
 */
export async function deferOrganizationEvents(db: Conn, organizationId: string, claimed: string[], delayMs: number): Promise<number> {
  const due = whereDue(db, db('outbox_events').select('id').where({ organization_id: organizationId }));
  return db('outbox_events')
    .where({ organization_id: organizationId })
    .whereNull('dispatched_at')
    .andWhere((q) => q.whereIn('id', due.forUpdate().skipLocked()).orWhereIn('id', claimed))
    .update({ next_attempt_at: db.raw("clock_timestamp() + (? || ' milliseconds')::interval", [String(delayMs)]) });
}

/** A failed dispatch attempt: counted, with its error; retried after `retryInMs`, or quarantined. */
export async function recordEventDispatchFailure(
  trx: Conn,
  id: string,
  failure: { attempts: number; error: string; retryInMs: number; quarantine: boolean },
): Promise<void> {
  await trx('outbox_events')
    .where({ id })
    .update({
      attempts: failure.attempts,
      last_error: failure.error,
      next_attempt_at: failure.quarantine ? null : trx.raw("now() + (? || ' milliseconds')::interval", [String(failure.retryInMs)]),
      ...(failure.quarantine ? { quarantine_status: 'quarantined', quarantined_at: trx.fn.now() } : {}),
    });
}

// ---------- quarantine ----------

/** Events that are or were quarantined, newest first, keyset on (created_at, id); one row more than `limit`. */
export async function listQuarantinedEvents(
  db: Conn,
  organizationId: string,
  options: { status?: 'quarantined' | 'replayed'; type?: string; limit: number; after: CursorPosition | null },
): Promise<OutboxEventRow[]> {
  const q = db<OutboxEventRow>('outbox_events')
    .where('organization_id', organizationId)
    .whereNotNull('quarantine_status')
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(options.limit + 1);
  if (options.status) q.andWhere('quarantine_status', options.status);
  if (options.type) q.andWhere('type', options.type);
  if (options.after) q.andWhereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [options.after.sort, options.after.id]);
  return (await q) as OutboxEventRow[];
}

export async function getQuarantinedEvent(db: Conn, organizationId: string, id: string): Promise<OutboxEventRow | undefined> {
  return (await db('outbox_events').where({ organization_id: organizationId, id }).whereNotNull('quarantine_status').first()) as
    | OutboxEventRow
    | undefined;
}

/** Makes a quarantined event dispatchable again, its attempts counted afresh; undefined when it was not quarantined. */
export async function replayQuarantinedEvent(db: Conn, organizationId: string, id: string): Promise<OutboxEventRow | undefined> {
  const [row] = (await db('outbox_events')
    .where({ organization_id: organizationId, id, quarantine_status: 'quarantined' })
    .update({ quarantine_status: 'replayed', replayed_at: db.fn.now(), attempts: 0, next_attempt_at: null })
    .returning('*')) as OutboxEventRow[];
  return row;
}

/** Drops a quarantined event for good; false when it was not quarantined. */
export async function deleteQuarantinedEvent(db: Conn, organizationId: string, id: string): Promise<boolean> {
  const n = await db('outbox_events').where({ organization_id: organizationId, id, quarantine_status: 'quarantined' }).delete();
  return n > 0;
}

/** Events quarantined now, all organizations (the `loom_events_quarantined` gauge). */
export async function countQuarantinedEvents(db: Conn): Promise<number> {
  const row = (await db('outbox_events').where('quarantine_status', 'quarantined').count({ n: '*' }).first()) as { n: string | number } | undefined;
  return Number(row?.n ?? 0);
}

export async function markEventsDispatched(db: Conn, ids: string[]): Promise<void> {
  await db('outbox_events').whereIn('id', ids).update({ dispatched_at: db.fn.now() });
}

// ---------- webhook_deliveries ----------

export interface DeliveryRow {
  id: string;
  organization_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  url: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  response_code: number | null;
  latency_ms: number | null;
  last_error: string | null;
  attempt_log: unknown[];
  redelivery_of: string | null;
  body: string;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

export type NewDelivery = Pick<DeliveryRow, 'id' | 'organization_id' | 'endpoint_id' | 'event_id' | 'event_type' | 'url' | 'body'> & {
  /** The first delivery this one repeats (manual redelivery only). */
  redelivery_of?: string;
};

export async function insertDelivery(db: Conn, row: NewDelivery): Promise<void> {
  await db('webhook_deliveries').insert(row);
}

/** The dispatcher's insert: its ids derive from (event, endpoint), so a re-dispatch finds the row and adds none. */
export async function insertDeliveryIfAbsent(db: Conn, row: NewDelivery): Promise<void> {
  await db('webhook_deliveries').insert(row).onConflict('id').ignore();
}

export async function getDelivery(db: Conn, id: string): Promise<DeliveryRow | undefined> {
  return (await db('webhook_deliveries').where({ id }).first()) as DeliveryRow | undefined;
}

export async function getEndpointDelivery(db: Conn, organizationId: string, endpointId: string, id: string): Promise<DeliveryRow | undefined> {
  return (await db('webhook_deliveries').where({ organization_id: organizationId, endpoint_id: endpointId, id }).first()) as
    | DeliveryRow
    | undefined;
}

/** Newest first, keyset on (created_at, id); one row more than `limit` when there is a next page. */
export async function listEndpointDeliveries(
  db: Conn,
  organizationId: string,
  endpointId: string,
  options: { status?: string; limit: number; after: CursorPosition | null },
): Promise<DeliveryRow[]> {
  const q = db<DeliveryRow>('webhook_deliveries')
    .where({ organization_id: organizationId, endpoint_id: endpointId })
    .orderBy([
      { column: 'created_at', order: 'desc' },
      { column: 'id', order: 'desc' },
    ])
    .limit(options.limit + 1);
  if (options.status) q.andWhere('status', options.status);
  if (options.after) q.andWhereRaw('(created_at, id) < (?::timestamptz, ?::uuid)', [options.after.sort, options.after.id]);
  return (await q) as DeliveryRow[];
}

/** A delivery whose workflow could not be started: failed at once, with the reason. */
export async function failUnstartedDelivery(db: Conn, id: string, error: string): Promise<void> {
  await db('webhook_deliveries').where({ id }).update({ status: 'failed', last_error: error, completed_at: db.fn.now(), updated_at: db.fn.now() });
}

export interface DeliveryAttempt {
  /** The endpoint's URL at the time of the attempt (it may have changed since the event). */
  url: string;
  attempt: number;
  responseCode: number | null;
  latencyMs: number;
  error: string | null;
  /** Appended to `attempt_log`. */
  logEntry: Record<string, unknown>;
}

export async function recordDeliveryAttempt(db: Conn, id: string, attempt: DeliveryAttempt): Promise<void> {
  await db('webhook_deliveries')
    .where({ id })
    .update({
      url: attempt.url,
      attempts: attempt.attempt,
      response_code: attempt.responseCode,
      latency_ms: attempt.latencyMs,
      last_error: attempt.error,
      attempt_log: db.raw('attempt_log || ?::jsonb', [JSON.stringify([attempt.logEntry])]),
      updated_at: db.fn.now(),
    });
}

/** Records the outcome of a pending delivery; undefined when it was no longer pending (recorded already). */
export async function completePendingDelivery(
  trx: Knex.Transaction,
  id: string,
  outcome: { succeeded: boolean; error: string | null },
): Promise<{ organization_id: string; endpoint_id: string; attempt_log: unknown[] } | undefined> {
  const [delivery] = (await trx('webhook_deliveries')
    .where({ id, status: 'pending' })
    .update({
      status: outcome.succeeded ? 'succeeded' : 'failed',
      ...(outcome.error && !outcome.succeeded ? { last_error: outcome.error } : {}),
      completed_at: trx.fn.now(),
      updated_at: trx.fn.now(),
    })
    .returning(['organization_id', 'endpoint_id', 'attempt_log'])) as { organization_id: string; endpoint_id: string; attempt_log: unknown[] }[];
  return delivery;
}

// ---------- webhook_endpoint_health ----------

export interface EndpointHealthRow {
  endpoint_id: string;
  consecutive_failures: number;
  last_success_at: Date | null;
  last_failure_at: Date | null;
  disabled_at: Date | null;
  failed_attempts: number;
  last_attempt_failed_at: Date | null;
  last_attempt_error: string | null;
  policy_refusals: number;
  last_policy_refusal_at: Date | null;
  last_policy_refusal: string | null;
}

export async function listEndpointHealth(db: Conn, organizationId: string): Promise<EndpointHealthRow[]> {
  return (await db('webhook_endpoint_health').where({ organization_id: organizationId })) as EndpointHealthRow[];
}

/** The endpoint a delivery's failure disabled, if it did. */
export async function endpointDisabledBy(db: Conn, deliveryId: string): Promise<string | null> {
  const health = await db('webhook_endpoint_health').where({ disabled_by_delivery: deliveryId }).first('endpoint_id');
  return (health?.endpoint_id as string | undefined) ?? null;
}

/** Counts a delivery's outcome into the endpoint's run of consecutive failures; returns the run's new length. */
export async function recordEndpointOutcome(
  trx: Knex.Transaction,
  endpoint: { endpointId: string; organizationId: string },
  succeeded: boolean,
): Promise<number> {
  const { rows } = await trx.raw<{ rows: { consecutive_failures: number }[] }>(
    `INSERT INTO webhook_endpoint_health AS h (endpoint_id, organization_id, consecutive_failures, last_success_at, last_failure_at)
     VALUES (?, ?, ?, CASE WHEN ? THEN now() END, CASE WHEN ? THEN NULL ELSE now() END)
     ON CONFLICT (endpoint_id) DO UPDATE SET
       consecutive_failures = CASE WHEN ? THEN 0 ELSE h.consecutive_failures + 1 END,
       last_success_at = CASE WHEN ? THEN now() ELSE h.last_success_at END,
       last_failure_at = CASE WHEN ? THEN h.last_failure_at ELSE now() END
     RETURNING consecutive_failures`,
    [endpoint.endpointId, endpoint.organizationId, succeeded ? 0 : 1, succeeded, succeeded, succeeded, succeeded, succeeded],
  );
  return rows[0]?.consecutive_failures ?? 0;
}

/**
 * Counts one failed attempt (also inside a delivery that later succeeds), or one refusal by the outbound policy
 * (kept apart: a refusal says nothing about the endpoint's health), with its time and error.
 */
export async function recordEndpointAttemptFailure(
  db: Conn,
  endpoint: { endpointId: string; organizationId: string },
  failure: { error: string; refusedByPolicy: boolean },
): Promise<void> {
  const [count, at, text] = failure.refusedByPolicy
    ? ['policy_refusals', 'last_policy_refusal_at', 'last_policy_refusal']
    : ['failed_attempts', 'last_attempt_failed_at', 'last_attempt_error'];
  await db.raw(
    `INSERT INTO webhook_endpoint_health AS h (endpoint_id, organization_id, ${count}, ${at}, ${text})
     VALUES (?, ?, 1, now(), ?)
     ON CONFLICT (endpoint_id) DO UPDATE SET ${count} = h.${count} + 1, ${at} = now(), ${text} = EXCLUDED.${text}`,
    [endpoint.endpointId, endpoint.organizationId, failure.error.slice(0, 1000)],
  );
}

/** Marks the endpoint disabled by this delivery and starts its failure count afresh. */
export async function markEndpointDisabled(trx: Knex.Transaction, endpointId: string, deliveryId: string): Promise<void> {
  await trx('webhook_endpoint_health')
    .where({ endpoint_id: endpointId })
    .update({ consecutive_failures: 0, disabled_at: trx.fn.now(), disabled_by_delivery: deliveryId });
}
