// `npm run build` (or `node client/build.mjs --out <dir>`): compiles the client with its own tsconfig.json into
// dist/ and copies the generated schema beside it. tsc emits nothing for a .d.ts it reads, yet dist/index.d.ts
// imports ./generated/schema, so without the copy the published declarations would point at a missing file.
// Modules (typescript, openapi-fetch) resolve from the repository's node_modules: no install step of its own.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const outIndex = process.argv.indexOf('--out');
const outDir = outIndex > 0 ? path.resolve(process.argv[outIndex + 1] ?? '') : path.join(here, 'dist');

// Emptied first, so no output of a deleted source is ever shipped.
rmSync(outDir, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', path.join(here, 'tsconfig.json'), '--outDir', outDir], { stdio: 'inherit' });
if (result.status !== 0) {
  console.error(`client build: tsc failed (exit ${result.status ?? result.signal})`);
  process.exit(1);
}
cpSync(path.join(here, 'generated'), path.join(outDir, 'generated'), { recursive: true });
console.log(`client build: wrote ${path.relative(process.cwd(), outDir) || '.'}`);
