import type { AuditInput } from '../../domain/audit/record';
import type { Actor, OrganizationContext } from '../../domain/principals';
import type { RouteDef } from './route';

/**
 * How every organization route that changes something is audited: one table, read by the mount (api/http/mount.ts),
 * which refuses to start with a changing route that is not in it, and by test/unit/architecture/routeAudit.test.ts,
 * which lists the ones missing. Three kinds of entry:
 * - `service`: the domain service records the entry itself, in the transaction of the change, with before/after
 *   (the listed actions; the unit test checks that each one is written somewhere in domain/ or activities/);
 * - `route`: the mount records `action` after the handler answered 2xx, with the actor, IP and user agent, the
 *   target's id (a path parameter or the answer's `id`) and `after` picked from the answer (and request body);
 * - `none`: the route changes nothing the organization owns (a search sent by POST); the reason is required.
 */
export type RouteAuditPolicy =
  | { by: 'service'; actions: readonly string[] }
  | {
      by: 'route';
      action: string;
      target: { type: string; id: { param: string } | { answer: string } };
      /** Fields of the answer (and of the request body) kept as `after`. */
      after?: { answer?: readonly string[]; body?: readonly string[] };
    }
  | { none: string };

const service = (...actions: string[]): RouteAuditPolicy => ({ by: 'service', actions });

export const ROUTE_AUDIT: Readonly<Record<string, RouteAuditPolicy>> = {
  // organizations, members, invitations, settings, API keys
  updateOrganization: service('organization.updated'),
  deleteOrganization: service('organization.deletion_requested'),
  changeOrganizationPlan: service('organization.plan_changed', 'billing.payment_failed', 'billing.payment_recovered'),
  changeMemberRole: service('member.role_changed'),
  removeMember: service('member.removed', 'member.left'),
  transferOwnership: service('organization.ownership_transferred'),
  inviteMember: service('invitation.created'),
  revokeInvitation: service('invitation.revoked'),
  resendInvitation: service('invitation.resent'),
  updateSettings: service('settings.updated'),
  createApiKey: service('api_key.created'),
  revokeApiKey: service('api_key.revoked'),
  registerOrganizationDomain: service('domain.registered'),
  verifyOrganizationDomain: service('domain.verified'),
  deleteOrganizationDomain: service('domain.deleted'),
  // workflows and triggers
  createWorkflow: service('workflow.created'),
  validateWorkflow: { none: 'a dry run: checks the body, stores nothing' },
  updateWorkflow: service('workflow.updated'),
  deleteWorkflow: service('workflow.deleted'),
  activateWorkflow: service('workflow.status_changed'),
  pauseWorkflow: service('workflow.status_changed'),
  archiveWorkflow: service('workflow.status_changed'),
  rotateWebhookTriggerSecret: service('trigger.secret_created', 'trigger.secret_rotated'),
  syncWorkflowTriggers: { by: 'route', action: 'workflow.triggers_synced', target: { type: 'workflow', id: { param: 'id' } } },
  // runs
  startRun: service('run.started'),
  cancelRun: service('run.cancelled'),
  retryRun: service('run.started'),
  rerunRun: service('run.started'),
  approveRun: service('run.approved'),
  rejectRun: service('run.rejected'),
  decideApproval: service('approval.approved', 'approval.rejected'),
  replayDeadLetter: { by: 'route', action: 'dead_letter.replayed', target: { type: 'dead_letter', id: { param: 'id' } } },
  deleteDeadLetter: { by: 'route', action: 'dead_letter.deleted', target: { type: 'dead_letter', id: { param: 'id' } } },
  resetCircuitBreaker: { by: 'route', action: 'circuit_breaker.reset', target: { type: 'tool', id: { param: 'tool' } } },
  // tools: a test run has the tool's effects (a request sent, a file written, an e-mail)
  testTool: { by: 'route', action: 'tool.tested', target: { type: 'tool', id: { param: 'tool' } }, after: { answer: ['status', 'attempts'] } },
  // events and outgoing webhooks
  publishEvent: { by: 'route', action: 'event.published', target: { type: 'event', id: { answer: 'id' } }, after: { answer: ['type'] } },
  redeliverWebhook: service('webhook.redelivered'),
  replayQuarantinedEvent: { by: 'route', action: 'event.replayed', target: { type: 'event', id: { param: 'event_id' } } },
  discardQuarantinedEvent: { by: 'route', action: 'event.discarded', target: { type: 'event', id: { param: 'event_id' } } },
  // content
  uploadContent: {
    by: 'route',
    action: 'content.uploaded',
    target: { type: 'content', id: { answer: 'id' } },
    after: { answer: ['title', 'filename', 'mimeType', 'size', 'sha256', 'version'] },
  },
  updateContent: service('content.updated'),
  deleteContent: service('content.deleted'),
  uploadContentVersion: {
    by: 'route',
    action: 'content.version_uploaded',
    target: { type: 'content', id: { param: 'id' } },
    after: { answer: ['version', 'filename', 'mimeType', 'size', 'sha256'] },
  },
  processContent: { by: 'route', action: 'content.processing_requested', target: { type: 'content', id: { param: 'id' } }, after: { body: ['steps', 'version'] } },
  extractContent: { none: 'extraction on demand: reads the content (permission content:read), stores nothing' },
  embedContent: { by: 'route', action: 'content.embedding_requested', target: { type: 'content', id: { param: 'id' } } },
  putContentEmbedding: { by: 'route', action: 'content.embedding_stored', target: { type: 'content', id: { param: 'id' } }, after: { body: ['model'] } },
  searchContent: { none: 'a search: reads only' },
  queryContent: { none: 'a query: reads only' },
  registerEmbeddingModel: service('embedding_model.created'),
  deleteEmbeddingModel: service('embedding_model.deleted'),
  startContentReembedding: service('content.reembedding_started'),
  startOrganizationExport: service('organization.export_requested'),
  startOrganizationImport: service('organization.import_started'),
  cancelContentReembedding: service('content.reembedding_cancelled'),
  // secrets
  putSecret: service('secret.created', 'secret.updated'),
  deleteSecret: service('secret.deleted'),
};

