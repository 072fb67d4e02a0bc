import { defineRoute, type RouteDef } from '../http/route';
import { pageQuerySchema, pageSchema } from '../../lib/pagination';
import type { Reembeddings } from '../../domain/content/reembedding';
import * as s from '../../domain/content/schemas';

const tags = ['content'];

/** /api/v1/content/reembeddings: moving an organization's content to its current embedding model. */
export function reembeddingRoutes(reembeddings: Reembeddings): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/content/reembeddings',
      operationId: 'startContentReembedding',
      summary: "Re-embed the organization's content with its current embedding model, in the background",
      description:
        'After a change of embedding provider (or to move from the lexical model to the semantic default): every ' +
        'content embedded by another model is embedded again, in batches, by a durable workflow that survives ' +
        'restarts. Search keeps finding content of both models meanwhile (keyword search over all of them, ' +
        'semantic search with each built-in model). 202 with the operation; follow it with GET ' +
        '/content/reembeddings/{id}. One at a time per organization (409 CONFLICT naming the running one). ' +
        'Configuration: admins and owners. Audited at start, end and cancel.',
      tags,
      auth: 'org',
      permission: 'integrations:manage',
      body: s.startReembeddingBody,
      responses: { 202: { description: 'started', schema: s.reembeddingSchema } },
      errors: ['CONFLICT', 'UNPROCESSABLE', 'SERVICE_UNAVAILABLE'],
      handler: async ({ organization, actor, body }) => ({
        status: 202,
        body: await reembeddings.start(organization.organizationId, actor, body),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/content/reembeddings',
      operationId: 'listContentReembeddings',
      summary: "The organization's re-embedding operations, newest first",
      tags,
      auth: 'org',
      permission: 'content:read',
      query: pageQuerySchema,
      responses: { 200: { description: 'a page of operations', schema: pageSchema(s.reembeddingSchema) } },
      handler: async ({ organization, query }) => ({ body: await reembeddings.list(organization.organizationId, query) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/content/reembeddings/{id}',
      operationId: 'getContentReembedding',
      summary: 'A re-embedding operation: its progress (done, skipped, failed, remaining of total)',
      tags,
      auth: 'org',
      permission: 'content:read',
      params: s.reembeddingParams,
      responses: { 200: { description: 'the operation', schema: s.reembeddingSchema } },
      errors: ['NOT_FOUND'],
      handler: async ({ organization, params }) => ({ body: await reembeddings.get(organization.organizationId, params.id) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/content/reembeddings/{id}/cancel',
      operationId: 'cancelContentReembedding',
      summary: 'Stop a running re-embedding before its next batch (what was re-embedded stays)',
      tags,
      auth: 'org',
      permission: 'integrations:manage',
      params: s.reembeddingParams,
      responses: { 200: { description: 'cancelled', schema: s.reembeddingSchema } },
      errors: ['NOT_FOUND', 'INVALID_STATE'],
      handler: async ({ organization, actor, params }) => ({ body: await reembeddings.cancel(organization.organizationId, actor, params.id) }),
    }),
  ];
}
