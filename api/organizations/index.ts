import type { Context } from 'koa';
import type { AppDeps, Domain } from '../domain';
import type { ApiKeyPrincipal, OrganizationContext, Principal } from '../http/route';
import { isRole } from '../../lib/permissions';

export interface OrganizationsDomain extends Domain {
  /** An organization API key presented by the request, or null when none is presented. */
  authenticateApiKey(ctx: Context): Promise<ApiKeyPrincipal | null>;
  resolveOrganization(principal: Principal, organizationId: string, ctx: Context): Promise<OrganizationContext | null>;
}

// Placeholder until the organizations domain lands: memberships only, no API keys.
export function createOrganizationsDomain(deps: AppDeps): OrganizationsDomain {
  return {
    routes: [],
    async authenticateApiKey() {
      return null;
    },
    async resolveOrganization(principal, organizationId) {
      if (principal.kind === 'apiKey') {
        return principal.organizationId === organizationId ? { organizationId, role: principal.role } : null;
      }
      const row = await deps.db('memberships')
        .where({ organization_id: organizationId, user_id: principal.userId })
        .first('role');
      return row && isRole(row.role) ? { organizationId, role: row.role } : null;
    },
  };
}
