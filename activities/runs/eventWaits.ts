import { deleteEventWait, eventsSince, upsertEventWait, type EventWaitRow } from '../../domain/runs/eventWaits';
import { unwrapTemplate } from '../../lib/dag/validation/conditions';
import { EVENT_LOCAL } from '../../lib/dag/waits';
import type { WaitedEvent } from '../../lib/runs/eventWait';
import type { EvalContext } from '../../lib/runs/types';
import type { ActivityDeps } from '../deps';
import { scope } from './expressions';
import { evaluateExpression } from './resolve';
import { StoredValueReader } from './values';

/** An outbox row as a waiting node sees it (the envelope of webhooks and event-started runs). */
export function waitedEventOf(row: { id: string; type: string; payload: Record<string, unknown>; created_at: Date }): WaitedEvent {
  return { id: row.id, type: row.type, timestamp: new Date(row.created_at).toISOString(), data: row.payload ?? {} };
}

/**
 * Whether `event` satisfies a wait's match expression, evaluated in the expression sandbox over the run's context
 * kept with the wait (parameters, earlier outputs) and `event`. No expression: any event of the type. An expression
 * that fails or does not give `true` does not match (the wait goes on; its timeout still ends it).
 */
export async function eventMatches(
  deps: ActivityDeps,
  wait: Pick<EventWaitRow, 'organization_id' | 'match' | 'context'>,
  event: WaitedEvent,
): Promise<boolean> {
  if (!wait.match) return true;
  const reader = new StoredValueReader(deps, wait.organization_id);
  const nodes = (await reader.resolve(wait.context.nodes ?? {})) as Record<string, unknown>;
  const params = (await reader.resolve(wait.context.params ?? {})) as Record<string, unknown>;
  try {
    return (await evaluateExpression(unwrapTemplate(wait.match), scope(params, nodes, { [EVENT_LOCAL]: event }, wait.organization_id))) === true;
  } catch {
    return false;
  }
}

/** The activities of wait_for_event nodes (workflows/runs/eventWait.ts). */
export function createEventWaitActivities(deps: ActivityDeps) {
  const { db } = deps;
  return {
    /**
     * Records the node's wait (the dispatcher wakes it from now on), then looks back on the events of its type
     * published since `since` (the node's start, less its look-back): the first that matches is taken at once and
     * the wait is removed. Recorded first, so an event published meanwhile is found by one or the other.
     */
    async runEventWaitStart(input: {
      organizationId: string;
      runId: string;
      nodeId: string;
      eventType: string;
      match: string | null;
      context: EvalContext;
      since: string;
      expiresAt: string;
    }): Promise<{ event: WaitedEvent | null }> {
      const wait = { organization_id: input.organizationId, match: input.match, context: input.context };
      await upsertEventWait(db, { ...input, expiresAt: new Date(input.expiresAt) });
      for (const row of await eventsSince(db, input.organizationId, input.eventType, new Date(input.since))) {
        const event = waitedEventOf(row);
        if (await eventMatches(deps, wait, event)) {
          await deleteEventWait(db, input.organizationId, input.runId, input.nodeId);
          return { event };
        }
      }
      return { event: null };
    },

    /** The node's wait is over (event, timeout, cancellation): the dispatcher no longer wakes it. */
    async runEventWaitEnd(input: { organizationId: string; runId: string; nodeId: string }): Promise<void> {
      await deleteEventWait(db, input.organizationId, input.runId, input.nodeId);
    },
  };
}

export type EventWaitActivities = ReturnType<typeof createEventWaitActivities>;
