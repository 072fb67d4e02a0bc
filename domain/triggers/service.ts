import { createHash } from 'node:crypto';
import { AppError, notFound } from '../../lib/errors';
import type { SecretBox } from '../../lib/secrets';
import { parseTriggers, type ManualConfig, type ParsedTrigger, type WebhookConfig } from '../../lib/triggers/config';
import { generateSigningSecret } from '../../lib/triggers/standardWebhooks';
import type { AppDeps } from '../deps';
import type { Actor, OrganizationContext } from '../principals';
import type { TriggerView, WebhookSecretView, WorkflowTriggersView } from './schemas';
import { findWorkflowWithCurrent, listSecrets, upsertSecret, type WorkflowWithCurrent } from './queries';
import { describeSchedule, scheduleIdFor, syncSchedules } from './schedules';
import { recordAudit } from '../audit/record';
import { readOrganizationNames } from '../organizations/settingsReader';

/**
 * The triggers of one workflow as the API shows them (state, next fire times, webhook URL and whether its secret
 * exists), webhook secrets (generated here, shown once, rotatable), and a manual re-sync of the schedules.
 */
export function createTriggersService(deps: AppDeps, box: SecretBox) {
  const { db, config } = deps;

  async function load(organizationId: string, workflowId: string): Promise<WorkflowWithCurrent> {
    const workflow = await findWorkflowWithCurrent(db, organizationId, workflowId);
    if (!workflow) throw notFound('workflow');
    return workflow;
  }

  function assertCanManage(org: OrganizationContext, actor: Actor | null, workflow: WorkflowWithCurrent): void {
    if (org.role === 'owner' || org.role === 'admin') return;
    if (org.role === 'member' && actor?.type === 'user' && workflow.created_by === actor.id) return;
    throw new AppError('FORBIDDEN', 'members can only manage the triggers of the workflows they created');
  }

  async function view(workflow: WorkflowWithCurrent, trigger: ParsedTrigger, secrets: Map<string, Date>, orgSlug: string): Promise<TriggerView> {
    const firing = workflow.status === 'active' && trigger.enabled;
    const base = { key: trigger.key, type: trigger.type, enabled: trigger.enabled, state: firing ? ('active' as const) : ('inactive' as const) };
    switch (trigger.type) {
      case 'schedule': {
        const schedule = workflow.status === 'active' || workflow.status === 'paused'
          ? await describeSchedule(deps, scheduleIdFor(workflow.id, trigger.key)).catch(() => null)
          : null;
        return {
          ...base,
          config: trigger.config,
          schedule: schedule ?? { scheduleId: null, state: 'none', nextFireTimes: [], recentFireTimes: [] },
          nextFireTimes: firing ? (schedule?.nextFireTimes ?? []) : [],
        };
      }
      case 'webhook': {
        const c = trigger.config as WebhookConfig;
        const created = secrets.get(trigger.key);
        return {
          ...base,
          config: c,
          url: `${config.http.publicUrl.replace(/\/$/, '')}/api/hooks/${orgSlug}/${c.path}`,
          method: c.method,
          authentication: c.authentication,
          secret: c.authentication === 'none' ? null : { configured: created !== undefined, createdAt: created ? new Date(created).toISOString() : null },
        };
      }
      case 'manual':
        return { ...base, config: trigger.config as ManualConfig };
      case 'event':
        return { ...base, config: trigger.config };
    }
  }

  return {
    async list(organizationId: string, workflowId: string): Promise<WorkflowTriggersView> {
      const workflow = await load(organizationId, workflowId);
      const secrets = new Map((await listSecrets(db, organizationId, workflowId)).map((s) => [s.trigger_key, s.created_at]));
      const slug = (await readOrganizationNames(db, organizationId))?.slug ?? organizationId;
      const data = await Promise.all(parseTriggers(workflow.definition.triggers).map((t) => view(workflow, t, secrets, slug)));
      return { workflow_id: workflowId, status: workflow.status, data };
    },

    /** Generates (or replaces) a webhook trigger's secret and returns it; it is never shown again. */
    async rotateSecret(org: OrganizationContext, actor: Actor | null, workflowId: string, key: string): Promise<WebhookSecretView> {
      const workflow = await load(org.organizationId, workflowId);
      assertCanManage(org, actor, workflow);
      const trigger = parseTriggers(workflow.definition.triggers).find((t) => t.key === key);
      if (!trigger) throw notFound('trigger');
      if (trigger.type !== 'webhook' || (trigger.config as WebhookConfig).authentication === 'none') {
        throw new AppError('INVALID_STATE', 'only webhook triggers with bearer or hmac authentication have a secret');
      }
      const secret = generateSigningSecret();
      const replaced = (await listSecrets(db, org.organizationId, workflowId)).some((s) => s.trigger_key === key);
      await db.transaction(async (trx) => {
        await upsertSecret(trx, {
          workflowId,
          triggerKey: key,
          organizationId: org.organizationId,
          hash: createHash('sha256').update(secret).digest('hex'),
          sealed: box.seal(secret),
          createdBy: actor?.type === 'user' ? actor.id : null,
        });
        if (actor) {
          await recordAudit(trx, {
            organizationId: org.organizationId,
            actor,
            action: replaced ? 'trigger.secret_rotated' : 'trigger.secret_created',
            target: { type: 'workflow', id: workflowId },
            after: { trigger: key },
          });
        }
      });
      return {
        trigger: key,
        authentication: (trigger.config as WebhookConfig).authentication,
        secret,
        rotated: replaced,
        note: 'store this secret now: it is not shown again. bearer: send "Authorization: Bearer <secret>"; hmac: sign per Standard Webhooks with it',
      };
    },

    async sync(org: OrganizationContext, actor: Actor | null, workflowId: string): Promise<void> {
      const workflow = await load(org.organizationId, workflowId);
      assertCanManage(org, actor, workflow);
      await syncSchedules(deps, { organizationId: org.organizationId, workflowId, status: workflow.status, definition: workflow.definition });
    },
  };
}

export type TriggersService = ReturnType<typeof createTriggersService>;
