import { addLogContext } from '../../lib/logContext';
import type { OrganizationContext, Principal } from './route';

/**
 * Once a request is authenticated, who is acting and for which organization join its log context, so every line
 * logged from then on (by a handler's `ctx.state.log` or a service's `deps.logger`) can be traced to a tenant and a
 * user without repeating those fields by hand.
 */
export function enrichRequestLog(principal: Principal | null, organization: OrganizationContext | null): void {
  if (!principal) return;
  const organizationId =
    organization?.organizationId ??
    (principal.kind === 'user' ? principal.activeOrganizationId : principal.organizationId) ??
    null;
  addLogContext(
    principal.kind === 'user'
      ? { userId: principal.userId, organizationId }
      : { apiKeyId: principal.apiKeyId, organizationId },
  );
}
