import { z } from 'zod';

/** The triggers of a workflow as the API shows them (docs/triggers.md); the views below are derived from these. */

export const triggerViewSchema = z
  .object({
    key: z.string(),
    type: z.enum(['schedule', 'webhook', 'event', 'manual']),
    enabled: z.boolean(),
    state: z.enum(['active', 'inactive']).describe('active: fires now (workflow active and trigger enabled)'),
    config: z.record(z.string(), z.unknown()).describe('the config with defaults applied'),
    nextFireTimes: z.array(z.string()).optional().describe('schedule: the next (up to 5) fire times, from Temporal'),
    schedule: z
      .object({ scheduleId: z.string().nullable(), state: z.string(), nextFireTimes: z.array(z.string()), recentFireTimes: z.array(z.string()) })
      .optional(),
    url: z.string().optional().describe('webhook: the public URL'),
    method: z.string().optional(),
    authentication: z.string().optional(),
    secret: z.object({ configured: z.boolean(), createdAt: z.string().nullable() }).nullable().optional(),
  })
  .catchall(z.unknown())
  .meta({ id: 'TriggerView', description: 'A trigger of a workflow as it stands: its config and state, and per type its schedule or URL' });

export const workflowTriggersSchema = z.object({ workflow_id: z.string(), status: z.string(), data: z.array(triggerViewSchema) });

export const webhookSecretSchema = z.object({
  trigger: z.string(),
  authentication: z.string(),
  secret: z.string(),
  rotated: z.boolean(),
  note: z.string(),
});

export type TriggerView = z.infer<typeof triggerViewSchema>;
export type WorkflowTriggersView = z.infer<typeof workflowTriggersSchema>;
/** A webhook trigger's new secret: shown once. */
export type WebhookSecretView = z.infer<typeof webhookSecretSchema>;
