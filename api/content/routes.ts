import { z } from 'zod';
import { defineRoute, type RouteDef } from '../http/route';
import { pageQuerySchema, pageSchema } from '../../lib/pagination';
import { receiveMultipartUpload } from './multipart';
import type { ContentService } from '../../domain/content/service';
import type { ContentSearch } from '../../domain/content/search';
import type { createContentExtractor } from '../../domain/content/extract';
import * as s from '../../domain/content/schemas';

const tags = ['content'];

const multipartDoc = (what: string) => ({
  contentType: 'multipart/form-data',
  description:
    `${what}. Parts may come in any order; the file is streamed to storage (never held in memory). ` +
    'The recorded MIME type is sniffed from the bytes (the signature wins over the part\'s Content-Type; text ' +
    'subtypes such as JSON, CSV, XML, HTML and Markdown are recognised from the content). SHA-256 and size are ' +
    'recorded. Past the upload size limit (CONTENT_MAX_UPLOAD_BYTES) the answer is 413, past the storage quota of ' +
    'the plan 429 QUOTA_EXCEEDED; either way nothing is kept.',
  schema: {
    type: 'object',
    required: ['file'],
    properties: {
      file: { type: 'string', format: 'binary', description: 'The file (documents, images, videos, JSON, CSV, XML...)' },
      title: { type: 'string', maxLength: 500 },
      tags: {
        description: 'A JSON array of strings, or the part repeated once per tag',
        oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
      },
      metadata: { type: 'string', description: 'A JSON object, stored as given (at most 64 KiB)' },
    },
  },
});

const detailResponse = { description: 'the content with its current version', schema: s.contentDetailSchema };

