import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CLIENT = path.join(ROOT, 'client');

interface PackageJson {
  name: string;
  version: string;
  main: string;
  types: string;
  exports: Record<string, { types?: string; default?: string } | string>;
  files: string[];
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
}

const readPackage = (file: string): PackageJson => JSON.parse(readFileSync(file, 'utf8')) as PackageJson;

test('client/package.json describes the built package and pins openapi-fetch as the root does', () => {
  const pkg = readPackage(path.join(CLIENT, 'package.json'));
  const root = readPackage(path.join(ROOT, 'package.json'));
  expect(pkg).toMatchObject({ name: '@loom/client', version: '0.1.0', main: 'dist/index.js', types: 'dist/index.d.ts' });
  expect(pkg.exports['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
  expect(pkg.files).toContain('dist');
  expect(pkg.dependencies['openapi-fetch']).toBe(root.dependencies['openapi-fetch']);
  expect(Object.keys(pkg.scripts)).toEqual(expect.arrayContaining(['build', 'test']));
});

/**
 * Builds the package the way `npm run build` does (client/build.mjs: tsc -p client/tsconfig.json, then the generated
 * schema beside it) into node_modules/@loom/client of a scratch folder inside the repository (so openapi-fetch
 * resolves from the root node_modules, as it does for the package), then uses it as a dependency: require() and
 * import() by name through package.json, and a strict TypeScript consumer without Node or jest types.
 */
test('the package builds, loads by its name and its declarations type-check on their own', () => {
  const cache = path.join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const scratch = mkdtempSync(path.join(cache, 'loom-client-build-'));
  try {
    const installed = path.join(scratch, 'node_modules', '@loom', 'client');
    execFileSync(process.execPath, [path.join(CLIENT, 'build.mjs'), '--out', path.join(installed, 'dist')], { stdio: 'pipe', timeout: 150_000 });
    cpSync(path.join(CLIENT, 'package.json'), path.join(installed, 'package.json'));
    expect(existsSync(path.join(installed, 'dist', 'index.d.ts'))).toBe(true);
    expect(existsSync(path.join(installed, 'dist', 'generated', 'schema.d.ts'))).toBe(true);

    const declarations = ['index', 'auth', 'errors', 'pagination', 'runs'].map((f) => readFileSync(path.join(installed, 'dist', `${f}.d.ts`), 'utf8')).join('\n');
    expect(declarations).not.toMatch(/NodeJS\.|reference types="(node|jest)"|from 'node:/);

    // In this process, through package.json's main.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const built = require(installed) as Record<string, unknown>;
    for (const name of ['createLoomClient', 'LoomApiError', 'RunWaitTimeoutError', 'unwrap', 'paginate', 'collect', 'waitForRun', 'startRunAndWait', 'isFinished']) {
      expect(typeof built[name]).toBe('function');
    }
    const loom = (built.createLoomClient as (baseUrl: string) => Record<string, unknown>)('http://127.0.0.1:1');
    for (const method of ['GET', 'POST', 'useTokens', 'setToken', 'tokens', 'refreshTokens', 'paginate', 'collect', 'waitForRun', 'startRunAndWait']) {
      expect(typeof loom[method]).toBe('function');
    }

    // By name, in plain Node, through the exports map: CommonJS and ESM consumers alike.
    const names = (source: string, type: 'commonjs' | 'module'): string =>
      execFileSync(process.execPath, ['--input-type', type, '-e', source], { cwd: scratch, encoding: 'utf8', timeout: 30_000 }).trim();
    expect(names("console.log(typeof require('@loom/client').createLoomClient)", 'commonjs')).toBe('function');
    expect(names("const m = await import('@loom/client'); console.log(typeof m.createLoomClient, typeof m.LoomApiError)", 'module')).toBe('function function');

    writeFileSync(
      path.join(scratch, 'consumer.ts'),
      [
        "import { createLoomClient, unwrap, LoomApiError, RunWaitTimeoutError, type FinishedRun } from '@loom/client';",
        "const loom = createLoomClient('http://127.0.0.1:3000', { refreshToken: 'r', onTokens: (t) => void t.refreshToken.length });",
        'export async function use(): Promise<FinishedRun> {',
        "  const me = unwrap(await loom.GET('/api/auth/me'));",
        '  const email: string = me.user.email;',
        "  for await (const run of loom.paginate('/api/v1/runs', { params: { query: { status: 'failed', limit: 10 } }, maxItems: 5 })) void run.id;",
        "  // @ts-expect-error the query is typed: no such status",
        "  void loom.paginate('/api/v1/runs', { params: { query: { status: 'sleeping' } } });",
        "  // @ts-expect-error only lists paginate",
        "  void loom.paginate('/api/auth/me');",
        "  // @ts-expect-error a path parameter is required",
        "  void loom.paginate('/api/v1/workflows/{id}/runs');",
        '  try {',
        "    return await loom.startRunAndWait('wf', { email }, { waitSeconds: 30 });",
        '  } catch (err) {',
        '    if (err instanceof RunWaitTimeoutError) return loom.waitForRun(err.run.workflow_id, err.run.id, { timeoutMs: 60_000 });',
        "    if (err instanceof LoomApiError && err.code === 'INVALID_PARAMETERS') throw err;",
        '    throw err;',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    writeFileSync(
      path.join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          target: 'ES2022',
          lib: ['ES2022', 'DOM'],
          types: [],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          skipLibCheck: false,
        },
        files: ['consumer.ts'],
      }),
    );
    try {
      execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', scratch], { encoding: 'utf8', timeout: 150_000 });
    } catch (err) {
      throw new Error(`the consumer does not type-check against the built declarations:\n${(err as { stdout?: string }).stdout ?? String(err)}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}, 300_000);
