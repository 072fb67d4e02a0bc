import { z } from 'zod';

/**
 * The catalog of events the service emits (docs/events.md): names and payload schemas. Every event is written to
 * `outbox_events` in the transaction of the change that causes it, then dispatched to event triggers and outgoing
 * webhooks. Payload field names follow the content domain's first events (`organizationID` as in the spec).
 * Pure: used by the API (catalog endpoint, trigger validation) and the dispatcher (matching).
 */

const uuid = z.string().describe('UUID');
const isoTime = z.string().describe('ISO 8601 UTC');

export const EVENT_CATALOG = {
  'content.uploaded': {
    description: 'A file was stored: a new content item (version 1) or a new version of one.',
    payload: z.object({
      contentId: uuid,
      organizationID: uuid,
      version: z.number().int(),
      bucket: z.string().describe('the object storage bucket'),
      key: z.string().describe('object key of this version'),
      filename: z.string().nullable(),
      mimeType: z.string(),
      size: z.number().int(),
      sha256: z.string(),
    }),
  },
  'content.processed': {
    description: 'Processing of a content version finished (status processed or failed).',
    payload: z.object({
      contentId: uuid,
      organizationID: uuid,
      version: z.number().int(),
      jobId: uuid,
      status: z.enum(['processed', 'failed']),
      steps: z.record(z.string(), z.string()).describe('step name -> final state'),
      bucket: z.string(),
      derived: z.record(z.string(), z.string()).describe('derived artefact -> object key'),
    }),
  },
  'content.deleted': {
    description: 'A content item and all its versions were deleted (objects are removed asynchronously).',
    payload: z.object({
      contentId: uuid,
      organizationID: uuid,
      bucket: z.string(),
      prefix: z.string().describe('object key prefix of the removed objects'),
      versions: z.number().int(),
    }),
  },
  'run.completed': {
    description: 'A workflow run finished successfully.',
    payload: runPayload(),
  },
  'run.failed': {
    description: 'A workflow run failed (errors holds the first errors).',
    payload: runPayload(),
  },
  'member.added': {
    description: 'A user joined the organization (accepted an invitation).',
    payload: z.object({ organizationID: uuid, userId: uuid, role: z.string(), via: z.enum(['invitation']) }),
  },
  'member.removed': {
    description: 'A member was removed, or left.',
    payload: z.object({ organizationID: uuid, userId: uuid, role: z.string(), reason: z.enum(['removed', 'left']) }),
  },
  'organization.quota_warning': {
    description: 'The organization used 80% of a monthly quota (once per quota and month); owners and admins are mailed too.',
    payload: z.object({ organizationID: uuid, quota: z.enum(['api_calls']), period: z.string().describe('YYYY-MM, UTC'), used: z.number().int(), limit: z.number().int() }),
  },
  'organization.quota_exceeded': {
    description: 'The organization reached a monthly quota (once per quota and month): requests are refused with QUOTA_EXCEEDED until the next month.',
    payload: z.object({ organizationID: uuid, quota: z.enum(['api_calls']), period: z.string().describe('YYYY-MM, UTC'), used: z.number().int(), limit: z.number().int() }),
  },
  'approval.requested': {
    description: 'An approval node of a run waits for people to decide (GET /api/v1/approvals/{id}); approvers are mailed too.',
    payload: z.object({
      approvalId: uuid,
      organizationID: uuid,
      runId: uuid,
      workflow_id: uuid,
      nodeId: z.string(),
      approverRole: z.string().nullable().describe('members of at least this role may decide'),
      approverUsers: z.array(uuid).describe('these users may decide'),
      required: z.number().int().describe('approvals needed'),
      expiresAt: isoTime,
      link: z.string().describe('the page where a person decides'),
    }),
  },
  'approval.decided': {
    description: 'An approval reached its final state: approved, rejected, timed out or cancelled.',
    payload: z.object({
      approvalId: uuid,
      organizationID: uuid,
      runId: uuid,
      workflow_id: uuid,
      nodeId: z.string(),
      status: z.enum(['approved', 'rejected', 'timed_out', 'cancelled']),
      decidedBy: z.array(uuid).describe('who decided, in order'),
    }),
  },
} as const;

function runPayload() {
  return z.object({
    runId: uuid,
    workflow_id: uuid,
    organizationID: uuid,
    workflowVersion: z.number().int(),
    status: z.enum(['completed', 'failed']),
    trigger: z.string().describe('type of the trigger that started the run'),
    completedAt: isoTime,
    errors: z.array(z.object({ node: z.string().nullable(), code: z.string(), message: z.string() })).describe('at most 5'),
    chainDepth: z.number().int().describe('how many event-triggered runs led to this one (loops stop at 5)'),
  });
}

export type CatalogEventType = keyof typeof EVENT_CATALOG;

/** Custom events published by API clients: `custom.<word>(.<word>)*`, at most 100 characters (the stored type), any JSON object as payload. */
export const CUSTOM_EVENT_TYPE = /^custom\.[a-z0-9_]{1,50}(\.[a-z0-9_]{1,50}){0,4}$/;

export const EVENT_SOURCES = ['content', 'run', 'member', 'custom'] as const;

/** Event chains (run events triggering runs that emit run events...) stop at this depth. */
export const MAX_CHAIN_DEPTH = 5;

export function isCatalogEvent(type: string): type is CatalogEventType {
  return Object.prototype.hasOwnProperty.call(EVENT_CATALOG, type);
}

/** Webhook endpoint subscriptions: `*`, an exact name, or a prefix pattern like `content.*`. */
export function subscriptionMatches(pattern: string, type: string): boolean {
  if (pattern === '*' || pattern === type) return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return false;
}

/** An event trigger `{ source, event, bucket }` against an event (`event` may be `*` or the full name). */
export function eventTriggerMatches(
  config: { source: string; event: string; bucket?: string },
  type: string,
  payload: Record<string, unknown>,
): boolean {
  const dot = type.indexOf('.');
  const source = type.slice(0, dot);
  const name = type.slice(dot + 1);
  if (config.source !== source) return false;
  if (config.event !== '*' && config.event !== name && config.event !== type) return false;
  if (config.bucket !== undefined && payload.bucket !== config.bucket) return false;
  return true;
}

/** The catalog as JSON (names, descriptions, JSON Schemas of the payloads), for GET /api/v1/events/catalog. */
export function catalogDocument(): { type: string; description: string; payloadSchema: unknown }[] {
  return Object.entries(EVENT_CATALOG).map(([type, entry]) => ({
    type,
    description: entry.description,
    payloadSchema: z.toJSONSchema(entry.payload),
  }));
}
