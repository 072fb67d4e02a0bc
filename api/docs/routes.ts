import { PAGE_CSP } from '../http/pageCsp';
import { z } from 'zod';
import { notFound } from '../../lib/errors';
import { defineRoute, type RouteDef } from '../http/route';
import { DOCS_ASSET_NAMES, loadDocsAsset } from './assets';
import { DOCS_PAGE_HTML } from './page';

/** /docs: the OpenAPI document rendered as an interactive reference, and the page's own static files. */
export function docsRoutes(): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/docs',
      operationId: 'apiReferencePage',
      summary: 'Interactive API reference (HTML) rendering /openapi.json',
      tags: ['system'],
      auth: 'public',
      responses: { 200: { description: 'the reference page', contentType: 'text/html' } },
      handler: async () => ({
        body: DOCS_PAGE_HTML,
        headers: {
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy': PAGE_CSP,
          'X-Content-Type-Options': 'nosniff',
          'Cache-Control': 'no-cache',
        },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/docs/assets/{file}',
      operationId: 'apiReferenceAsset',
      summary: 'A static file of the reference page',
      description: `Only these files exist: ${DOCS_ASSET_NAMES.map((n) => `\`${n}\``).join(', ')}.`,
      tags: ['system'],
      auth: 'public',
      params: z.object({ file: z.string().max(64).describe('file name') }),
      responses: {
        200: { description: 'the file (JavaScript, CSS or PNG)', contentType: 'application/octet-stream' },
      },
      errors: ['NOT_FOUND'],
      handler: async ({ params }) => {
        const loading = loadDocsAsset(params.file);
        if (!loading) throw notFound('asset');
        const asset = await loading;
        return {
          body: asset.body,
          headers: {
            'Content-Type': asset.contentType,
            'X-Content-Type-Options': 'nosniff',
            'Cache-Control': 'public, max-age=3600',
          },
        };
      },
    }),
  ];
}
