import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { deleteEventWait, waitsForEvent } from '../../domain/runs/eventWaits';
import { EVENT_ARRIVED_SIGNAL } from '../../lib/runs/eventWait';
import { eventMatches, waitedEventOf } from '../runs/eventWaits';
import { deliveryInput, startDelivery } from '../../domain/events/deliveries';
import { eventEnvelope, type OutboxEventRow } from '../../domain/events/outbox';
import {
  claimUndispatchedEvents,
  deferOrganizationEvents,
  insertDeliveryIfAbsent,
  markEventsDispatched,
  releaseClaimedEvents,
} from '../../domain/events/queries';
import { isTransientDispatchError, recordDispatchFailure } from '../../domain/events/quarantine';
import type { StoredSettings } from '../../domain/organizations/settingsModel';
import { triggerRunBudget, TriggerRunBudgetSpent } from '../../domain/triggers/runBudget';
import { prepareTriggeredRun } from '../../domain/runs/launch';
import { startRunExecution } from '../../domain/runs/executions';
import type { StoredDefinition } from '../../lib/dag/model';
import { eventTriggerMatches, MAX_CHAIN_DEPTH, subscriptionMatches } from '../../lib/events/catalog';
import { parseTriggers, type EventConfig } from '../../lib/triggers/config';
import { uuidFrom } from '../../lib/triggers/ids';
import { memoByKey } from '../../lib/memoByKey';
import { mapParameters } from '../../lib/triggers/mapping';
import type { ActivityDeps } from '../deps';
import { readOrganizationSettings } from '../../domain/organizations/settingsReader';
import { listenForOutboxEvents } from '../../domain/events/outboxNotices';

interface CandidateRow {
  id: string;
  definition: StoredDefinition;
}

/**
 * What dispatching an event reads about its organization, read once per organization and batch: a batch is mostly
 * one organization's run events (every finished run writes one), and the batch's events are dispatched together,
 * so they may as well see the same triggers and endpoints. A read that fails is not kept, so the next event tries
 * again.
 */
interface BatchLookups {
  workflows(organizationId: string): Promise<CandidateRow[]>;
  /** Null when the organization is gone. */
  settings(organizationId: string): Promise<StoredSettings | null>;
}

/**
 * How long a claim keeps other dispatchers off a batch: longer than the activity may run (2 minutes), so a live
 * dispatch is never overtaken; a dead one's events are claimed again when it ends.
 */
const CLAIM_LEASE_MS = 150_000;

/**
 * The dispatcher's activity (see workflows/triggers/events.ts). Events are claimed with a lease in one statement
 * (domain/events/queries.ts), no transaction open while they are dispatched; for each:
 * 1. every active workflow of the organization whose enabled event trigger matches (`source`, `event`, `bucket`)
 *    gets one run, id uuidv5(event id, workflow id): the row insert ignores an existing row and the execution
 *    start rejects duplicates, so a re-dispatch after a crash (before the mark committed) starts nothing twice;
 * 2. every enabled webhook endpoint subscribed to the type gets one delivery, id uuidv5(event id, endpoint id),
 *    same rules;
 * 3. every run waiting for an event of its type (wait_for_event) whose match holds is signalled with it;
 * 4. the row is marked dispatched.
 * An event whose dispatch fails is retried with backoff and quarantined after EVENTS_DISPATCH_MAX_ATTEMPTS.
 * Run events do not trigger the workflow that emitted them, and chains of event-triggered runs stop at depth 5.
 * Each new run counts against its organization's budget of event-started runs; past it all of the organization's due
 * events are deferred to the budget's next window in one statement (no attempt counted), so its chain costs one
 * refusal per window and other organizations' events are dispatched meanwhile.
 */
