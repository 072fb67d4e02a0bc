import { z } from 'zod';
import { notFound } from '../../lib/errors';
import { memoByKey } from '../../lib/memoByKey';
import { defineRoute, type RouteDef } from '../http/route';
import { buildConsoleBundle, type ConsoleBundle } from './bundle';

/**
 * /console: the web console for members of an organization (docs/console.md). A static page and its files; all
 * data comes from /api with the signed-in session's access token, which lives only in the page's memory (the
 * refresh token is an HttpOnly cookie, docs/auth.md#browser-clients-refresh-cookie).
 */

/**
 * Nothing runs but our hashed script; no inline script or style; requests, images (the run picture as a blob URL)
 * stay on this origin; forms are sent by the script only; no framing. Trusted Types forbid the DOM sinks that turn strings into markup.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob:",
  "connect-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cache-Control': 'no-cache',
};

function pageHtml(bundle: ConsoleBundle): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Loom console</title>
<link rel="icon" href="/console/assets/${bundle.icon.name}" type="image/svg+xml">
<link rel="stylesheet" href="/console/assets/${bundle.styles.name}">
<script type="module" src="/console/assets/${bundle.script.name}"></script>
</head>
<body>
<div id="app"><p class="boot">Loading the console…</p></div>
<noscript><p>The console needs JavaScript.</p></noscript>
</body>
</html>
`;
}

export function consoleRoutes(load: () => Promise<ConsoleBundle> = onceBuilt()): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/console',
      operationId: 'consolePage',
      summary: 'The web console (HTML): runs, approvals, dead letters, workflows, triggers and charts',
      description:
        'A single page for people; it signs in with POST /api/auth/login in browser mode (the refresh token in an ' +
        'HttpOnly cookie) and reads everything else from /api/v1 with the roles of the API. See docs/console.md.',
      tags: ['system'],
      auth: 'public',
      responses: { 200: { description: 'the page', contentType: 'text/html' } },
      handler: async () => ({ body: pageHtml(await load()), headers: PAGE_HEADERS }),
    }),
    defineRoute({
      method: 'get',
      path: '/console/assets/{file}',
      operationId: 'consoleAsset',
      summary: "The console's script, style sheet or icon (names carry a hash of their content)",
      tags: ['system'],
      auth: 'public',
      params: z.object({ file: z.string().max(80).describe('file name, as the console page names it') }),
      responses: { 200: { description: 'JavaScript, CSS or SVG', contentType: 'application/octet-stream' } },
      errors: ['NOT_FOUND'],
      handler: async ({ params, ctx }) => {
        const bundle = await load();
        const asset = [bundle.script, bundle.styles, bundle.icon].find((a) => a.name === params.file);
        if (!asset) throw notFound('console file');
        const gzipped = /\bgzip\b/.test(ctx.get('accept-encoding'));
        return {
          body: gzipped ? asset.gzipped : asset.body,
          headers: {
            ...(gzipped ? { 'Content-Encoding': 'gzip' } : {}),
            Vary: 'Accept-Encoding',
            'Content-Type': asset.contentType,
            'X-Content-Type-Options': 'nosniff',
            'Cache-Control': 'public, max-age=31536000, immutable',
          },
        };
      },
    }),
  ];
}

/** One build per process; a failed build is retried by the next request. */
function onceBuilt(): () => Promise<ConsoleBundle> {
  const built = memoByKey(() => buildConsoleBundle());
  return () => built('console');
}
