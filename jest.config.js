/** @type {import('jest').Config} */
const transform = {
  '^.+\\.(t|j)s$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
};

// ESM-only packages that Jest's CommonJS runtime cannot require on Node 20: compile them like our sources.
const transformIgnorePatterns = [
  '/node_modules/(?!(@marcbachmann/cel-js|file-type|jose|strtok3|token-types|uint8array-extras|@tokenizer|@borewit)/)',
];

module.exports = {
  testTimeout: 60_000,
  // Jest's default is one worker per core but one, which on the 2-core machines CI uses ran every file one after
  // another. The integration files mostly wait on Temporal, timers and the shared test worker: two at a time took the
  // suite from 1,543 s to 821 s there. Not more: the test worker process and the Temporal dev server are shared.
  // scripts/test runs the files that would disturb a neighbour afterwards, one at a time (EXCLUSIVE_TESTS).
  maxWorkers: 2,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
    },
    {
      displayName: 'integration',
      testEnvironment: 'node',
      transform,
      transformIgnorePatterns,
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      globalSetup: '<rootDir>/test/setup/globalSetup.ts',
      globalTeardown: '<rootDir>/test/setup/globalTeardown.ts',
      slowTestThreshold: 30,
    },
  ],
};
