import { AppError, forbidden, notFound } from '../../lib/errors';
import { can, type Role } from '../../lib/permissions';
import { recordAudit } from '../audit/record';
import type { Actor, OrganizationContext } from '../principals';
import { getOrganization, slugInUse, updateOrganization, type OrganizationRow } from './queries';
import type { OrgServiceDeps } from './serviceDeps';
import {
  applySettingsUpdate,
  isIpAllowed,
  maskStored,
  SettingsRuleError,
  withDefaults,
  type GeneratedSecret,
  type SettingsUpdate,
  type StoredSettings,
} from './settingsModel';
import { isUniqueViolation } from '../../lib/db/errors';
import { existingSecretNames } from '../secrets/queries';
import { vetWebhookDestinations } from './webhookEndpoints';
import { vetSsoIssuer } from './ssoIssuer';
import { vetProviderDestinations } from './providerDestinations';
import { checkSettingsChange } from './stepUp';

/**
 * Settings read and partial update per group. Members ("limited settings access") see general and security;
 * the integration group (webhooks, third-party credentials, SSO) is for roles with `integrations:manage`.
 */
export function createSettingsService(d: OrgServiceDeps) {
  const { db } = d;

  const apiKeysHref = (organizationId: string): string => `/api/v1/organizations/${organizationId}/api-keys`;

  function view(org: OrganizationRow, stored: StoredSettings, role: Role) {
    return {
      general: { name: org.name, slug: org.slug, ...stored.general },
      security: stored.security,
      ...(can(role, 'integrations:manage') ? { integration: { ...maskStored(withoutPreviousSecrets(stored.integration)), apiKeys: { href: apiKeysHref(org.id) } } } : {}),
    };
  }

  /** The read-only parts of the document: accepted as a read answered them (and ignored), refused when changed. */
  function refuseReadOnlyChanges(organizationId: string, input: SettingsUpdate): void {
    const apiKeys = input.integration?.apiKeys;
    if (apiKeys && apiKeys.href !== apiKeysHref(organizationId)) {
      throw new AppError('UNPROCESSABLE', `integration.apiKeys is read-only; manage API keys at ${apiKeysHref(organizationId)}`, [
        { path: 'body.integration.apiKeys.href', problem: `read-only: send ${apiKeysHref(organizationId)} unchanged, or leave it out` },
      ]);
    }
  }

  async function read(org: OrganizationContext) {
    const row = await getOrganization(db, org.organizationId);
    if (!row) throw notFound('organization');
    return view(row, withDefaults(row.settings), org.role);
  }

  async function update(org: OrganizationContext, actor: Actor, callerIp: string, input: SettingsUpdate) {
    if (input.integration && !can(org.role, 'integrations:manage')) throw forbidden(`role ${org.role} may not integrations:manage`);
    refuseReadOnlyChanges(org.organizationId, input);
    if (input.integration?.webhooks) {
      // Outside the transaction: resolving names must not hold the settings row's lock.
      const current = await getOrganization(db, org.organizationId);
      await vetWebhookDestinations(d.config, withDefaults(current?.settings).integration.webhooks, input.integration.webhooks);
    }
    if (input.integration?.sso?.oidc) {
      const current = await getOrganization(db, org.organizationId);
      await vetSsoIssuer(d.config, withDefaults(current?.settings).integration.sso?.oidc?.issuer, input.integration.sso.oidc.issuer);
    }
    await vetProviderDestinations(d.config, input.integration?.thirdParty);
    const generated: GeneratedSecret[] = [];
    try {
      return await db.transaction(async (trx) => {
        const row = await getOrganization(trx, org.organizationId, true);
        if (!row) throw notFound('organization');
        const before = withDefaults(row.settings);
        let after: StoredSettings;
        try {
          after = applySettingsUpdate(before, input, d.box, { generated });
        } catch (err) {
          if (err instanceof SettingsRuleError) throw new AppError('UNPROCESSABLE', err.message, [{ path: `body.${err.path}`, problem: err.message }]);
          throw err;
        }
        await checkSettingsChange(trx, org.organizationId, actor, before, after);
        const ssoSecretName = input.integration?.sso?.oidc?.clientSecretName;
        if (ssoSecretName && !(await existingSecretNames(trx, org.organizationId, [ssoSecretName])).has(ssoSecretName)) {
          throw new AppError('UNPROCESSABLE', `the organization has no secret named ${ssoSecretName}; create it first`, [
            { path: 'body.integration.sso.oidc.clientSecretName', problem: 'no organization secret with this name' },
          ]);
        }
        if (input.security?.ipAllowlist && !isIpAllowed(callerIp, after.security.ipAllowlist)) {
          throw new AppError('UNPROCESSABLE', `the allowlist would lock out your own address ${callerIp}; include it`, [
            { path: 'body.security.ipAllowlist', problem: `does not include ${callerIp}` },
          ]);
        }
        const { name, slug } = input.general ?? {};
        if (slug && slug !== row.slug && (await slugInUse(trx, slug, row.id))) throw new AppError('SLUG_TAKEN', `the slug ${slug} is already in use`);
        const updated = await updateOrganization(trx, row.id, { settings: after, ...(name ? { name } : {}), ...(slug ? { slug } : {}) });
        await recordAudit(trx, {
          organizationId: row.id,
          actor,
          action: 'settings.updated',
          target: { type: 'organization', id: row.id },
          before: { ...before, general: { ...before.general, name: row.name, slug: row.slug } },
          after: { ...after, general: { ...after.general, name: updated.name, slug: updated.slug } },
        });
        // Generated webhook secrets appear here once, in clear, and never again.
        return { ...view(updated, after, org.role), ...(generated.length ? { generatedSecrets: generated } : {}) };
      });
    } catch (err) {
      if (isUniqueViolation(err, 'organizations_slug_unique')) throw new AppError('SLUG_TAKEN', 'the slug is already in use');
      throw err;
    }
  }

  return { read, update };
}

/** Settings reads show an endpoint's current secret (masked) only; the rotation's overlap is in GET /webhooks. */
function withoutPreviousSecrets(integration: StoredSettings['integration']): StoredSettings['integration'] {
  return { ...integration, webhooks: integration.webhooks.map(({ previousSecret: _previous, ...w }) => w) };
}
