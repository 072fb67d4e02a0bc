import { PAGE_CSP } from '../http/pageCsp';
import { z } from 'zod';
import { defineRoute, type RouteDef } from '../http/route';
import { RUN_PICTURE_HTML, RUN_PICTURE_SCRIPT } from './page';
import type { RunPictureService } from '../../domain/runs-picture/service';
import { runPictureModelSchema } from '../../domain/runs-picture/schemas';

const runPath = z.object({
  id: z.uuid().describe('workflow id'),
  run_id: z.uuid().describe('run id'),
});

export function runPictureRoutes(s: RunPictureService): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/workflows/{id}/runs/{run_id}/picture.svg',
      operationId: 'getRunPicture',
      summary: "The run's DAG as SVG, each node coloured by its state with attempts and duration",
      description:
        'Nodes are `<g class="node" data-node-id data-status data-attempts>`; colours: pending grey, running blue, ' +
        'completed green, failed red, skipped dashed, cancelled orange. Header `X-Run-Status` gives the run status ' +
        '(poll until completed, failed or cancelled) and `X-Temporal-Url` its Temporal Web page. The HTML page ' +
        '`/ui/workflows/{id}/runs/{run_id}/picture` shows it and refreshes it while the run is live.',
      tags: ['runs'],
      auth: 'org',
      permission: 'run:read',
      params: runPath,
      responses: { 200: { description: 'the picture', contentType: 'image/svg+xml', schema: z.string() } },
      handler: async ({ organization, params }) => {
        const picture = await s.render(organization.organizationId, params.id, params.run_id);
        return {
          body: picture.svg,
          headers: {
            'Content-Type': 'image/svg+xml; charset=utf-8',
            'Cache-Control': 'no-store',
            // Opened directly, the SVG may not run anything.
            'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
            'X-Content-Type-Options': 'nosniff',
            'X-Run-Status': picture.status,
            ...(picture.temporalUrl ? { 'X-Temporal-Url': picture.temporalUrl } : {}),
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/workflows/{id}/runs/{run_id}/picture.json',
      operationId: 'getRunPictureModel',
      summary: 'The run picture with, per node, its input, output, error, attempts, times, loop progress and child run',
      description:
        'What the picture page shows: the SVG (as picture.svg) and per node the side panel\'s content. Inputs and ' +
        'outputs are indented JSON text cut to 2,000 characters (`truncated`, `totalChars`); a picture carries at most ' +
        '200,000 characters of them. Answers carry a weak `ETag` that changes when the run\'s state does: send it as ' +
        '`If-None-Match` to get 304 (no body) while nothing moved. Durations of running nodes are not part of the ' +
        'ETag: count them on from `startedAt` and `now`.',
      tags: ['runs'],
      auth: 'org',
      permission: 'run:read',
      params: runPath,
      responses: {
        200: { description: 'the picture and its nodes', schema: runPictureModelSchema },
        304: { description: 'not modified: the picture named by If-None-Match is still current' },
      },
      handler: async ({ organization, params, ctx }) => {
        const answer = await s.model(organization.organizationId, params.id, params.run_id, ctx.get('if-none-match') || undefined);
        const headers = { ETag: answer.etag, 'Cache-Control': 'no-cache, private', 'X-Run-Status': answer.status, Vary: 'Authorization' };
        if (answer.notModified) return { status: 304, headers };
        return { body: answer.model, headers };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/ui/workflows/{id}/runs/{run_id}/picture',
      operationId: 'runPicturePage',
      summary: 'HTML page showing a run picture, refreshed while the run is live',
      description:
        'A static page with no data of its own: it reads an access token or API key from the URL fragment ' +
        '(`#token=...`, never sent to the server) or asks for one, then loads `.../picture.svg` with it.',
      tags: ['runs'],
      auth: 'public',
      params: runPath,
      responses: { 200: { description: 'the page', contentType: 'text/html' } },
      handler: async () => ({
        body: RUN_PICTURE_HTML,
        headers: {
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy': PAGE_CSP,
          'X-Content-Type-Options': 'nosniff',
          'Referrer-Policy': 'no-referrer',
          'Cache-Control': 'no-cache',
        },
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/ui/assets/run-picture.js',
      operationId: 'runPictureScript',
      summary: "The run picture page's script",
      tags: ['runs'],
      auth: 'public',
      responses: { 200: { description: 'JavaScript', contentType: 'text/javascript' } },
      handler: async () => ({
        body: RUN_PICTURE_SCRIPT,
        headers: {
          'Content-Type': 'text/javascript; charset=utf-8',
          'X-Content-Type-Options': 'nosniff',
          'Cache-Control': 'no-cache',
        },
      }),
    }),
  ];
}