export function contentRoutes(
  service: ContentService,
  search: ContentSearch,
  extract: ReturnType<typeof createContentExtractor>,
): RouteDef[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/content',
      operationId: 'uploadContent',
      summary: 'Upload content (multipart: file, title, tags, metadata)',
      description:
        'Creates content with version 1. Processing (text and metadata extraction, conversion, thumbnail, chunking, ' +
        'embedding) starts at once when CONTENT_PROCESS_ON_UPLOAD is on; follow it at /{id}/status. Emits ' +
        '`content.uploaded`.',
      tags,
      auth: 'org',
      permission: 'content:write',
      idempotent: true,
      bodyFormats: ['raw'],
      rawBodyDoc: multipartDoc('The file and its optional fields'),
      responses: { 201: { description: 'stored', schema: s.contentDetailSchema } },
      errors: ['PAYLOAD_TOO_LARGE', 'QUOTA_EXCEEDED', 'UNSUPPORTED_MEDIA_TYPE'],
      handler: async ({ ctx, organization, actor }) => ({
        status: 201,
        body: await service.upload((target) => receiveMultipartUpload(ctx, target), organization, actor),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/content/{id}',
      operationId: 'getContent',
      summary: 'Get content details',
      tags,
      auth: 'org',
      permission: 'content:read',
      params: s.idParams,
      responses: { 200: detailResponse },
      handler: async ({ params, organization }) => ({ body: await service.detail(organization.organizationId, params.id) }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/content/{id}',
      operationId: 'updateContent',
      summary: 'Update title, metadata and tags',
      description:
        'Each given field replaces the stored one (metadata and tags are replaced whole, not merged); omitted ' +
        'fields stay. Members may update only content they uploaded. A new file is a new version: POST /{id}/versions.',
      tags,
      auth: 'org',
      permission: 'content:write',
      params: s.idParams,
      body: s.updateBody,
      responses: { 200: detailResponse },
      handler: async ({ params, body, organization, actor }) => ({ body: await service.update(organization, actor, params.id, body) }),
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/content/{id}',
      operationId: 'deleteContent',
      summary: 'Delete content',
      description:
        'The record (with its versions and processing history) is deleted at once and `content.deleted` is recorded; ' +
        'the stored files, derived files and vectors are removed by a Temporal workflow (`cleanup.workflowId`) that ' +
        'survives restarts.',
      tags,
      auth: 'org',
      permission: 'content:write',
      params: s.idParams,
      responses: {
        202: {
          description: 'deleted; clean-up of files and vectors under way',
          schema: z.object({ id: z.string(), status: z.literal('deleted'), cleanup: z.object({ workflowId: z.string() }) }),
        },
      },
      handler: async ({ params, organization, actor }) => ({ status: 202, body: await service.remove(organization, actor, params.id) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/content/{id}/download',
      operationId: 'downloadContent',
      summary: 'Download a version (streamed; Range and ETag supported)',
      description:
        'Streams the file through the API (no redirect, so the bucket never needs to be reachable by clients). ' +
        'Content-Type is the sniffed type, Content-Disposition carries the original file name (RFC 6266), the ETag ' +
        'is the SHA-256 of the bytes (If-None-Match answers 304), and a single `Range: bytes=a-b` answers 206; with ' +
        '`If-Range`, only while it names the current ETag (else 200 with the whole file, RFC 9110). ' +
        '`variant` selects a derived file: thumbnail (WebP), text (extracted), converted (WebP for images, ' +
        'Markdown for documents).',
      tags,
      auth: 'org',
      permission: 'content:read',
      params: s.idParams,
      query: s.downloadQuery,
      responses: {
        200: { description: 'the file', contentType: 'application/octet-stream' },
        206: { description: 'the requested byte range', contentType: 'application/octet-stream' },
        304: { description: 'not modified (If-None-Match)' },
      },
      errors: ['RANGE_NOT_SATISFIABLE'],
      handler: async ({ ctx, params, query, organization }) =>
        service.download(organization.organizationId, params.id, query, {
          ifNoneMatch: ctx.get('if-none-match'),
          range: ctx.get('range'),
          ifRange: ctx.get('if-range'),
        }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/content/{id}/versions',
      operationId: 'listContentVersions',
      summary: 'List the versions of a content (newest first)',
      tags,
      auth: 'org',
      permission: 'content:read',
      params: s.idParams,
      query: pageQuerySchema,
      responses: { 200: { description: 'versions', schema: pageSchema(s.versionSchema) } },
      handler: async ({ params, query, organization }) => ({
        body: await service.listVersions(organization.organizationId, params.id, query.limit, query.cursor),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/content/{id}/versions',
      operationId: 'uploadContentVersion',
      summary: 'Upload a new file as the next version',
      description:
        'Same multipart form as the upload; given title, tags and metadata replace the stored ones. The new ' +
        'version becomes current and is processed like an upload. Older versions stay downloadable (`?version=`).',
      tags,
      auth: 'org',
      permission: 'content:write',
      params: s.idParams,
      bodyFormats: ['raw'],
      rawBodyDoc: multipartDoc('The new file and optional field changes'),
      responses: { 201: { description: 'the new version stored', schema: s.contentDetailSchema } },
      errors: ['PAYLOAD_TOO_LARGE', 'QUOTA_EXCEEDED', 'UNSUPPORTED_MEDIA_TYPE'],
      handler: async ({ ctx, params, organization, actor }) => ({
        status: 201,
        body: await service.uploadVersion((target) => receiveMultipartUpload(ctx, target), organization, actor, params.id),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/content/search',
      operationId: 'searchContent',
      summary: 'Search content: semantic, keyword (full-text) or hybrid',
      description:
        'semantic: the query is embedded with the organization\'s embedding model and compared (cosine) with the ' +
        'chunk vectors made by that same model. keyword: BM25 full-text over the chunk text. hybrid (default): both, ' +
        'fused by reciprocal rank (k = 60). Results are contents (best chunk wins) with their best chunks as ' +
        'highlights. Filters are the ones of POST /query. Only the caller\'s organization is ever searched.',
      tags,
      auth: 'org',
      permission: 'content:read',
      body: s.searchBody,
      responses: { 200: { description: 'results, best first', schema: s.searchResultSchema } },
      errors: ['UPSTREAM_ERROR'],
      handler: async ({ body, organization }) => ({ body: await search.search(organization.organizationId, body) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/content/similar/{id}',
      operationId: 'similarContent',
      summary: 'Contents most similar to this one',
      description: 'Nearest neighbours (cosine) of the content\'s document vector, among contents of the same organization embedded with the same model.',
      tags,
      auth: 'org',
      permission: 'content:read',
      params: s.idParams,
      query: s.similarQuery,
      responses: { 200: { description: 'similar contents, best first', schema: s.similarResultSchema } },
      errors: ['INVALID_STATE'],
      handler: async ({ params, query, organization }) => ({ body: await search.similar(organization.organizationId, params.id, query) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/content/query',
      operationId: 'queryContent',
      summary: 'Advanced query over metadata, tags, type, size and dates',
      description:
        'Answered from PostgreSQL. `filter` conditions all apply (tags: all of; tagsAny: any of; metadata: JSON ' +
        'containment; type: media type or MIME type with `image/*` wildcards). Sorted by `sort.field` (createdAt, ' +
        'updatedAt, size, title) then id; keyset pagination with `cursor` from `nextCursor` (keep the same sort).',
      tags,
      auth: 'org',
      permission: 'content:read',
      body: s.queryBody,
      responses: { 200: { description: 'a page of contents', schema: pageSchema(s.contentSchema) } },
      handler: async ({ body, organization }) => ({ body: await search.query(organization.organizationId, body) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/content/{id}/process',
      operationId: 'processContent',
      summary: 'Run processing steps (default: all) on a version',
      description:
        'Steps run in pipeline order as Temporal activities: extract_text, extract_metadata, convert, thumbnail, ' +
        'chunk, embed. A step that depends on a failed one is skipped. 409 while a job is running. Emits ' +
        '`content.processed` when the job ends.',
      tags,
      auth: 'org',
      permission: 'content:write',
      params: s.idParams,
      body: s.processBody,
      responses: { 202: { description: 'job started', schema: s.statusSchema } },
      errors: ['INVALID_STATE'],
      handler: async ({ params, body, organization, actor }) => ({
        status: 202,
        body: await service.process(organization, actor, params.id, body),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/content/{id}/status',
      operationId: 'contentStatus',
      summary: 'Processing status: every step with its state, attempts and error',
      tags,
      auth: 'org',
      permission: 'content:read',
      params: s.idParams,
      query: s.statusQuery,
      responses: { 200: { description: 'the latest (or the given) job', schema: s.statusSchema } },
      handler: async ({ params, query, organization }) => ({ body: await service.status(organization.organizationId, params.id, query.jobId) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/content/{id}/extract',
      operationId: 'extractContent',
      summary: 'Extract specific data on demand',
      description:
        '`type`: text (optionally a PDF page range), jsonata (an expression over JSON, CSV rows or XML), fields ' +
        '(paths such as `a.b[0].c`, or CSV column names), regex (matches over the extracted text), metadata (what ' +
        'the metadata step recorded). Files past the processing size limit answer 422.',
      tags,
      auth: 'org',
      permission: 'content:read',
      params: s.idParams,
      body: s.extractBody,
      responses: {
        200: {
          description: 'the extracted data',
          schema: z.object({ contentId: z.string(), version: z.number(), type: z.string(), mimeType: z.string(), result: z.unknown() }),
        },
      },
      errors: ['UNPROCESSABLE', 'INVALID_REGEX', 'EXPRESSION_TIMEOUT', 'EXPRESSION_TOO_COMPLEX'],
      handler: async ({ params, body, organization }) => ({ body: await extract(organization.organizationId, params.id, body) }),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/content/{id}/embed',
      operationId: 'embedContent',
      summary: 'Generate the embedding (runs extract_text, chunk and embed)',
      description:
        'Embeds the current version with the organization\'s provider (integration settings `embeddings`, else the ' +
        'global one; the built-in default is the offline lexical-hash-384-v2). Answers 202 with the job; the vector ' +
        'is at GET /{id}/embedding when the job has succeeded.',
      tags,
      auth: 'org',
      permission: 'content:write',
      params: s.idParams,
      body: s.embedBody,
      responses: { 202: { description: 'job started', schema: s.statusSchema } },
      errors: ['INVALID_STATE'],
      handler: async ({ params, organization, actor }) => ({
        status: 202,
        body: await service.process(organization, actor, params.id, { steps: ['extract_text', 'chunk', 'embed'] }, 'embed'),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/content/{id}/embedding',
      operationId: 'getContentEmbedding',
      summary: 'Get the content\'s document vector with its model and dimension',
      tags,
      auth: 'org',
      permission: 'content:read',
      params: s.idParams,
      responses: { 200: { description: 'the embedding', schema: s.embeddingSchema } },
      handler: async ({ params, organization }) => ({ body: await search.getEmbedding(organization.organizationId, params.id) }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/content/{id}/embedding',
      operationId: 'putContentEmbedding',
      summary: 'Set the document vector (bring your own embedding)',
      description:
        'Replaces the content\'s document vector (used by similar search). Without `model` the organization\'s ' +
        'model is assumed and its dimension enforced; a custom model name keeps the dimension of its first vector ' +
        '(a new name is registered within CONTENT_EMBEDDING_MODELS_MAX: 409 past it). ' +
        'Re-processing computes a fresh vector again.',
      tags,
      auth: 'org',
      permission: 'content:write',
      params: s.idParams,
      body: s.embeddingBody,
      responses: { 200: { description: 'stored', schema: s.embeddingSchema } },
      errors: ['UNPROCESSABLE', 'CONFLICT'],
      handler: async ({ params, body, organization, actor }) => ({ body: await search.putEmbedding(organization, actor, params.id, body) }),
    }),
  ];
}
