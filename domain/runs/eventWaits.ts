import type { Knex } from 'knex';
import type { EvalContext } from '../../lib/runs/types';

/**
 * All SQL on `run_event_waits` (migration 1170): the wait_for_event nodes waiting now, and the recent events a wait
 * looks back on. Every query is scoped by organization.
 */
type Conn = Knex | Knex.Transaction;

export interface EventWaitRow {
  id: string;
  organization_id: string;
  run_id: string;
  node_id: string;
  event_type: string;
  match: string | null;
  context: EvalContext;
  expires_at: Date;
  created_at: Date;
}

/** The most waits one event wakes in one dispatch (per organization and type): bounds the dispatcher's work per event. */
export const MAX_WAITS_PER_EVENT = 1000;
/** The most past events one wait looks back on. */
export const MAX_LOOKBACK_EVENTS = 100;

/** Records (or refreshes, for a retried start) the node's wait. */
export async function upsertEventWait(
  db: Conn,
  wait: { organizationId: string; runId: string; nodeId: string; eventType: string; match: string | null; context: EvalContext; expiresAt: Date },
): Promise<void> {
  await db('run_event_waits')
    .insert({
      organization_id: wait.organizationId,
      run_id: wait.runId,
      node_id: wait.nodeId,
      event_type: wait.eventType,
      match: wait.match,
      context: JSON.stringify(wait.context),
      expires_at: wait.expiresAt,
    })
    .onConflict(['run_id', 'node_id'])
    .merge(['event_type', 'match', 'context', 'expires_at']);
}

export async function deleteEventWait(db: Conn, organizationId: string, runId: string, nodeId: string): Promise<void> {
  await db('run_event_waits').where({ organization_id: organizationId, run_id: runId, node_id: nodeId }).delete();
}

/** The waits an event of this organization and type may wake, oldest first, not past their time. */
export async function waitsForEvent(db: Conn, organizationId: string, eventType: string): Promise<EventWaitRow[]> {
  return db<EventWaitRow>('run_event_waits')
    .where({ organization_id: organizationId, event_type: eventType })
    .andWhere('expires_at', '>', db.fn.now())
    .orderBy('created_at')
    .limit(MAX_WAITS_PER_EVENT);
}

export interface RecentEvent {
  id: string;
  type: string;
  payload: Record<string, unknown>;
  created_at: Date;
}

/** Events of this organization and type published at or after `since`, oldest first (a wait's look-back). */
export async function eventsSince(db: Conn, organizationId: string, eventType: string, since: Date): Promise<RecentEvent[]> {
  return db('outbox_events')
    .where({ organization_id: organizationId, type: eventType })
    .andWhere('created_at', '>=', since)
    .orderBy('created_at')
    .limit(MAX_LOOKBACK_EVENTS)
    .select('id', 'type', 'payload', 'created_at');
}
