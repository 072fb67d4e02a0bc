import { readFileSync } from 'node:fs';
import path from 'node:path';
import { LAYERS, ROOT, sourceFiles, withoutComments } from '../../helpers/sourceFiles';

/**
 * One composition root per process (issue 41, docs/conventions.md#composition): the process's shared parts are built
 * by domain/runtime.ts (API, CLI) or worker/main.ts, and the domain services by domain/services.ts; api/ only asks
 * them for what its routes call. A factory called elsewhere builds a second copy (a second LISTEN connection, a
 * second tool catalogue, a second secret box) that the rest of the process never sees.
 */
/** Who may call each process-level factory: everything not listed here is refused. */
const BUILDERS: Record<string, string[]> = {
  createProcessDeps: ['domain/runtime.ts', 'worker/main.ts'],
  createDeps: ['api/server.ts', 'scripts/admin-cli/services.ts', 'scripts/generate-client.ts'],
  // The organization import (activities/organizations/transfers.ts) runs every record of an archive through the
  // API's services: it builds them on the worker's parts for that one import, with the activity's Temporal client,
  // and closes them at its end; nothing else in the worker sees them.
  createServices: ['api/app.ts', 'scripts/admin-cli/services.ts', 'activities/organizations/transfers.ts'],
  createSecretBox: ['domain/runtime.ts'],
  createToolCatalogue: ['domain/runtime.ts'],
  createRunExecutions: ['domain/services.ts'],
  createRunWaiter: ['domain/services.ts'],
  createRunsService: ['domain/services.ts'],
  createRunAdmission: ['domain/services.ts'],
  createDispatcherEnsurer: ['domain/services.ts'],
  createWorkflowsService: ['domain/services.ts'],
  createOffLoopValidator: ['domain/services.ts'],
  createAuthChangeListener: ['domain/services.ts'],
  createApiCallMeter: ['domain/services.ts'],
  createOrganizationsServices: ['domain/services.ts'],
};

/** `factory(` calls per file, definitions (`function factory(`) excluded. */
export function factoryCalls(source: string, factories: readonly string[]): string[] {
  const code = withoutComments(source);
  return factories.filter((name) => new RegExp(`(?<!function\\s)\\b${name}\\(`).test(code));
}

/** In api/, any `create…Service(` or `create…Services(` call: routes get services, they do not build them. */
const API_SERVICE_FACTORY = /(?<!function\s)\bcreate[A-Z]\w*Services?\(/;

describe('composition root', () => {
  const files = LAYERS.flatMap((layer) => sourceFiles(path.join(ROOT, layer))).map((full) => ({
    file: path.relative(ROOT, full).split(path.sep).join('/'),
    source: readFileSync(full, 'utf8'),
  }));

  test('process-level parts and services are built only by the composition roots', () => {
    const strays = files.flatMap(({ file, source }) =>
      factoryCalls(source, Object.keys(BUILDERS))
        .filter((name) => !BUILDERS[name]!.includes(file))
        .map((name) => `${file} calls ${name}`),
    );
    expect(strays).toEqual([]);
  });

  test('api/ builds no domain service', () => {
    const strays = files.filter(({ file, source }) => file.startsWith('api/') && API_SERVICE_FACTORY.test(withoutComments(source)));
    expect(strays.map((f) => f.file)).toEqual([]);
  });

  test('the check sees a planted call and ignores definitions and comments', () => {
    expect(factoryCalls("const runs = createRunsService(deps, parts);", ['createRunsService'])).toEqual(['createRunsService']);
    expect(factoryCalls('export function createRunsService(deps) {}', ['createRunsService'])).toEqual([]);
    expect(factoryCalls('// createRunsService(deps)\n/* createRunsService(x) */', ['createRunsService'])).toEqual([]);
    expect(API_SERVICE_FACTORY.test('const s = createSecretsService({ db, box });')).toBe(true);
  });
});
