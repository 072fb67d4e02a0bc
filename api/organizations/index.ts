import type { Context } from 'koa';
import { createBillingProvider } from '../../domain/billing/providers';
import { createBillingService } from '../../domain/billing/service';
import { auditRoutes } from '../audit/routes';
import type { Domain } from '../domain';
import type { AppDeps } from '../../domain/deps';
import type { AuthChangeListener } from '../../domain/auth/authChangeListener';
import type { ApiKeyPrincipal, OrganizationContext, Principal } from '../../domain/principals';
import { createAccess } from './access';
import { createQuotaAlerts } from '../../domain/organizations/quotaAlerts';
import { apiKeyRoutes } from './routes/apiKeys';
import { billingRoutes } from './routes/billing';
import { domainRoutes } from './routes/domains';
import { invitationRoutes } from './routes/invitations';
import { memberRoutes } from './routes/members';
import { organizationRoutes } from './routes/organizations';
import { settingsRoutes } from './routes/settings';
import type { OrgServiceDeps } from '../../domain/organizations/serviceDeps';
import { createOrganizationsServices } from '../../domain/organizations/services';
import { createApiCallMeter } from '../../domain/organizations/usageMeter';
import { secretBoxFor } from '../../domain/secrets/queries';

export interface OrganizationsDomain extends Domain {
  /** An organization API key presented by the request (401 when it is invalid), or null when none is presented. */
  authenticateApiKey(ctx: Context): Promise<ApiKeyPrincipal | null>;
  /** Whether the principal may act in the organization, and with which role (see access.ts). */
  resolveOrganization(principal: Principal, organizationId: string, ctx: Context): Promise<OrganizationContext | null>;
  /** Writes the API-call counts still in memory (called on shutdown and by tests). */
  flushUsage(): Promise<void>;
}

/** `changes` keeps remembered access checks current (none: every request reads its organization's row). */
export function createOrganizationsDomain(deps: AppDeps, changes: AuthChangeListener | null): OrganizationsDomain {
  const box = secretBoxFor(deps.config);
  if (!box.dedicatedKey) {
    deps.logger.warn('SERVICE_ENCRYPTION_KEY is not set: integration secrets are encrypted with a key derived from SERVICE_JWT_SECRET (rotating it makes them unreadable)');
  }
  const meter = createApiCallMeter(deps.db, deps.logger, { flushIntervalMs: deps.config.organizations.usageFlushIntervalMs });
  const serviceDeps: OrgServiceDeps = { ...deps, box, billing: createBillingProvider(deps.config, deps.db), meter };
  const services = createOrganizationsServices(serviceDeps);
  const access = createAccess({
    db: deps.db,
    logger: deps.logger,
    meter,
    plans: deps.config.organizations.plans,
    onQuotaExceeded: createQuotaAlerts(serviceDeps),
    cacheTtlMs: deps.config.auth.sessionCacheTtlMs,
    changes,
  });

  return {
    routes: [
      ...organizationRoutes(services),
      ...memberRoutes(services),
      ...invitationRoutes(services),
      ...settingsRoutes(services),
      ...apiKeyRoutes(services),
      ...domainRoutes(services.domains),
      ...billingRoutes(createBillingService(serviceDeps)),
      ...auditRoutes(deps),
    ],
    authenticateApiKey: access.authenticateApiKey,
    resolveOrganization: access.resolveOrganization,
    flushUsage: () => meter.flush(),
  };
}
