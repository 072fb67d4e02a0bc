import { isEncryptedSecret } from '../../../lib/secrets';
import type { ActivityDeps } from '../../deps';
import { readOrganizationSettings } from '../../../domain/organizations/settingsReader';

/**
 * An organization's third-party integration settings (`settings.integration.thirdParty[name]`: plain `config`
 * and encrypted `secrets`), decrypted for a tool. Null when the integration is absent or disabled.
 */
export interface OrgIntegration {
  config: Record<string, string>;
  secrets: Record<string, string>;
}

export async function orgIntegration(
  deps: Pick<ActivityDeps, 'db' | 'box'>,
  organizationId: string,
  name: string,
): Promise<OrgIntegration | null> {
  const entry = (await readOrganizationSettings(deps.db, organizationId))?.integration.thirdParty[name];
  if (!entry || entry.enabled === false) return null;
  const secrets: Record<string, string> = {};
  for (const [key, value] of Object.entries(entry.secrets ?? {})) {
    if (isEncryptedSecret(value)) secrets[key] = deps.box.open(value);
  }
  return { config: { ...(entry.config ?? {}) }, secrets };
}
