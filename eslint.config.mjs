// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
  'assert', 'buffer', 'child_process', 'cluster', 'crypto', 'dgram', 'dns', 'events', 'fs', 'fs/promises', 'http',
  'http2', 'https', 'net', 'os', 'path', 'perf_hooks', 'process', 'readline', 'stream', 'timers', 'tls', 'url',
  'util', 'v8', 'vm', 'worker_threads', 'zlib',
];

// Modules that open connections by themselves; only lib/net may use them (see the outbound block below).
const OUTBOUND_MODULES = ["/^(node:)?(net|tls|http2|dgram)$/", "/^(undici|node-fetch|axios|got|cross-fetch|ky)$/"];
const OUTBOUND_MESSAGE =
  'network access goes through lib/net (guardedRequest / tenantPostgresClient and the outbound policy), not a raw client';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', '.data/', 'coverage/', 'client/generated/', 'bench/results/'] },
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
    files: ['workflows/**/*.ts', 'lib/dag/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...nodeBuiltins.flatMap((m) => [{ name: m }, { name: `node:${m}` }]),
            { name: '@temporalio/client', message: 'workflows may not use the client' },
            { name: '@temporalio/worker', message: 'workflows may not import the worker' },
            { name: '@temporalio/activity', message: 'workflows may not import activity code' },
          ],
          patterns: [
            { group: ['../activities/*', '../activities', '!../activities/index'], message: 'import activity types only (import type)', allowTypeImports: true },
            { group: ['**/db/*', '**/api/*', 'knex', 'pg', 'minio', 'pino', 'nodemailer'], message: 'no I/O in workflow code' },
            { group: ['jsonata', '@marcbachmann/cel-js', 're2', '**/expressions/sandbox', '**/expressions/sandbox/*'], message: 'expressions are evaluated in activities, never in workflow code' },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: 'use workflow time (Date inside the sandbox is replay-safe, but keep time reads explicit via the interpreter)' },
        { object: 'Math', property: 'random', message: 'use uuid4() from @temporalio/workflow or pass randomness in' },
      ],
      'no-restricted-globals': ['error', 'setInterval', 'fetch', 'process', 'require', 'Buffer'],
    },
  },
  {
    // The outbound policy (lib/net/outbound.ts, docs/security.md#outbound-policy): every destination a tenant can
    // name is reached through lib/net (guarded HTTP client, vetted PostgreSQL client). Raw network clients anywhere
    // else could skip the guard, so they are refused here; a platform-internal call that needs one says why in an
    // eslint-disable comment. (Workflow code and lib/dag have their own stricter block above.)
    files: ['api/**/*.ts', 'activities/**/*.ts', 'lib/**/*.ts', 'worker/**/*.ts', 'db/**/*.ts'],
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
    // The expression sandbox (lib/expressions/sandbox, docs/expressions.md#sandbox) is the one place user CEL,
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
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
