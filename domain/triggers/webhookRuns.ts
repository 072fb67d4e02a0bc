import { randomUUID } from 'node:crypto';
import { AppError } from '../../lib/errors';
import type { ParsedTrigger } from '../../lib/triggers/config';
import { mapParameters } from '../../lib/triggers/mapping';
import { parseRateRule } from '../../lib/rateRule';
import type { AppDeps } from '../deps';
import type { RateLimiter } from '../ratelimit/limiter';
import type { RunExecutions } from '../runs/executions';
import { prepareTriggeredRun, startOrFail } from '../runs/launch';
import { claimReceipt, purgeOldReceipts, releaseReceipt, type WorkflowWithCurrent } from './queries';

/** All of an organization's inbound webhook calls (TRIGGERS_WEBHOOK_ORGANIZATION_RATE_LIMIT). */
const ORGANIZATION_BUCKET = 'triggers.webhook.organization';

export interface WebhookMatch {
  organizationId: string;
  workflow: WorkflowWithCurrent;
  trigger: ParsedTrigger & { type: 'webhook' };
}

/** What the HTTP side read of one authenticated call (api/triggers/webhookIngress.ts). */
export interface WebhookCall {
  method: string;
  /** the delivery key (a signed webhook-id, or `key:<Idempotency-Key>`), null without one */
  deliveryKey: string | null;
  /** the request's fingerprint: a delivery key reused for another request is refused */
  requestHash: string;
  body: unknown;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  requestId?: string;
}

/**
 * The domain side of inbound webhook triggers: their rate limits, and the run a call starts (docs/triggers.md). A
 * repeated delivery (same delivery key) completes and answers the first delivery's run instead of starting another.
 */
export function createWebhookRuns(deps: AppDeps, limiter: RateLimiter, executions: RunExecutions) {
  const { db, config } = deps;
  let lastPurge = 0;

  return {
    /**
     * Counts the call against the trigger's limit and, within it, the organization's: a flood of one hook spends at
     * most its own limit of what the organization's other hooks share (every hit counts, refused ones too). 429.
     */
    async admit(match: WebhookMatch): Promise<void> {
      const { workflow, trigger } = match;
      const rule = trigger.config.rateLimit ? parseRateRule(trigger.config.rateLimit) : config.triggers.webhookRateLimit;
      const organizationRule = config.triggers.webhookOrganizationRateLimit;
      const triggerDecision = await limiter.hit([{ bucket: 'triggers.webhook', key: `${workflow.id}:${trigger.key}`, rule }]);
      const decision = triggerDecision.allowed
        ? await limiter.hit([{ bucket: ORGANIZATION_BUCKET, key: match.organizationId, rule: organizationRule }])
        : triggerDecision;
      if (decision.allowed) return;
      const what = decision.exceeded.includes(ORGANIZATION_BUCKET)
        ? `this organization's webhooks accept at most ${organizationRule?.limit} calls per window together`
        : `this webhook accepts at most ${rule?.limit} calls per window`;
      throw new AppError('RATE_LIMITED', `${what}; retry in ${decision.retryAfterSeconds} s`, undefined, {
        'Retry-After': String(decision.retryAfterSeconds),
      });
    },

    /** Starts (or, for a repeated delivery, completes) the call's run; its id and whether it was a repeat. */
    async start(match: WebhookMatch, call: WebhookCall): Promise<{ runId: string; replayed: boolean }> {
      const { workflow, trigger } = match;
      if (Date.now() - lastPurge > 60_000) {
        lastPurge = Date.now();
        purgeOldReceipts(db).catch(() => undefined);
      }
      let runId: string = randomUUID();
      const receiptKey = { workflowId: workflow.id, triggerKey: trigger.key, deliveryKey: call.deliveryKey ?? '' };
      let replayed = false;
      if (call.deliveryKey) {
        const prior = await claimReceipt(db, { ...receiptKey, requestHash: call.requestHash, runId });
        if (prior) {
          if (prior.request_hash !== call.requestHash) {
            throw new AppError('IDEMPOTENCY_CONFLICT', 'this delivery key was already used for a different request');
          }
          // The receipt alone does not prove the run exists: the instance that claimed it may have died (or still be
          // working) between the claim, the run row and the execution start. Completing the same run id here is
          // idempotent (the row insert and the REJECT_DUPLICATE start converge on one run), so the sender's retry
          // of a delivery that got no answer is never lost and never starts a second run.
          runId = prior.run_id;
          replayed = true;
        }
      }
      try {
        const outcome = await prepareTriggeredRun(deps, {
          organizationId: match.organizationId,
          workflowId: workflow.id,
          runId,
          trigger: { type: 'webhook', triggerId: trigger.key, method: call.method, path: trigger.config.path, ...(call.deliveryKey ? { deliveryKey: call.deliveryKey } : {}) },
          parameters: (declared) =>
            mapParameters(trigger.config.parameters, { body: call.body, query: call.query, headers: call.headers }, call.body, declared.map((d) => d.name)),
          priority: trigger.config.priority,
          onInvalidParameters: 'refuse',
        });
        if (outcome.kind === 'refused') throw new AppError(outcome.code, outcome.message, outcome.problems);
        // The workflow's singleton control answered an open run of the same key: the sender gets that run, and the
        // receipt (naming a run that was never created) goes, so a repeat of the delivery asks again.
        if (outcome.kind === 'joined') {
          if (call.deliveryKey && !replayed) await releaseReceipt(db, receiptKey);
          return { runId: outcome.row.id, replayed: false };
        }
        // The request id travels into the run's memo and worker lines.
        if (outcome.kind === 'ready') await startOrFail(deps, executions, outcome.input, { requestId: call.requestId });
      } catch (err) {
        if (call.deliveryKey && !replayed) await releaseReceipt(db, receiptKey);
        throw err;
      }
      return { runId, replayed };
    },
  };
}

export type WebhookRuns = ReturnType<typeof createWebhookRuns>;
