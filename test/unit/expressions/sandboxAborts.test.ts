import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * A V8 abort (an array past its maximum length) cannot be caught: it ends the whole process. The sandbox runs
 * expressions in child processes, so such an expression ends only its child and is answered EXPRESSION_TOO_COMPLEX.
 * The attacks run in a process of their own (test/fixtures/expressions/abortingExpressions.ts), so that on a sandbox
 * that evaluates in-process this test fails with the signal instead of taking Jest down.
 */
test('an expression that makes V8 abort ends only its sandbox process; the next evaluations run', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, '../../fixtures/expressions/abortingExpressions.ts')], {
    cwd: path.join(__dirname, '../../..'),
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect({ status: run.status, signal: run.signal }).toEqual({ status: 0, signal: null });
  const tooComplex = { code: 'EXPRESSION_TOO_COMPLEX', message: 'the expression needed more memory than the sandbox allows and was stopped' };
  expect(JSON.parse(run.stdout)).toEqual({
    jsonataSplit: tooComplex,
    celSplit: tooComplex,
    jsonataAfterwards: { value: 6 },
    celAfterwards: { value: 800_000 },
  });
  // V8's own report reaches the stderr of the process that holds the sandbox, for operators.
  expect(run.stderr).toMatch(/invalid size error/);
});
