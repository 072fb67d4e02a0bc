import { z } from 'zod';
import { defineRoute, type RouteDef } from '../../http/route';
import { receiveMultipartUpload } from '../../content/multipart';
import type { Transfers } from '../../../domain/organizations/transfers';

const tags = ['organizations'];

const transferView = z.object({
  id: z.uuid(),
  status: z.enum(['running', 'succeeded', 'failed', 'expired']),
  bytes: z.number().nullable().describe('the archive\'s size'),
  sha256: z.string().nullable().describe('the archive\'s SHA-256'),
  downloadUrl: z.string().nullable().optional().describe('exports: a presigned GET of the archive, valid until expiresAt'),
  expiresAt: z.string().nullable().describe('exports: when the archive is removed'),
  result: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('exports: entries and files; imports: the report (content, workflows, invitations, embedding models, vectors, secretsToSet, problems), updated as it goes'),
  error: z.string().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});

const params = z.object({ id: z.uuid(), exportId: z.uuid() });
const importParams = z.object({ id: z.uuid(), importId: z.uuid() });

/** Exports on demand and imports of organization archives (domain/organizations/transfers.ts). */
export function transferRoutes(transfers: Transfers): RouteDef[] {
  const common = { tags, auth: 'org' as const, organizationFrom: 'path' as const, permission: 'organization:transfer' as const };
  return [
    defineRoute({
      ...common,
      method: 'post',
      path: '/api/v1/organizations/{id}/exports',
      operationId: 'startOrganizationExport',
      summary: "Export the organization's data as one archive, in the background",
      description:
        'The archive of the deletion export (docs/organizations.md#deletion-export: content with every version\'s ' +
        'bytes, workflows with their versions, members, invitations, secret names, custom embedding models and ' +
        'caller-supplied vectors, run summaries, audit log; secrets masked), written to object storage and kept for ' +
        'SERVICE_ORGANIZATION_EXPORT_TTL. Follow it at GET .../exports/{exportId}, which gives the download link. ' +
        'One at a time per organization (409 while one is written). Owners only. It can be imported into a new ' +
        'organization (POST .../imports).',
      params: z.object({ id: z.uuid() }),
      responses: { 202: { description: 'started', schema: transferView } },
      errors: ['CONFLICT', 'SERVICE_UNAVAILABLE'],
      handler: async ({ organization, actor }) => ({ status: 202, body: await transfers.startExport(organization, actor!) }),
    }),
    defineRoute({
      ...common,
      method: 'get',
      path: '/api/v1/organizations/{id}/exports',
      operationId: 'listOrganizationExports',
      summary: "The organization's exports, newest first (the latest 50)",
      params: z.object({ id: z.uuid() }),
      responses: { 200: { description: 'exports', schema: z.object({ data: z.array(transferView), nextCursor: z.null() }) } },
      handler: async ({ organization }) => ({ body: { data: await transfers.listExports(organization), nextCursor: null } }),
    }),
    defineRoute({
      ...common,
      method: 'get',
      path: '/api/v1/organizations/{id}/exports/{exportId}',
      operationId: 'getOrganizationExport',
      summary: 'An export: its state, and once written its download link, size and SHA-256',
      params,
      responses: { 200: { description: 'the export', schema: transferView } },
      errors: ['NOT_FOUND'],
      handler: async ({ organization, params: p }) => ({ body: await transfers.getExport(organization, p.exportId) }),
    }),
    defineRoute({
      ...common,
      method: 'post',
      path: '/api/v1/organizations/{id}/imports',
      operationId: 'startOrganizationImport',
      summary: 'Import an organization archive (an export) into this new organization, in the background',
      description:
        'multipart/form-data with one `file` part: the `.tar.gz` of an export (on demand or of a deletion). The ' +
        'organization must hold no content and no workflows (409 otherwise). Streamed to object storage (413 past ' +
        'SERVICE_ORGANIZATION_IMPORT_MAX_BYTES), then imported by a workflow: content with every version, title, tags ' +
        'and metadata (processed as uploads are); workflows with every version, as drafts (their triggers inactive ' +
        'until an admin enables them); members and pending invitations as invitations; custom embedding models and ' +
        'caller-supplied vectors; secret names listed in the report (never values). Each record passes the same ' +
        'checks and quotas as through the API; a refused one is listed in the report\'s problems. Owners only.',
      params: z.object({ id: z.uuid() }),
      bodyFormats: ['raw'],
      rawBodyDoc: {
        contentType: 'multipart/form-data',
        description: 'The archive as the `file` part',
        schema: { type: 'object', required: ['file'], properties: { file: { type: 'string', format: 'binary', description: 'an organization export (.tar.gz)' } } },
      },
      responses: { 202: { description: 'stored and started', schema: transferView } },
      errors: ['CONFLICT', 'PAYLOAD_TOO_LARGE', 'SERVICE_UNAVAILABLE'],
      handler: async ({ ctx, organization, actor }) => ({
        status: 202,
        body: await transfers.startImport(organization, actor!, (target) => receiveMultipartUpload(ctx, target)),
      }),
    }),
    defineRoute({
      ...common,
      method: 'get',
      path: '/api/v1/organizations/{id}/imports/{importId}',
      operationId: 'getOrganizationImport',
      summary: 'An import: its state and report (updated as it goes)',
      params: importParams,
      responses: { 200: { description: 'the import', schema: transferView } },
      errors: ['NOT_FOUND'],
      handler: async ({ organization, params: p }) => ({ body: await transfers.getImport(organization, p.importId) }),
    }),
  ];
}