/** A route the audit table must cover: an organization route with a method that changes things. */
export function isAuditedRoute(def: Pick<RouteDef, 'method' | 'auth'>): boolean {
  return def.auth === 'org' && def.method !== 'get';
}

/** The changing organization routes that have no entry in the table (their operationIds). */
export function unauditedRoutes(routes: readonly Pick<RouteDef, 'method' | 'auth' | 'operationId'>[]): string[] {
  return routes.filter((r) => isAuditedRoute(r) && !ROUTE_AUDIT[r.operationId]).map((r) => r.operationId);
}

const pick = (source: unknown, keys: readonly string[] | undefined): Record<string, unknown> => {
  if (!keys || !source || typeof source !== 'object') return {};
  const record = source as Record<string, unknown>;
  return Object.fromEntries(keys.filter((k) => record[k] !== undefined).map((k) => [k, record[k]]));
};

/** The entry the mount records for a `route` policy after a 2xx answer; null for the other kinds. */
export function routeAuditEntry(
  policy: RouteAuditPolicy | undefined,
  request: { organization: OrganizationContext; actor: Actor; params: unknown; body: unknown },
  answer: unknown,
): AuditInput | null {
  if (!policy || !('by' in policy) || policy.by !== 'route') return null;
  const idSource = 'param' in policy.target.id ? request.params : answer;
  const idKey = 'param' in policy.target.id ? policy.target.id.param : policy.target.id.answer;
  const id = pick(idSource, [idKey])[idKey];
  const after = { ...pick(request.body, policy.after?.body), ...pick(answer, policy.after?.answer) };
  return {
    organizationId: request.organization.organizationId,
    actor: request.actor,
    action: policy.action,
    target: { type: policy.target.type, id: typeof id === 'string' ? id : id === undefined ? null : String(id) },
    ...(Object.keys(after).length ? { after } : {}),
  };
}
