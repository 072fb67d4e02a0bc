import { z } from 'zod';
import { decodeCursorOrThrow, pageQuerySchema, pageSchema, toPage } from '../../lib/pagination';
import type { AppDeps } from '../../domain/deps';
import { defineRoute, type RouteDef } from '../http/route';
import { listAccountEvents, listAuditLogs, type AuditRow } from '../../domain/audit/queries';

const auditEntry = z.object({
  id: z.uuid(),
  organizationID: z.uuid().nullable().describe('null for account events'),
  actor: z
    .object({ type: z.enum(['user', 'apiKey', 'system', 'anonymous']), id: z.string().nullable() })
    .describe('`anonymous`: not signed in (a login attempt, a reset request); the IP and user agent say who'),
  action: z.string(),
  target: z.object({ type: z.string(), id: z.string().nullable() }).nullable(),
  changes: z.object({ before: z.unknown(), after: z.unknown() }).nullable().describe('changed fields only; secrets masked'),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  createdAt: z.string(),
});

function serialize(row: AuditRow): z.infer<typeof auditEntry> {
  return {
    id: row.id,
    organizationID: row.organization_id,
    actor: { type: row.actor_type as z.infer<typeof auditEntry>['actor']['type'], id: row.actor_id },
    action: row.action,
    target: row.target_type ? { type: row.target_type, id: row.target_id } : null,
    changes: (row.changes as { before: unknown; after: unknown } | null) ?? null,
    ip: row.ip,
    userAgent: row.user_agent,
    createdAt: row.created_at.toISOString(),
  };
}

export function auditRoutes(deps: AppDeps): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/auth/security-events',
      operationId: 'listSecurityEvents',
      summary: 'List the security events of your own account, newest first',
      description:
        'Account events, which belong to no organization: `auth.login_succeeded`, `auth.login_failed` (also ' +
        'attempts by others with your e-mail), `auth.refresh_reuse_detected`, `auth.password_changed`, ' +
        '`auth.password_reset_requested`, `auth.password_reset_completed`, `auth.logout`, `auth.session_revoked`, ' +
        '`auth.sessions_revoked`; each with actor, IP and user agent. Filter with `action` (exact, or `auth.*`).',
      tags: ['auth', 'audit'],
      auth: 'user',
      query: pageQuerySchema.extend({ action: z.string().max(100).optional() }),
      responses: { 200: { description: 'a page of events', schema: pageSchema(auditEntry) } },
      handler: async ({ query, principal }) => {
        const after = decodeCursorOrThrow(query.cursor);
        const { userId } = principal;
        const rows = await listAccountEvents(deps.db, userId, { action: query.action }, query.limit, after);
        const page = toPage(rows, query.limit, (r) => ({ sort: r.sort_key, id: r.id }));
        return { body: { data: page.data.map(serialize), nextCursor: page.nextCursor } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/organizations/{id}/audit-logs',
      operationId: 'listAuditLogs',
      summary: 'List audit log entries of the organization, newest first',
      description:
        'Every mutating action with its actor (user or API key), action, target, IP, user agent and time; ' +
        'changed settings carry a before/after with secrets masked. Filter with `action` (exact, or a family ' +
        'such as `member.*`), `actor` (user or API key id) and the time range [`from`, `to`).',
      tags: ['audit'],
      auth: 'org',
      organizationFrom: 'path',
      permission: 'audit:read',
      params: z.object({ id: z.uuid() }),
      query: pageQuerySchema.extend({
        action: z.string().max(100).optional(),
        actor: z.string().max(64).optional(),
        from: z.iso.datetime({ offset: true }).optional(),
        to: z.iso.datetime({ offset: true }).optional(),
      }),
      responses: { 200: { description: 'a page of entries', schema: pageSchema(auditEntry) } },
      handler: async ({ query, organization }) => {
        const after = decodeCursorOrThrow(query.cursor);
        const rows = await listAuditLogs(
          deps.db,
          organization.organizationId,
          {
            action: query.action,
            actor: query.actor,
            from: query.from ? new Date(query.from) : undefined,
            to: query.to ? new Date(query.to) : undefined,
          },
          query.limit,
          after,
        );
        const page = toPage(rows, query.limit, (r) => ({ sort: r.sort_key, id: r.id }));
        return { body: { data: page.data.map(serialize), nextCursor: page.nextCursor } };
      },
    }),
  ];
}
