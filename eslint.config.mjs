// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import loom from './eslint-rules/allowedImports.mjs';

// The pure lib modules (folders or files) that workflow code bundles, directly or through lib/dag. Each is held to
// the same allow-list itself, so nothing reaches the bundle behind them.
const WORKFLOW_LIB_MODULES = [
  'lib/dag',
  'lib/runs',
  'lib/triggers/types',
  'lib/duration',
  'lib/zodIssues',
  'lib/suggest',
  'lib/echo',
  'lib/tenantPriority',
  'lib/contentSteps',
];
const WORKFLOW_LIB_FILES = WORKFLOW_LIB_MODULES.flatMap((m) => [`${m}.ts`, `${m}/**/*.ts`]);

// Modules that open connections by themselves; only lib/net may use them (see the outbound block below).
const OUTBOUND_MODULES = ["/^(node:)?(net|tls|http2|dgram)$/", "/^(undici|node-fetch|axios|got|cross-fetch|ky)$/"];
const OUTBOUND_MESSAGE =
  'network access goes through lib/net (guardedRequest / tenantPostgresClient and the outbound policy), not a raw client';

// The dependency rule between layers (docs/conventions.md#layers): an allow-list of what each layer's files may
// import from the project (packages are free here). Types count too: a type several layers share lives in lib/.
// test/unit/lint/layerImports.test.ts plants refused imports in each layer.
const LAYERS = [
  { area: 'lib/', files: ['lib/**/*.ts'], paths: ['lib'] },
  { area: 'db/', files: ['db/**/*.ts'], paths: ['db', 'lib'] },
  { area: 'the domain layer', files: ['domain/**/*.ts'], paths: ['domain', 'lib', 'db'] },
  { area: 'api/', files: ['api/**/*.ts'], paths: ['api', 'domain', 'lib', 'db'] },
  { area: 'activities/', files: ['activities/**/*.ts'], paths: ['activities', 'domain', 'lib', 'db'] },
  { area: 'worker/', files: ['worker/**/*.ts'], paths: ['worker', 'activities', 'domain', 'lib', 'db', 'workflows'] },
  // scripts/generate-client.ts documents the API itself, so it alone builds the app.
  { area: 'scripts/', files: ['scripts/**/*.ts'], ignores: ['scripts/generate-client.ts'], paths: ['scripts', 'worker', 'activities', 'domain', 'lib', 'db'] },
];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.data/', 'coverage/', 'client/generated/', 'client/dist/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': 'off',
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: no Node built-ins, no I/O, no wall clock or
    // randomness outside the sandbox's guarantees. Side effects belong in activities.
    files: ['workflows/**/*.ts', ...WORKFLOW_LIB_FILES],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'use workflow time (Date inside the sandbox is replay-safe, but keep time reads explicit via the interpreter)' },
        { object: 'Math', property: 'random', message: 'use uuid4() from @temporalio/workflow or pass randomness in' },
      ],
      'no-restricted-globals': ['error', 'setInterval', 'fetch', 'process', 'require', 'Buffer'],
    },
  },
  {
    // What workflow code may import (values; `import type` is free): an allow-list, so a new folder depth or a
    // module that pulls in a client, a driver or an expression engine cannot slip through (test/unit/lint/
    // workflowImports.test.ts). Activities are called through proxyActivities with their types only.
    files: ['workflows/**/*.ts'],
    plugins: { loom },
    rules: {
      'loom/allowed-imports': [
        'error',
        {
          area: 'workflow code',
          root: import.meta.dirname,
          packages: ['@temporalio/workflow', '@temporalio/common'],
          paths: ['workflows', ...WORKFLOW_LIB_MODULES],
        },
      ],
      // Workflow code is evaluated afresh for each execution: building the model's zod schemas would cost ~30 ms
      // of worker CPU per run (workflows/runs/configs.ts). Their modules give types only; values go in zod-free ones.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/lib/dag/model', '**/lib/dag/nodeConfig', '**/lib/dag/nodeTypes', '**/lib/dag/validate', '**/lib/dag/validation/**', '**/lib/dag/document'],
              allowTypeImports: true,
              message: 'a module of zod schemas: workflow code takes types from it only; put a value workflows need in a zod-free module (e.g. lib/dag/waits.ts)',
            },
          ],
        },
      ],
    },
  },
  {
    // The pure lib modules workflow code bundles: they may import only each other, zod and @temporalio/common.
    files: WORKFLOW_LIB_FILES,
    plugins: { loom },
    rules: {
      'loom/allowed-imports': [
        'error',
        {
          area: 'lib modules bundled into workflow code',
          root: import.meta.dirname,
          packages: ['zod', '@temporalio/common'],
          paths: WORKFLOW_LIB_MODULES,
        },
      ],
    },
  },
  {
    // The outbound policy (lib/net/outbound.ts, docs/security.md#outbound-policy): every destination a tenant can
    // name is reached through lib/net (guarded HTTP client, vetted PostgreSQL client). Raw network clients anywhere
    // else could skip the guard, so they are refused here; a platform-internal call that needs one says why in an
    // eslint-disable comment. (Workflow code and lib/dag have their own stricter block above.)
    files: ['api/**/*.ts', 'domain/**/*.ts', 'activities/**/*.ts', 'lib/**/*.ts', 'worker/**/*.ts', 'db/**/*.ts'],
    ignores: ['lib/net/**', 'lib/dag/**'],
    rules: {
      'no-restricted-globals': ['error', { name: 'fetch', message: OUTBOUND_MESSAGE }],
      'no-restricted-syntax': [
        'error',
        ...OUTBOUND_MODULES.flatMap((pattern) => [
          { selector: `ImportDeclaration[importKind!='type'][source.value=${pattern}]`, message: OUTBOUND_MESSAGE },
          { selector: `ImportExpression[source.value=${pattern}]`, message: OUTBOUND_MESSAGE },
          { selector: `CallExpression[callee.name='require'][arguments.0.value=${pattern}]`, message: OUTBOUND_MESSAGE },
        ]),
        {
          selector: `ImportDeclaration[importKind!='type'][source.value=/^(node:)?https?$/] > :matches(ImportDefaultSpecifier, ImportNamespaceSpecifier, ImportSpecifier[importKind!='type'][imported.name=/^(request|get|Agent)$/])`,
          message: OUTBOUND_MESSAGE,
        },
        {
          selector: `ImportDeclaration[importKind!='type'][source.value='pg'] > :matches(ImportDefaultSpecifier, ImportNamespaceSpecifier, ImportSpecifier[importKind!='type'][imported.name=/^(Client|Pool|native|Connection)$/])`,
          message: OUTBOUND_MESSAGE,
        },
      ],
    },
  },
  {
    // The expression sandbox (lib/expressions/sandbox, docs/workflows.md#the-expression-sandbox) is the one place user CEL,
    // JSONata and regexes run: under a deadline that stops them, with RE2. Importing an engine anywhere else could
    // evaluate without those guards. Save-time checks use lib/expressions (its index: parse and check only).
    files: ['**/*.ts'],
    ignores: ['lib/expressions/**', 'workflows/**', 'lib/dag/**', 'test/unit/expressions/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['jsonata', '@marcbachmann/cel-js', 're2'].map((name) => ({
            name,
            message: 'evaluate user expressions through lib/expressions/sandbox (deadline, limits, RE2)',
          })),
          patterns: [
            {
              group: ['**/lib/expressions/cel', '**/lib/expressions/templates', '**/lib/expressions/values', '**/lib/expressions/sandbox/*'],
              message: 'import lib/expressions (checks) or lib/expressions/sandbox (evaluation), not their internals',
            },
          ],
        },
      ],
    },
  },
  ...LAYERS.map(({ area, files, ignores, paths }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    plugins: { loom },
    rules: { 'loom/layer-imports': ['error', { area, root: import.meta.dirname, paths }] },
  })),
  {
    // The web console runs in browsers (docs/console.md): browser globals, and of the project only pure lib modules
    // that are safe to ship to a page (no secrets, no Node built-ins). Types of the generated client are free.
    files: ['console/**/*.ts', 'console/**/*.tsx'],
    languageOptions: { globals: globals.browser },
    plugins: { loom },
    rules: {
      'loom/allowed-imports': [
        'error',
        {
          area: 'the web console',
          root: import.meta.dirname,
          packages: ['preact'],
          paths: ['console', 'lib/permissions', 'lib/textDiff'],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
