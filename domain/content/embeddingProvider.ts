import { isEncryptedSecret } from '../../lib/secrets';
import { outboundGuards } from '../../lib/net/outbound';
import { guardedTransport } from '../../lib/embeddings/http';
import { createEmbeddingProvider, resolveEmbeddingSpec } from '../../lib/embeddings/index';
import type { EmbeddingProvider } from '../../lib/embeddings/types';
import { readOrganizationSettings } from '../organizations/settingsReader';
import type { ProcessDeps } from '../deps';

/**
 * The embedding provider of one organization (its integration settings, else the global configuration), reaching
 * its endpoint through the outbound policy.
 */
export async function embeddingProviderForOrganization(
  deps: Pick<ProcessDeps, 'db' | 'config' | 'box'>,
  organizationId: string,
): Promise<EmbeddingProvider> {
  const { config, box } = deps;
  const settings = await readOrganizationSettings(deps.db, organizationId);
  const openSecret = (sealed: unknown): string | undefined => {
    if (typeof sealed === 'string') return sealed;
    return isEncryptedSecret(sealed) ? box.open(sealed) : undefined;
  };
  const spec = resolveEmbeddingSpec(config.content.embedding, settings, openSecret);
  // The global endpoint is the operator's choice; an organization's is a tenant destination like any other.
  const guards = outboundGuards(config);
  return createEmbeddingProvider(spec, guardedTransport(spec === config.content.embedding ? guards.operator : guards.tools));
}
