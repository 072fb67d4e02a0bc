import type { Context } from 'koa';
import type { Logger } from '../../lib/logger';
import type { OrganizationContext, Principal } from './route';

/**
 * Once a request is authenticated, its logger (`ctx.state.log`, created with the request id by requestContext) is
 * replaced by a child that also carries who is acting and for which organization, so every line a handler or
 * service logs can be traced to a tenant and a user without repeating those fields by hand.
 */
export function enrichRequestLog(ctx: Context, principal: Principal | null, organization: OrganizationContext | null): void {
  const log = ctx.state.log as Logger | undefined;
  if (!log || !principal) return;
  const organizationId =
    organization?.organizationId ??
    (principal.kind === 'user' ? principal.activeOrganizationId : principal.organizationId) ??
    null;
  ctx.state.log = log.child(
    principal.kind === 'user'
      ? { userId: principal.userId, organizationId }
      : { apiKeyId: principal.apiKeyId, organizationId },
  );
}
