import { createApiKeysService } from './apiKeysService';
import { createDomainsService } from './domainsService';
import { createInvitationsService } from './invitationsService';
import { createLifecycleService } from './lifecycleService';
import { createMembersService } from './membersService';
import { createOrganizationsService } from './organizationsService';
import type { OrgServiceDeps } from './serviceDeps';
import { createSettingsService } from './settingsService';

export function createOrganizationsServices(d: OrgServiceDeps) {
  return {
    organizations: createOrganizationsService(d),
    members: createMembersService(d),
    invitations: createInvitationsService(d),
    settings: createSettingsService(d),
    apiKeys: createApiKeysService(d),
    domains: createDomainsService(d),
    lifecycle: createLifecycleService(d),
  };
}

export type OrganizationsServices = ReturnType<typeof createOrganizationsServices>;
