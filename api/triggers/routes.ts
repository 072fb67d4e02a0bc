import { z } from 'zod';
import type { ErrorCode } from '../../lib/errors';
import { defineRoute, type HttpMethod, type RouteDef } from '../http/route';
import type { createApprovals } from '../../domain/triggers/approvals';
import { runOutcomeSchema } from '../../domain/runs/schemas';
import { webhookSecretSchema, workflowTriggersSchema } from '../../domain/triggers/schemas';
import type { TriggersService } from '../../domain/triggers/service';

/** Routes of the triggers domain (docs/triggers.md). Thin: the rules are in the services. */

const hookParams = z.object({
  organization: z.string().max(100).describe('organization id or slug'),
  path: z.string().max(100).describe("the webhook trigger's path (one segment)"),
});
const workflowParams = z.object({ id: z.string().max(100).describe('workflow id (UUID)') });
const triggerParams = workflowParams.extend({ key: z.string().max(64).describe("the trigger's key: its id, else <type>-<position>") });
const runParams = workflowParams.extend({ run_id: z.string().max(100).describe('run id (UUID)') });

/** Without a wait: the run's id; with `Prefer: wait=` and a finished run, its status, results and errors too. */
const accepted = runOutcomeSchema.partial().required({ run_id: true, workflow_id: true }).extend({
  replayed: z.boolean().optional().describe('true when this delivery key was seen before: no new run was started'),
});

const HOOK_METHODS: HttpMethod[] = ['post', 'put', 'patch', 'get', 'delete'];
const HOOK_ERRORS: ErrorCode[] = [
  'NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'CONFLICT',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'UNAUTHORIZED',
  'INVALID_JSON',
  'UNSUPPORTED_MEDIA_TYPE',
  'IDEMPOTENCY_CONFLICT',
  'INVALID_PARAMETERS',
  'INVALID_STATE',
  'SERVICE_UNAVAILABLE',
  'ENGINE_MISCONFIGURED',
];

