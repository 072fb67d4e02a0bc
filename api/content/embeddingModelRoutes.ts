import { z } from 'zod';
import { defineRoute, type RouteDef } from '../http/route';
import type { EmbeddingModels } from '../../domain/content/embeddingModels';
import * as s from '../../domain/content/schemas';

const tags = ['content'];

/** /api/v1/embedding-models: the organization's custom embedding models. */
export function embeddingModelRoutes(models: EmbeddingModels): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/embedding-models',
      operationId: 'listEmbeddingModels',
      summary: "The organization's custom embedding models",
      description:
        'Sorted by name; not paginated (at most CONTENT_EMBEDDING_MODELS_MAX, default 10, per organization). Only this organization\'s: another ' +
        'organization may use the same name with another dimension, and neither sees the other\'s.',
      tags,
      auth: 'org',
      permission: 'content:read',
      responses: { 200: { description: 'every model', schema: z.object({ data: z.array(s.embeddingModelSchema), nextCursor: z.null() }) } },
      handler: async ({ organization }) => ({ body: { data: await models.list(organization.organizationId), nextCursor: null } }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/embedding-models',
      operationId: 'registerEmbeddingModel',
      summary: 'Register a custom embedding model (name, dimension, provider)',
      description:
        'Vectors stored with PUT /content/{id}/embedding under this name must have this dimension (422 otherwise). ' +
        'A model used there without registration is registered with the dimension of its first vector. 409 when ' +
        'the name is taken in this organization or is the organization\'s provider model, or when the organization ' +
        'already has CONTENT_EMBEDDING_MODELS_MAX models (default 10). Registering is configuration: admins and owners.',
      tags,
      auth: 'org',
      permission: 'integrations:manage',
      body: s.registerEmbeddingModelBody,
      responses: { 201: { description: 'registered', schema: s.embeddingModelSchema } },
      errors: ['CONFLICT'],
      handler: async ({ organization, actor, body }) => ({
        status: 201,
        body: await models.register(organization.organizationId, actor, body),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/embedding-models/{name}',
      operationId: 'deleteEmbeddingModel',
      summary: 'Delete a custom embedding model no content uses',
      description:
        "409 INVALID_STATE while content holds vectors of the model (re-embed or delete it first). The organization's " +
        'vectors of the model are removed with it, and its place counts again.',
      tags,
      auth: 'org',
      permission: 'integrations:manage',
      params: s.embeddingModelParams,
      responses: { 204: { description: 'deleted' } },
      errors: ['NOT_FOUND', 'INVALID_STATE'],
      handler: async ({ organization, actor, params }) => {
        await models.remove(organization.organizationId, actor, params.name);
        return { status: 204 };
      },
    }),
  ];
}
