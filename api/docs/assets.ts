import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { memoByKey } from '../../lib/memoByKey';

/**
 * The reference page's static files, served from the installed `swagger-ui-dist` package (no CDN, works offline).
 * Only the names listed here can be served: the request names a key of this table, never a path, so nothing
 * outside these files is reachable.
 */
const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));

interface Asset {
  file: string;
  contentType: string;
}

const PACKAGE_ASSETS: Record<string, Asset> = {
  'swagger-ui.css': { file: 'swagger-ui.css', contentType: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', contentType: 'text/javascript; charset=utf-8' },
  'swagger-ui-standalone-preset.js': {
    file: 'swagger-ui-standalone-preset.js',
    contentType: 'text/javascript; charset=utf-8',
  },
  'favicon-32x32.png': { file: 'favicon-32x32.png', contentType: 'image/png' },
  'favicon-16x16.png': { file: 'favicon-16x16.png', contentType: 'image/png' },
};

/**
 * Our own initializer, served as a file rather than inlined so the page can run under a strict
 * Content-Security-Policy (script-src 'self').
 */
const INITIALIZER = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    persistAuthorization: true,
    displayOperationId: true,
    tryItOutEnabled: false,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'BaseLayout',
  });
});
`;

export const DOCS_ASSET_NAMES = [...Object.keys(PACKAGE_ASSETS), 'init.js'];

export interface LoadedAsset {
  body: Buffer;
  contentType: string;
}

// Read once, then kept in memory; a failed read (package missing) does not stick: the next request tries again.
const readAsset = memoByKey(async (name: string): Promise<LoadedAsset> => {
  const asset = PACKAGE_ASSETS[name]!;
  return { body: await readFile(path.join(SWAGGER_UI_DIR, asset.file)), contentType: asset.contentType };
});

/** The asset called `name`, or null when it is not one of the listed files. */
export function loadDocsAsset(name: string): Promise<LoadedAsset> | null {
  if (name === 'init.js') {
    return Promise.resolve({ body: Buffer.from(INITIALIZER), contentType: 'text/javascript; charset=utf-8' });
  }
  if (!Object.prototype.hasOwnProperty.call(PACKAGE_ASSETS, name)) return null;
  return readAsset(name);
}
