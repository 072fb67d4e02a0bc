import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { Config } from '../../lib/config';
import type { DeliveryInput } from '../../lib/triggers/types';
import { tenantPriority } from '../../lib/tenantPriority';

/**
 * Starting a webhook delivery's workflow (workflows/triggers/events.ts#webhookDeliveryWorkflow), for the dispatcher
 * (activities/events/dispatch.ts) and for manual redelivery (./service.ts). One workflow per delivery row, its id
 * derived from the row's, so a second start of the same delivery is a no-op.
 */
export const DELIVERY_WORKFLOW_TYPE = 'webhookDeliveryWorkflow';

export function deliveryWorkflowId(deliveryId: string): string {
  return `loom-webhook-delivery-${deliveryId}`;
}

/** `organizationId`: whose webhook it is, its executions' fairness key (lib/tenantPriority.ts). */
export async function startDelivery(client: Client, taskQueue: string, organizationId: string, input: DeliveryInput): Promise<void> {
  try {
    await client.workflow.start(DELIVERY_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: deliveryWorkflowId(input.deliveryId),
      args: [input],
      priority: tenantPriority(organizationId),
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

export function deliveryInput(config: Config, deliveryId: string): DeliveryInput {
  const d = config.triggers.delivery;
  return {
    deliveryId,
    maxAttempts: d.maxAttempts,
    initialIntervalMs: d.initialIntervalMs,
    maxIntervalMs: d.maxIntervalMs,
    timeoutMs: d.timeoutMs,
  };
}
