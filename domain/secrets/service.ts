import type { Db } from '../../db/knex';
import { AppError, notFound } from '../../lib/errors';
import type { SecretBox } from '../../lib/secrets';
import { recordAudit } from '../audit/record';
import type { Actor } from '../principals';
import { countSecrets, deleteSecret, listSecrets, sealContext, upsertSecret, type SecretRow } from './queries';
import { MAX_SECRETS_PER_ORGANIZATION } from './schemas';

/**
 * Organization secrets (docs/secrets.md): write-only values that node configs reference as `{{secret.NAME}}`.
 * Every write is audited (`secret.created`, `secret.updated`, `secret.deleted`) with the name only, never the value.
 */
export function createSecretsService(deps: { db: Db; box: SecretBox }) {
  const { db, box } = deps;

  return {
    list: (organizationId: string): Promise<SecretRow[]> => listSecrets(db, organizationId),

    async put(organizationId: string, actor: Actor, name: string, value: string): Promise<{ row: SecretRow; created: boolean }> {
      const sealed = box.seal(value, sealContext(organizationId, name));
      return db.transaction(async (trx) => {
        const result = await upsertSecret(trx, { organizationId, name, valueEnc: sealed.enc, last4: sealed.last4, actorId: actor.id });
        if (result.created && (await countSecrets(trx, organizationId)) > MAX_SECRETS_PER_ORGANIZATION) {
          throw new AppError('CONFLICT', `an organization holds at most ${MAX_SECRETS_PER_ORGANIZATION} secrets; delete one first`);
        }
        await recordAudit(trx, {
          organizationId,
          actor,
          action: result.created ? 'secret.created' : 'secret.updated',
          target: { type: 'secret', id: name },
        });
        return result;
      });
    },

    async remove(organizationId: string, actor: Actor, name: string): Promise<void> {
      await db.transaction(async (trx) => {
        const row = await deleteSecret(trx, organizationId, name);
        if (!row) throw notFound('secret');
        await recordAudit(trx, { organizationId, actor, action: 'secret.deleted', target: { type: 'secret', id: name } });
      });
    },
  };
}

export type SecretsService = ReturnType<typeof createSecretsService>;
