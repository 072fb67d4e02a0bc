import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';

const gzip = promisify(gzipCallback);

/**
 * The console's files (script, style sheet, icon), built from console/src by esbuild once per process on first request (about 0.1–0.3 s;
 * esbuild runs in its own process, not on this event loop) and kept in memory. Their names carry a hash of their
 * content, so the page can cache them for a year and still never run a stale script after a deploy.
 */

export interface ConsoleAsset {
  name: string;
  body: Buffer;
  /** The same bytes gzipped once at build: a third of the size on the wire. */
  gzipped: Buffer;
  contentType: string;
}

export interface ConsoleBundle {
  script: ConsoleAsset;
  styles: ConsoleAsset;
  icon: ConsoleAsset;
}

/** console/ beside api/ (sources) or two levels up from dist/api/console (the compiled API runs beside its sources). */
export function consoleSourceDir(): string {
  for (const candidate of [path.resolve(__dirname, '../../console'), path.resolve(__dirname, '../../../console')]) {
    if (existsSync(path.join(candidate, 'src', 'main.tsx'))) return candidate;
  }
  throw new Error('console sources (console/src/main.tsx) not found beside the API');
}

export async function buildConsoleBundle(sourceDir = consoleSourceDir()): Promise<ConsoleBundle> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(sourceDir, 'src', 'main.tsx')],
    bundle: true,
    write: false,
    minify: true,
    format: 'esm',
    target: ['es2022'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  const script = Buffer.from(result.outputFiles[0]!.contents);
  const styles = await readFile(path.join(sourceDir, 'styles.css'));
  const icon = await readFile(path.join(sourceDir, 'icon.svg'));
  return {
    script: { name: hashedName('console', script, 'js'), body: script, gzipped: await gzip(script), contentType: 'text/javascript; charset=utf-8' },
    styles: { name: hashedName('console', styles, 'css'), body: styles, gzipped: await gzip(styles), contentType: 'text/css; charset=utf-8' },
    icon: { name: hashedName('icon', icon, 'svg'), body: icon, gzipped: await gzip(icon), contentType: 'image/svg+xml' },
  };
}

function hashedName(base: string, body: Buffer, extension: string): string {
  return `${base}.${createHash('sha256').update(body).digest('hex').slice(0, 16)}.${extension}`;
}
