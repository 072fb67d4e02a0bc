import { ActivityFailure, continueAsNew, isCancellation, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities';
import type { DeliveryInput } from '../../lib/triggers/types';

/**
 * The event dispatcher: one long-running execution per task queue (`loom-event-dispatcher-<queue>`). It calls a
 * long-polling activity that claims undispatched `outbox_events` rows (with a lease), starts the runs of
 * matching event triggers and the deliveries of subscribed webhook endpoints (ids derived from the event, so a
 * re-dispatch after a crash starts nothing twice), marks the rows dispatched, and otherwise polls PostgreSQL every
 * EVENTS_DISPATCH_INTERVAL for up to a minute before returning. Nothing is lost when the API or a worker restarts:
 * the rows stay undispatched until dispatched (a dead dispatcher's lease ends), and this execution lives in Temporal.
 */
const { dispatchOutboxEvents } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

const CALLS_PER_EXECUTION = 200;

export async function eventDispatcherWorkflow(): Promise<void> {
  for (let i = 0; i < CALLS_PER_EXECUTION && !workflowInfo().continueAsNewSuggested; i++) {
    await dispatchOutboxEvents({ waitMs: 60_000 });
  }
  await continueAsNew<typeof eventDispatcherWorkflow>();
}

/**
 * One outgoing webhook delivery: the attempt activity (one HTTP POST, recorded in the delivery log) retried with
 * exponential backoff, then the outcome recorded (endpoint health, auto-disable and the admins' e-mail).
 */
export async function webhookDeliveryWorkflow(input: DeliveryInput): Promise<{ succeeded: boolean }> {
  const { deliverWebhook } = proxyActivities<Activities>({
    startToCloseTimeout: input.timeoutMs + 10_000,
    retry: {
      initialInterval: input.initialIntervalMs,
      backoffCoefficient: 2,
      maximumInterval: input.maxIntervalMs,
      maximumAttempts: input.maxAttempts,
      nonRetryableErrorTypes: ['DELIVERY_REFUSED'],
    },
  });
  const { completeWebhookDelivery, notifyWebhookDisabled } = proxyActivities<Activities>({
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
  });
  let succeeded = true;
  let error: string | null = null;
  try {
    await deliverWebhook({ deliveryId: input.deliveryId });
  } catch (err) {
    if (isCancellation(err) || !(err instanceof ActivityFailure)) throw err;
    succeeded = false;
    error = err.cause?.message ?? err.message;
  }
  const result = await completeWebhookDelivery({ deliveryId: input.deliveryId, succeeded, error });
  if (result.disabledEndpointId) await notifyWebhookDisabled({ deliveryId: input.deliveryId });
  return { succeeded };
}
