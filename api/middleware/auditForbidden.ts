import type { Context, Next } from 'koa';
import type { Db } from '../../db/knex';
import type { Logger } from '../../lib/logger';
import { recordAudit } from '../../domain/audit/record';
import { createAuditThrottle } from '../../domain/audit/throttle';
import type { Principal } from '../../domain/principals';
import { toAppError } from './errors';

/**
 * Records `access.forbidden` in the organization's audit log when an org-scoped request is refused with 403 (role,
 * own-resource rule, IP allowlist): who tried what, from where. Only callers that belong to the organization are
 * recorded (access.ts sets `ctx.state.organizationId` once the membership or key is known), so an outsider cannot
 * write into another tenant's log; and at most one entry per organization, actor and route per minute and process
 * (domain/audit/throttle.ts), so a member hammering a refused route cannot flood the table. Mounted inside the error
 * middleware, so it sees the error before it becomes the envelope.
 */
export function auditForbidden(db: Db, logger: Logger) {
  const throttle = createAuditThrottle({ windowMs: 60_000, maxKeys: 10_000 });
  return async function auditForbiddenMiddleware(ctx: Context, next: Next): Promise<void> {
    try {
      await next();
    } catch (err) {
      const organizationId = ctx.state.organizationId as string | undefined;
      const principal = ctx.state.principal as Principal | null | undefined;
      if (organizationId && principal) {
        const refusal = toAppError(err);
        if (refusal.status === 403) await record(ctx, organizationId, principal, refusal.code, refusal.message);
      }
      throw err;
    }
  };

  async function record(ctx: Context, organizationId: string, principal: Principal, code: string, message: string): Promise<void> {
    const route = `${ctx.method} ${typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : ctx.path}`;
    const actorId = principal.kind === 'user' ? principal.userId : principal.apiKeyId;
    if (!throttle.allow(`${organizationId} ${actorId} ${route}`)) return;
    try {
      await recordAudit(db, {
        organizationId,
        actor: { type: principal.kind, id: actorId, ip: ctx.ip, userAgent: ctx.get('user-agent') || null },
        action: 'access.forbidden',
        target: { type: 'route', id: route.slice(0, 255) },
        after: { code, message, path: ctx.path.slice(0, 500) },
      });
    } catch (err) {
      // The refusal stands whether or not it could be recorded.
      logger.warn({ err }, 'audit of a forbidden request failed');
    }
  }
}
