import { lintCases } from '../../helpers/lint';

/**
 * The dependency rule between layers (LAYERS in eslint.config.mjs, docs/conventions.md#layers), proved by planting
 * imports: each arrow the architecture forbids is an error (types included, where the arrow is wrong), each arrow it
 * allows is not. Folder depth does not matter: imports are resolved from the importing file.
 */
const RULE = 'loom/layer-imports';

const refused: [string, string][] = [
  // the domain layer never reaches into HTTP, the worker or activity internals
  ['domain/runs/planted.ts', "import { defineRoute } from '../../api/http/route';\nexport const d = defineRoute;\n"],
  ['domain/runs/planted.ts', "import type { RouteDef } from '../../api/http/route';\nexport type R = RouteDef;\n"],
  ['domain/organizations/deep/planted.ts', "import { createApp } from '../../../api/app';\nexport const a = createApp;\n"],
  ['domain/runs/planted.ts', "import { createRunActivities } from '../../activities/runs/runActivities';\nexport const a = createRunActivities;\n"],
  ['domain/runs/planted.ts', "import { createWorker } from '../../worker/createWorker';\nexport const w = createWorker;\n"],
  ['domain/runs/planted.ts', "export * from '../../api/runs/routes';\n"],
  ['domain/runs/planted.ts', "export const m = () => import('../../api/app');\n"],
  ['domain/runs/planted.ts', "export const m = () => import(`../../api/app`);\n"],
  // a computed name cannot be checked, so it is refused (a plugin loader says why in an eslint-disable comment)
  ['domain/runs/planted.ts', "const where = '../../api/' + 'app';\nexport const m = () => import(where);\n"],
  ['lib/planted.ts', "// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const m = (name: string) => require(`../api/${name}`);\n"],
  // activities call the domain, never api/
  ['activities/runs/planted.ts', "import { runRoutes } from '../../api/runs/routes';\nexport const r = runRoutes;\n"],
  ['activities/planted.ts', "import type { Domain } from '../api/domain';\nexport type D = Domain;\n"],
  ['activities/runs/planted.ts', "import { dagRunWorkflow } from '../../workflows/runs/dagRun';\nexport const d = dagRunWorkflow;\n"],
  // the worker and scripts do not import the HTTP layer (scripts/generate-client.ts alone documents it)
  ['worker/planted.ts', "import { createApp } from '../api/app';\nexport const a = createApp;\n"],
  ['scripts/admin-cli/planted.ts', "import { purge } from '../../api/middleware/idempotency';\nexport const p = purge;\n"],
  // lib/ is pure and shared: no domain, no database, no api
  ['lib/planted.ts', "import { createDb } from '../db/knex';\nexport const c = createDb;\n"],
  ['lib/content/planted.ts', "import { recordAudit } from '../../domain/audit/record';\nexport const r = recordAudit;\n"],
  ['db/planted.ts', "import { createDeps } from '../domain/runtime';\nexport const c = createDeps;\n"],
  // api/ and the domain never load activity or tool code: they read tools as descriptors (lib/tools)
  ['api/runs/planted.ts', "import { createRunActivities } from '../../activities/runs/runActivities';\nexport const a = createRunActivities;\n"],
  ['api/tools/planted.ts', "import { getTool } from '../../activities/tools/registry';\nexport const g = getTool;\n"],
  ['domain/workflows/planted.ts', "import { getTool } from '../../activities/tools/registry';\nexport const g = getTool;\n"],
  ['domain/tools/planted.ts', "import type { ToolDefinition } from '../../activities/tools/types';\nexport type T = ToolDefinition;\n"],
  // workflow code is a layer of its own: no other layer takes even a type from it (shared models live in lib/)
  ['domain/organizations/planted.ts', "import type { OrganizationDeletionInput } from '../../workflows/organizations';\nexport type I = OrganizationDeletionInput;\n"],
  ['api/runs/planted.ts', "export type W = typeof import('../../workflows/runs/dagRun');\n"],
  ['activities/runs/planted.ts', "import type { RunGraph } from '../../workflows/runs/graph';\nexport type G = RunGraph;\n"],
];

const allowed: [string, string][] = [
  ['domain/runs/planted.ts', "import { recordAudit } from '../audit/record';\nimport { createDb } from '../../db/knex';\nimport { AppError } from '../../lib/errors';\nexport const x = [recordAudit, createDb, AppError];\n"],
  ['domain/runs/planted.ts', "import type { RunInput } from '../../lib/runs/types';\nexport type R = RunInput;\n"],
  ['domain/runs/planted.ts', "import { runSearchAttributes } from '../../lib/runs/searchAttributes';\nexport const r = runSearchAttributes;\n"],
  ['api/runs/planted.ts', "import { createRunsService } from '../../domain/runs/service';\nimport { defineRoute } from '../http/route';\nexport const x = [createRunsService, defineRoute];\n"],
  ['activities/runs/planted.ts', "import { loadWorkflowVersion } from '../../domain/workflows/queries';\nexport const l = loadWorkflowVersion;\n"],
  ['worker/planted.ts', "import { createActivities } from '../activities';\nimport { createDeps } from '../domain/runtime';\nexport const x = [createActivities, createDeps];\n"],
  ['scripts/generate-client.ts', "import { createApp } from '../api/app';\nexport const a = createApp;\n"],
  ['lib/planted.ts', "import { parseDuration } from './duration';\nimport knex from 'knex';\nexport const x = [parseDuration, knex];\n"],
  // outside the layers (tests, bench) the rule does not apply
  ['test/unit/planted.test.ts', "import { createApp } from '../../api/app';\nexport const a = createApp;\n"],
];

let results: string[][] = [];

beforeAll(() => {
  results = lintCases([...refused, ...allowed]).map((messages) => messages.map((m) => m.ruleId ?? m.message));
}, 60_000);

const rulesHit = (index: number): string[] => results[index] ?? ['missing'];

describe('layer import allow-list', () => {
  test.each(refused.map((c, i) => [...c, i] as const))('%s: %j is refused', (_file, _code, index) => {
    expect(rulesHit(index)).toContain(RULE);
  });

  test.each(allowed.map((c, i) => [...c, refused.length + i] as const))('%s: %j is allowed', (_file, _code, index) => {
    expect(rulesHit(index)).not.toContain(RULE);
  });
});
