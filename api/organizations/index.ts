import type { Context } from 'koa';
import { auditRoutes } from '../audit/routes';
import type { Domain } from '../domain';
import type { ApiKeyPrincipal, OrganizationContext, Principal } from '../../domain/principals';
import type { Services } from '../../domain/services';
import { createAccess } from './access';
import { apiKeyRoutes } from './routes/apiKeys';
import { billingRoutes } from './routes/billing';
import { domainRoutes } from './routes/domains';
import { invitationRoutes } from './routes/invitations';
import { memberRoutes } from './routes/members';
import { organizationRoutes } from './routes/organizations';
import { settingsRoutes } from './routes/settings';
import { transferRoutes } from './routes/transfers';

export interface OrganizationsDomain extends Domain {
  /** An organization API key presented by the request (401 when it is invalid), or null when none is presented. */
  authenticateApiKey(ctx: Context): Promise<ApiKeyPrincipal | null>;
  /** Whether the principal may act in the organization, and with which role (see access.ts). */
  resolveOrganization(principal: Principal, organizationId: string, ctx: Context): Promise<OrganizationContext | null>;
}

export function createOrganizationsDomain(services: Services): OrganizationsDomain {
  const { deps, organizations } = services;
  if (!deps.box.dedicatedKey) {
    deps.logger.warn('SERVICE_ENCRYPTION_KEY is not set: integration secrets are encrypted with a key derived from SERVICE_JWT_SECRET (rotating it makes them unreadable)');
  }
  const access = createAccess({
    db: deps.db,
    logger: deps.logger,
    meter: organizations.meter,
    plans: deps.config.organizations.plans,
    onQuota: organizations.quotaAlerts,
    cacheTtlMs: deps.config.auth.sessionCacheTtlMs,
    changes: services.authChanges,
  });

  return {
    routes: [
      ...organizationRoutes(organizations),
      ...memberRoutes(organizations),
      ...invitationRoutes(organizations),
      ...settingsRoutes(organizations),
      ...apiKeyRoutes(organizations),
      ...domainRoutes(organizations.domains),
      ...billingRoutes(organizations.billing),
      ...transferRoutes(organizations.transfers),
      ...auditRoutes(deps),
    ],
    authenticateApiKey: access.authenticateApiKey,
    resolveOrganization: access.resolveOrganization,
  };
}
