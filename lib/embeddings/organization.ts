import type { Config } from '../config';
import type { Db } from '../../db/knex';
import { createSecretBox, isEncryptedSecret } from '../secrets';
import { createEmbeddingProvider, resolveEmbeddingSpec } from './index';
import type { EmbeddingProvider } from './types';

/** The embedding provider of one organization (its integration settings, else the global configuration). */
export async function embeddingProviderForOrganization(
  db: Db,
  config: Pick<Config, 'content' | 'organizations' | 'jwt'>,
  organizationId: string,
): Promise<EmbeddingProvider> {
  const row = await db('organizations').where({ id: organizationId }).first('settings');
  const box = createSecretBox({ encryptionKey: config.organizations.encryptionKey, jwtSecret: config.jwt.secret });
  const openSecret = (sealed: unknown): string | undefined => {
    if (typeof sealed === 'string') return sealed;
    return isEncryptedSecret(sealed) ? box.open(sealed) : undefined;
  };
  return createEmbeddingProvider(resolveEmbeddingSpec(config.content.embedding, row?.settings, openSecret));
}