export function createEventActivities(deps: ActivityDeps) {
  const { db, config } = deps;
  const taskQueue = config.temporal.taskQueue;
  // Past it the organization's events wait for the next window, with the runs they already started kept (their ids
  // are derived from the event, so the next dispatch starts only the rest).
  const admitEventRun = triggerRunBudget(db, 'events.runs', config.triggers.eventRunRate, 'runs started by events');

  /** Active workflows of the organization with an event trigger (any: each event is matched against them). */
  async function eventTriggeredWorkflows(organizationId: string): Promise<CandidateRow[]> {
    return (await db('workflows as w')
      .join('workflow_versions as v', function joinCurrent() {
        this.on('v.workflow_id', 'w.id').andOn('v.version', 'w.current_version');
      })
      .where({ 'w.organization_id': organizationId, 'w.status': 'active' })
      .whereRaw(`v.definition->'triggers' @> '[{"type":"event"}]'::jsonb`)
      .select('w.id', 'v.definition')) as CandidateRow[];
  }

  async function startRuns(client: Client, event: OutboxEventRow, lookups: BatchLookups): Promise<number> {
    const organizationId = event.organization_id!;
    const payload = event.payload ?? {};
    const isRunEvent = event.type.startsWith('run.');
    const depth = isRunEvent && typeof payload.chainDepth === 'number' ? payload.chainDepth : 0;
    if (isRunEvent && depth + 1 > MAX_CHAIN_DEPTH) return 0;
    const candidates = await lookups.workflows(organizationId);
    let started = 0;
    for (const workflow of candidates) {
      if (isRunEvent && payload.workflow_id === workflow.id) continue;
      const trigger = parseTriggers(workflow.definition.triggers).find(
        (t) => t.type === 'event' && t.enabled && eventTriggerMatches(t.config as EventConfig, event.type, payload),
      );
      if (!trigger) continue;
      const envelope = eventEnvelope(event);
      const outcome = await prepareTriggeredRun(deps, {
        organizationId,
        workflowId: workflow.id,
        runId: uuidFrom(`event:${event.id}:${workflow.id}`),
        trigger: { type: 'event', triggerId: trigger.key, eventId: event.id, eventType: event.type, chainDepth: depth + 1 },
        parameters: (declared) =>
          mapParameters(
            (trigger.config as EventConfig).parameters,
            { event: envelope, data: payload, type: event.type, id: event.id },
            payload,
            declared.map((d) => d.name),
          ),
        priority: (trigger.config as EventConfig).priority,
        onInvalidParameters: 'record_failed',
        admit: () => admitEventRun(organizationId),
      });
      if (outcome.kind === 'ready') {
        await startRunExecution(client, taskQueue, outcome.input);
        started++;
      }
    }
    return started;
  }

  async function startDeliveries(client: Client, event: OutboxEventRow, lookups: BatchLookups): Promise<number> {
    const organizationId = event.organization_id!;
    const settings = await lookups.settings(organizationId);
    if (!settings) return 0;
    const endpoints = settings.integration.webhooks.filter(
      (w) => w.enabled && w.events.some((pattern) => subscriptionMatches(pattern, event.type)),
    );
    const body = JSON.stringify(eventEnvelope(event));
    for (const endpoint of endpoints) {
      const deliveryId = uuidFrom(`delivery:${event.id}:${endpoint.id}`);
      await insertDeliveryIfAbsent(db, {
        id: deliveryId,
        organization_id: organizationId,
        endpoint_id: endpoint.id,
        event_id: event.id,
        event_type: event.type,
        url: endpoint.url,
        body,
      });
      await startDelivery(client, taskQueue, organizationId, deliveryInput(config, deliveryId));
    }
    return endpoints.length;
  }

  /** Waits matched and signalled at once for one event. */
  const WAKE_CONCURRENCY = 16;

  /**
   * Wakes the runs waiting for this event (wait_for_event nodes) whose match holds: each gets a signal with the event,
   * and its wait is removed, so a later event of the type does not wake it again. A run that is gone loses its wait.
   */
  async function wakeWaits(client: Client, event: OutboxEventRow): Promise<number> {
    const organizationId = event.organization_id!;
    const waits = await waitsForEvent(db, organizationId, event.type);
    if (!waits.length) return 0;
    const arrived = waitedEventOf(event);
    const wake = async (wait: (typeof waits)[number]): Promise<number> => {
      if (!(await eventMatches(deps, wait, arrived))) return 0;
      let signalled = 0;
      try {
        await client.workflow.getHandle(wait.run_id).signal(EVENT_ARRIVED_SIGNAL, { nodeId: wait.node_id, event: arrived });
        signalled = 1;
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
      await deleteEventWait(db, organizationId, wait.run_id, wait.node_id);
      return signalled;
    };
    // A few at a time: each is a match in the sandbox and a signal round trip (~40 ms one after another: 1,000
    // waits held the dispatcher, and every other organization's events, for 40 s).
    let woken = 0;
    for (let i = 0; i < waits.length; i += WAKE_CONCURRENCY) {
      for (const n of await Promise.all(waits.slice(i, i + WAKE_CONCURRENCY).map(wake))) woken += n;
    }
    return woken;
  }

  /**
   * Claims and dispatches one batch; the number of events claimed. An event that fails on its own account is
   * counted, retried later with backoff, and quarantined after its last attempt (domain/events/quarantine.ts), so it
   * never holds up the others; a failure of the platform fails the batch, as before, and counts against no event.
   */
  async function dispatchBatch(client: Client): Promise<number> {
    const events = await claimUndispatchedEvents(db, config.triggers.dispatchBatch, CLAIM_LEASE_MS);
    const lookups: BatchLookups = { workflows: memoByKey(eventTriggeredWorkflows), settings: memoByKey((id: string) => readOrganizationSettings(db, id)) };
    // Organizations out of their budget of event-started runs in this batch: all their due events were deferred.
    const deferred = new Set<string>();
    const settled = new Set<string>();
    try {
      for (const event of events) {
        if (event.organization_id && deferred.has(event.organization_id)) continue;
        try {
          if (event.organization_id) {
            await startRuns(client, event, lookups);
            await startDeliveries(client, event, lookups);
            await wakeWaits(client, event);
          }
          await markEventsDispatched(db, [event.id]);
        } catch (err) {
          if (err instanceof TriggerRunBudgetSpent) {
            const organizationId = event.organization_id!;
            const claimed = events.filter((e) => e.organization_id === organizationId).map((e) => e.id);
            const waiting = await deferOrganizationEvents(db, organizationId, claimed, err.retryAfterSeconds * 1000);
            deferred.add(organizationId);
            deps.logger.info({ eventId: event.id, organizationId, events: waiting, retryAfterSeconds: err.retryAfterSeconds }, err.message);
          } else {
            if (isTransientDispatchError(err)) throw err;
            const failure = await recordDispatchFailure(db, event, err, config.triggers);
            const log = { eventId: event.id, eventType: event.type, organizationId: event.organization_id, attempts: failure.attempts, error: failure.error };
            if (failure.quarantined) deps.logger.error(log, 'event quarantined after its last dispatch attempt');
            else deps.logger.warn(log, 'event dispatch failed; retried later');
          }
        }
        settled.add(event.id);
        Context.current().heartbeat();
      }
    } catch (err) {
      // A platform failure (Temporal or the database unreachable): the rest of the claim is due again at once, for
      // the activity's retry, as if never claimed. Best effort: with the database gone the lease ends it instead.
      const unsettled = events.filter((e) => !settled.has(e.id) && !(e.organization_id && deferred.has(e.organization_id)));
      await releaseClaimedEvents(db, unsettled.map((e) => e.id)).catch(() => undefined);
      throw err;
    }
    return events.length;
  }

  return {
    /**
     * Dispatches until the outbox is empty, then polls it every EVENTS_DISPATCH_INTERVAL for up to `waitMs`;
     * returns as soon as a batch was dispatched and the outbox is empty again, or when the wait is over.
     */
    async dispatchOutboxEvents(input: { waitMs: number }): Promise<{ dispatched: number }> {
      const ctx = Context.current();
      const deadline = Date.now() + input.waitMs;
      // Woken by the outbox's notice (migration 1220) rather than at the next poll: a waiting run resumes in ms.
      const notices = await listenForOutboxEvents(db);
      let dispatched = 0;
      try {
        for (;;) {
          const n = await dispatchBatch(ctx.client);
          dispatched += n;
          ctx.heartbeat();
          // A backlog is drained in one call, but never past the wait (the activity's time limit is 2 minutes).
          if (n > 0 && Date.now() < deadline) continue;
          if (dispatched > 0 || Date.now() >= deadline) return { dispatched };
          const pause = Math.min(config.triggers.dispatchIntervalMs, Math.max(0, deadline - Date.now()));
          await Promise.race([notices ? notices.wait(pause) : ctx.sleep(pause), ctx.cancelled]);
        }
      } finally {
        await notices?.close();
      }
    },
  };
}
