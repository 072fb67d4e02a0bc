import { lintCases } from '../../helpers/lint';

/**
 * The allow-list for workflow code (eslint.config.mjs, eslint-rules/allowedImports.mjs): a value import planted in a
 * workflow file at any folder depth, or in a lib module bundled into workflows, is an error unless it names
 * @temporalio/workflow, @temporalio/common, workflows/ or a bundled lib module (zod for those lib modules);
 * type-only imports are free.
 */
const RULE = 'loom/allowed-imports';

const refused: [string, string][] = [
  // the nested depth the old deny-list pattern (`../activities/*`) missed
  ['workflows/runs/loop.ts', "import { createActivities } from '../../activities';\nexport const a = createActivities;\n"],
  ['workflows/runs/planted.ts', "import { createRunActivities } from '../../activities/runs/runActivities';\nexport const a = createRunActivities;\n"],
  ['workflows/planted.ts', "import { createActivities } from '../activities/index';\nexport const a = createActivities;\n"],
  // a module that pulls in @temporalio/client, and the client itself
  ['workflows/runs/loop.ts', "import { createTemporalClient } from '../../lib/temporal';\nexport const c = createTemporalClient;\n"],
  ['workflows/runs/planted.ts', "import { Client } from '@temporalio/client';\nexport const c = Client;\n"],
  ['workflows/triggers/planted.ts', "import { startRun } from '../../api/triggers/runStarter';\nexport const s = startRun;\n"],
  ['workflows/runs/planted.ts', "import fs from 'node:fs';\nexport const f = fs;\n"],
  ['workflows/runs/planted.ts', "import jsonata from 'jsonata';\nexport const j = jsonata;\n"],
  ['workflows/runs/planted.ts', "import { checkExpression } from '../../lib/expressions';\nexport const e = checkExpression;\n"],
  // a path that leaves an allowed folder again
  ['workflows/runs/planted.ts', "import { loadConfig } from '../../lib/dag/../config';\nexport const l = loadConfig;\n"],
  // re-exports, side-effect imports, dynamic imports
  ['workflows/runs/planted.ts', "export { createDb } from '../../db/knex';\n"],
  ['workflows/runs/planted.ts', "export * from '../../lib/storage';\n"],
  ['workflows/runs/planted.ts', "import '../../worker/observability';\n"],
  ['workflows/runs/planted.ts', "export const m = () => import('../../lib/config');\n"],
  ['workflows/runs/planted.ts', "const name = 'pg';\nexport const m = () => import(name);\n"],
  // the bundled lib modules are held to the list too (zod, each other; not Temporal, not the rest of lib)
  ['lib/dag/planted.ts', "import { loadConfig } from '../config';\nexport const l = loadConfig;\n"],
  ['lib/dag/validation/planted.ts', "import { evaluate } from '../../expressions/sandbox';\nexport const e = evaluate;\n"],
  ['lib/dag/planted.ts', "import { proxyActivities } from '@temporalio/workflow';\nexport const p = proxyActivities;\n"],
  ['lib/duration.ts', "import knex from 'knex';\nexport const k = knex;\n"],
];

const allowed: [string, string][] = [
  ['workflows/runs/planted.ts', "import type { RunActivities } from '../../activities/runs/runActivities';\nexport type R = RunActivities;\n"],
  ['workflows/runs/planted.ts', "import { type Activities } from '../../activities';\nexport type A = Activities;\n"],
  ['workflows/runs/planted.ts', "export type { Config } from '../../lib/config';\n"],
  ['workflows/runs/planted.ts', "import { proxyActivities } from '@temporalio/workflow';\nexport const p = proxyActivities;\n"],
  ['workflows/runs/planted.ts', "import { defineSearchAttributeKey } from '@temporalio/common';\nexport const d = defineSearchAttributeKey;\n"],
  ['workflows/runs/planted.ts', "import { buildGraph } from './graph';\nexport const b = buildGraph;\n"],
  ['workflows/runs/planted.ts', "import { awaitApproval } from '../triggers/approval';\nexport const a = awaitApproval;\n"],
  ['workflows/planted.ts', "export { dagRunWorkflow } from './runs/dagRun';\n"],
  ['workflows/runs/planted.ts', "import { dagSchema } from '../../lib/dag/model';\nexport const d = dagSchema;\n"],
  ['workflows/runs/planted.ts', "import { parseDuration } from '../../lib/duration';\nexport const p = parseDuration;\n"],
  ['lib/dag/planted.ts', "import { z } from 'zod';\nimport { dagSchema } from './model';\nexport const s = [z, dagSchema];\n"],
  ['lib/dag/validation/planted.ts', "import { dagSchema } from '../model';\nimport { zodIssueDetails } from '../../zodIssues';\nexport const s = [dagSchema, zodIssueDetails];\n"],
  // outside the bundle the rule does not apply
  ['activities/runs/planted.ts', "import { loadConfig } from '../../lib/config';\nexport const l = loadConfig;\n"],
];

let results: string[][] = [];

beforeAll(() => {
  results = lintCases([...refused, ...allowed]).map((messages) => messages.map((m) => m.ruleId ?? m.message));
}, 60_000);

const rulesHit = (index: number): string[] => results[index] ?? ['missing'];

describe('workflow import allow-list', () => {
  test.each(refused.map((c, i) => [...c, i] as const))('%s: %j is refused', (_file, _code, index) => {
    expect(rulesHit(index)).toContain(RULE);
  });

  test.each(allowed.map((c, i) => [...c, refused.length + i] as const))('%s: %j is allowed', (_file, _code, index) => {
    expect(rulesHit(index)).not.toContain(RULE);
  });
});

/** Workflow code takes only types from the modules of zod schemas (each execution would build them again). */
describe('zod schemas stay out of workflow code', () => {
  const SCHEMAS_RULE = 'no-restricted-imports';
  const cases: [string, string, boolean][] = [
    ['workflows/runs/planted.ts', "import { MAX_SWITCH_CASES } from '../../lib/dag/model';\nexport const m = MAX_SWITCH_CASES;\n", true],
    ['workflows/runs/planted.ts', "import { NODE_TYPE_SPECS } from '../../lib/dag/nodeTypes';\nexport const s = NODE_TYPE_SPECS;\n", true],
    ['workflows/planted.ts', "import { waitProblems } from '../lib/dag/validation/waitNode';\nexport const w = waitProblems;\n", true],
    ['workflows/runs/planted.ts', "import type { NodeDef } from '../../lib/dag/model';\nexport type N = NodeDef;\n", false],
    ['workflows/runs/planted.ts', "import { MAX_WAIT_MS } from '../../lib/dag/waits';\nexport const m = MAX_WAIT_MS;\n", false],
  ];
  let hits: string[][] = [];
  beforeAll(() => {
    hits = lintCases(cases.map(([file, code]) => [file, code])).map((messages) => messages.map((m) => m.ruleId ?? m.message));
  }, 60_000);
  test.each(cases.map((c, i) => [...c, i] as const))('%s: %j refused: %s', (_file, _code, refusedHere, index) => {
    if (refusedHere) expect(hits[index]).toContain(SCHEMAS_RULE);
    else expect(hits[index] ?? []).not.toContain(SCHEMAS_RULE);
  });
});
