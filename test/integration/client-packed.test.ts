import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startApi, type TestApi } from '../helpers/stack';

/**
 * The client as a package (issue 44): `npm pack` in client/ ships the built JavaScript, its declarations and the
 * generated schema; the tarball installs into a project outside the repository (its one dependency from the
 * registry), and the README's first-run example, copied verbatim, type-checks and runs there against the real API.
 */
const run = promisify(execFile);
const REPO = path.resolve(__dirname, '../..');
const CLIENT = path.join(REPO, 'client');
let api: TestApi;
let project: string;

beforeAll(async () => {
  api = await startApi();
  project = mkdtempSync(path.join(tmpdir(), 'loom-client-project-'));
}, 60_000);
afterAll(async () => {
  await api.close();
  rmSync(project, { recursive: true, force: true });
});

function readmeExample(): string {
  const readme = readFileSync(path.join(CLIENT, 'README.md'), 'utf8');
  const block = /<!-- example:first-run -->\n```ts\n([\s\S]*?)\n```/.exec(readme);
  if (!block) throw new Error('client/README.md has no first-run example');
  return block[1]!;
}

test('npm pack ships the code; the tarball installs elsewhere; the README example type-checks and runs there', async () => {
  const packed = await run('npm', ['pack', '--json', '--pack-destination', project], { cwd: CLIENT, timeout: 120_000 });
  // prepack's own line (the build) comes before npm's JSON on stdout.
  const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string; files: { path: string }[] }[];
  const files = info!.files.map((f) => f.path).sort();
  expect(files).toEqual(expect.arrayContaining(['README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/generated/schema.d.ts']));
  expect(files.filter((f) => f.endsWith('.js')).length).toBeGreaterThanOrEqual(5);
  // Sources stay out: the package is what it compiles to.
  expect(files.filter((f) => !f.startsWith('dist/') && f.endsWith('.ts'))).toEqual([]);

  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'outside', version: '1.0.0', private: true, type: 'module' }));
  await run('npm', ['install', path.join(project, info!.filename), '--no-audit', '--no-fund', '--prefer-offline'], { cwd: project, timeout: 180_000 });

  const example = readmeExample();
  writeFileSync(path.join(project, 'first-run.mts'), example);
  writeFileSync(path.join(project, 'first-run.mjs'), example);
  // Type-checked against the installed declarations (TypeScript and Node's types borrowed from the repository).
  const tsc = path.join(REPO, 'node_modules/typescript/bin/tsc');
  await run(
    process.execPath,
    [tsc, '--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--lib', 'es2022,dom', '--typeRoots', path.join(REPO, 'node_modules/@types'), '--types', 'node', 'first-run.mts'],
    { cwd: project, timeout: 120_000 },
  );
  const out = await run(process.execPath, ['first-run.mjs'], { cwd: project, timeout: 60_000, env: { ...process.env, LOOM_URL: api.baseUrl } });
  expect(out.stdout.trim().split('\n')).toEqual(['completed {"greet":{"result":{"greeting":"Hello, Loom!"}}}', '404 NOT_FOUND']);
}, 300_000);
