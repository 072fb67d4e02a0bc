import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

/**
 * `npm run build [-- --out <dir>]`: the compiled JavaScript that production runs (`node dist/api/server.js`,
 * `node dist/worker/main.js`, `node dist/scripts/migrate.js latest`), with no TypeScript transform at run time.
 * The folder is emptied first, so no output of a deleted source (a tool, a migration) is ever loaded; files the code
 * reads next to itself are copied in. Any folder directly or deeper inside the repository works: modules resolve
 * from the repository's node_modules.
 */
function repositoryRoot(): string {
  // Up from this file until tsconfig.build.json: scripts/ under tsx, <build dir>/scripts/ once compiled.
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'tsconfig.build.json'))) return dir;
  }
  throw new Error('tsconfig.build.json not found above scripts/build');
}

const REPO_ROOT = repositoryRoot();

/** Non-TypeScript files the code reads from its own folder. */
const ASSETS = ['lib/auth/common-passwords.txt', 'worker/workflowThreadSetup.cjs'];

export const DEFAULT_BUILD_DIR = path.join(REPO_ROOT, 'dist');

export function build(outDir: string = DEFAULT_BUILD_DIR): void {
  rmSync(outDir, { recursive: true, force: true });
  const tsc = require.resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', outDir], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`tsc -p tsconfig.build.json failed:\n${result.stdout}${result.stderr}`);
  for (const asset of ASSETS) {
    const target = path.join(outDir, asset);
    mkdirSync(path.dirname(target), { recursive: true });
    copyFileSync(path.join(REPO_ROOT, asset), target);
  }
}

if (require.main === module) {
  const outIndex = process.argv.indexOf('--out');
  const outDir = outIndex > 0 ? path.resolve(process.argv[outIndex + 1] ?? '') : DEFAULT_BUILD_DIR;
  try {
    build(outDir);
    console.log(`build: wrote ${path.relative(process.cwd(), outDir) || '.'}`);
  } catch (err) {
    console.error(`build: ${(err as Error).message}`);
    process.exit(1);
  }
}
