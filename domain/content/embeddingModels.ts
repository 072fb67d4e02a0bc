import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { AppError, notFound } from '../../lib/errors';
import type { VectorStore } from '../../lib/vectors';
import { recordAudit } from '../audit/record';
import type { Actor } from '../principals';
import { embeddingProviderForOrganization } from './embeddingProvider';
import * as q from './queries';

export interface EmbeddingModelView {
  name: string;
  dimensions: number;
  provider: string;
  createdAt: string;
}

export function serializeEmbeddingModel(row: q.EmbeddingModelRow): EmbeddingModelView {
  return { name: row.name, dimensions: row.dimensions, provider: row.provider, createdAt: row.created_at.toISOString() };
}

/**
 * Custom embedding models, one registry per organization (table `embedding_models`). A name means something only
 * inside its organization: two organizations may register the same name with different dimensions, and neither can
 * learn of the other's (every read takes the organization id). The organization's provider model (e.g.
 * `lexical-hash-384-v2`) is not registered: its dimension is the provider's.
 *
 * Each model may add a vector table that every tenant's document-vector writes and reads go through, so an
 * organization holds at most CONTENT_EMBEDDING_MODELS_MAX of them (default 10; counted under a lock, so parallel
 * registrations cannot pass it), registering one explicitly is an admin's act (`integrations:manage`, like deleting
 * one), and deleting a model removes the organization's vectors of it.
 */
export function createEmbeddingModels(deps: Pick<AppDeps, 'db' | 'config' | 'box'>, vectors: Pick<VectorStore, 'deleteModelVectors'>) {
  const { db } = deps;
  const max = deps.config.content.embeddingModelsMax;
  function creator(actor: Actor | null) {
    return { created_by: actor?.type === 'user' ? actor.id : null, created_by_api_key_id: actor?.type === 'apiKey' ? actor.id : null };
  }

  async function assertRoom(trx: Knex.Transaction, organizationId: string): Promise<void> {
    await q.lockEmbeddingModels(trx, organizationId);
    if ((await q.countEmbeddingModels(trx, organizationId)) >= max) {
      throw new AppError('CONFLICT', `an organization may register at most ${max} embedding models (CONTENT_EMBEDDING_MODELS_MAX); delete one first`);
    }
  }

  return {
    async list(organizationId: string): Promise<EmbeddingModelView[]> {
      return (await q.listEmbeddingModels(db, organizationId)).map(serializeEmbeddingModel);
    },

    async register(
      organizationId: string,
      actor: Actor | null,
      input: { name: string; dimensions: number; provider?: string },
    ): Promise<EmbeddingModelView> {
      const providerModel = (await embeddingProviderForOrganization(deps, organizationId)).model;
      if (input.name === providerModel) {
        throw new AppError('CONFLICT', `${input.name} is the organization's provider model; its dimension is the provider's`);
      }
      return db.transaction(async (trx) => {
        await assertRoom(trx, organizationId);
        const { row, created } = await q.insertEmbeddingModelIfAbsent(trx, {
          organization_id: organizationId,
          name: input.name,
          dimensions: input.dimensions,
          provider: input.provider ?? 'custom',
          ...creator(actor),
        });
        if (!created) throw new AppError('CONFLICT', `this organization already has an embedding model named ${input.name}`);
        await recordAudit(trx, { organizationId, actor: actor ?? { type: 'system', id: null }, action: 'embedding_model.created', target: { type: 'embedding_model', id: row.id }, after: serializeEmbeddingModel(row) });
        return serializeEmbeddingModel(row);
      });
    },

    async remove(organizationId: string, actor: Actor | null, name: string): Promise<void> {
      const row = await q.getEmbeddingModel(db, organizationId, name);
      if (!row) throw notFound('embedding model');
      const users = await q.contentUsingModel(db, organizationId, name);
      if (users > 0) {
        throw new AppError('INVALID_STATE', `${users} content item(s) hold vectors of ${name}: re-embed or delete them first`);
      }
      // Vectors first: a failure leaves the model registered, and deleting it again finishes the job.
      await vectors.deleteModelVectors(organizationId, row.name, row.dimensions);
      await db.transaction(async (trx) => {
        await q.deleteEmbeddingModel(trx, organizationId, name);
        await recordAudit(trx, { organizationId, actor: actor ?? { type: 'system', id: null }, action: 'embedding_model.deleted', target: { type: 'embedding_model', id: row.id }, before: serializeEmbeddingModel(row) });
      });
    },

    /**
     * The dimension a vector of `model` must have in this organization: the registered one; an unregistered model is
     * registered with the vector's dimension (its first vector sets it, as before the registry existed).
     */
    async dimensionsFor(organizationId: string, actor: Actor | null, model: string, vectorLength: number): Promise<number> {
      const known = await q.getEmbeddingModel(db, organizationId, model);
      if (known) return known.dimensions;
      return db.transaction(async (trx) => {
        await q.lockEmbeddingModels(trx, organizationId);
        const registered = await q.getEmbeddingModel(trx, organizationId, model);
        if (registered) return registered.dimensions;
        await assertRoom(trx, organizationId);
        const { row } = await q.insertEmbeddingModelIfAbsent(trx, {
          organization_id: organizationId,
          name: model,
          dimensions: vectorLength,
          provider: 'custom',
          ...creator(actor),
        });
        return row.dimensions;
      });
    },
  };
}

export type EmbeddingModels = ReturnType<typeof createEmbeddingModels>;