export function triggerRoutes(
  service: TriggersService,
  approvals: ReturnType<typeof createApprovals>,
  receive: (ctx: import('koa').Context, params: { organization: string; path: string }) => Promise<import('../http/route').RouteResult>,
): RouteDef[] {
  const tags = ['triggers'];
  const hooks = HOOK_METHODS.map((method) =>
    defineRoute({
      method,
      path: '/api/hooks/{organization}/{path}',
      operationId: `receiveWebhook${method[0]!.toUpperCase()}${method.slice(1)}`,
      summary: `Start a run through a webhook trigger (${method.toUpperCase()})`,
      description:
        "Public URL of an active workflow's webhook trigger; only the trigger's `method` is answered (others: 405). " +
        'Authentication by the trigger: `bearer` (Authorization: Bearer <secret>), `hmac` (Standard Webhooks headers ' +
        'webhook-id, webhook-timestamp, webhook-signature; 5 minute tolerance; a replayed webhook-id starts nothing), or ' +
        '`none` (explicit opt-in). Body (JSON, form or text), query and mapped headers become run parameters ' +
        '(docs/triggers.md#parameter-mapping). `Idempotency-Key` (or the webhook-id) makes retries start one run: ' +
        'the repeat answers 200 with the first run id and `Idempotent-Replayed: true`. **Run and wait**: with ' +
        '`Prefer: wait=<seconds>` (capped at RUN_WAIT_MAX) the answer waits for the run, a repeat included: 200 with ' +
        'its `status`, `results` and `errors` once it has finished (`Preference-Applied: wait=N`), else 202 with its ' +
        'current `status` (docs/triggers.md#run-and-wait).',
      tags,
      auth: 'public',
      params: hookParams,
      bodyFormats: ['raw'],
      rawBodyDoc: method === 'get' || method === 'delete' ? undefined : { contentType: 'application/json', schema: { type: 'object' }, description: 'any JSON (or a form / text)' },
      responses: {
        202: { description: 'the run was created (or, with a wait, is still open); Location points at it', schema: accepted },
        200: { description: 'with a wait: the finished run (status, results, errors); else a repeated delivery: the first run, nothing new started', schema: accepted },
      },
      errors: HOOK_ERRORS,
      handler: ({ ctx, params }) => receive(ctx, params),
    }),
  );

  return [
    ...hooks,
    defineRoute({
      method: 'get',
      path: '/api/v1/workflows/{id}/triggers',
      operationId: 'listWorkflowTriggers',
      summary: "The workflow's triggers with their state, next fire times and webhook URLs",
      tags,
      auth: 'org',
      permission: 'workflow:read',
      params: workflowParams,
      responses: {
        200: {
          description: 'the triggers of the current version',
          schema: workflowTriggersSchema,
        },
      },
      handler: async ({ organization, params }) => ({ body: await service.list(organization.organizationId, params.id) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/workflows/{id}/triggers/{key}/secret',
      operationId: 'rotateWebhookTriggerSecret',
      summary: "Generate or rotate a webhook trigger's secret (shown once)",
      description:
        'The answer holds the new secret (`whsec_...`); it is never shown again. The previous secret stops working at ' +
        'once. Owners and admins, or the member who created the workflow.',
      tags,
      auth: 'org',
      permission: 'workflow:write',
      params: triggerParams,
      responses: {
        201: {
          description: 'the new secret',
          schema: webhookSecretSchema,
        },
      },
      errors: ['INVALID_STATE'],
      handler: async ({ organization, actor, params }) => ({
        status: 201,
        body: await service.rotateSecret(organization, actor, params.id, params.key),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/workflows/{id}/triggers/sync',
      operationId: 'syncWorkflowTriggers',
      summary: "Re-create the workflow's Temporal Schedules from its status and current version",
      description: 'Repairs schedules after a failed change notification (e.g. Temporal was unreachable). Idempotent.',
      tags,
      auth: 'org',
      permission: 'workflow:write',
      params: workflowParams,
      responses: { 200: { description: 'the triggers after the sync', schema: workflowTriggersSchema } },
      handler: async ({ organization, actor, params }) => {
        await service.sync(organization, actor, params.id);
        return { body: await service.list(organization.organizationId, params.id) };
      },
    }),
    ...(['approve', 'reject'] as const).map((action) =>
      defineRoute({
        method: 'post',
        path: `/api/v1/workflows/{id}/runs/{run_id}/${action}`,
        operationId: `${action}Run`,
        summary: action === 'approve' ? 'Approve a run that awaits approval' : 'Reject a run that awaits approval',
        description:
          "For manual runs whose trigger has `requireApproval`. A person decides: API keys get HUMAN_REQUIRED. The caller's role must be one of the trigger's " +
          "`approvers`; the user who started the run (for a run started with an API key, the key's creator) may not decide unless `allowSelfApproval`. " +
          (action === 'approve' ? 'The run then starts its nodes.' : 'The run ends `cancelled` (error APPROVAL_REJECTED).') +
          ' Audited as run.approved / run.rejected.',
        tags,
        auth: 'org',
        permission: 'run:read',
        params: runParams,
        body: z.strictObject({
          comment:
            action === 'reject'
              ? z.string().trim().min(1).max(2000).describe('why (required)')
              : z.string().trim().max(2000).optional().describe('optional note'),
        }),
        responses: { 200: { description: 'the run', schema: z.object({ id: z.string(), status: z.string() }).catchall(z.unknown()) } },
        errors: ['INVALID_STATE', 'HUMAN_REQUIRED'],
        handler: async ({ organization, actor, params, body }) => ({
          body: await approvals.decide(
            organization,
            actor,
            params.id,
            params.run_id,
            action === 'approve' ? 'approved' : 'rejected',
            (body as { comment?: string }).comment ?? null,
          ),
        }),
      }),
    ),
  ];
}
