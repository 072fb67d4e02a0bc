import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * A V8 abort (an array past its maximum length) cannot be caught: it ends the whole process. The sandbox runs
 * expressions in child processes, so such an expression ends only its child and is answered EXPRESSION_TOO_COMPLEX.
 * The attacks run in a process of their own (test/fixtures/expressions/abortingExpressions.ts), so that on a sandbox
 * that evaluates in-process this test fails with the signal instead of taking Jest down.
 */
function runFixture(...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', path.join(__dirname, '../../fixtures/expressions/abortingExpressions.ts'), ...args], {
    cwd: path.join(__dirname, '../../..'),
    encoding: 'utf8',
    timeout: 120_000,
  });
}

const tooComplex = { code: 'EXPRESSION_TOO_COMPLEX', message: 'the expression needed more memory than the sandbox allows and was stopped' };
const expected = {
  jsonataSplit: tooComplex,
  celSplit: tooComplex,
  jsonataAfterwards: { value: 6 },
  celAfterwards: { value: 800_000 },
  // The pool alone ends its processes: a SIGTERM to the process group leaves the task to finish.
  duringSigterm: { value: 1500, signalled: true },
};

test('an expression that makes V8 abort ends only its sandbox process; the next evaluations run', () => {
  const run = runFixture();
  expect({ status: run.status, signal: run.signal }).toEqual({ status: 0, signal: null });
  expect(JSON.parse(run.stdout)).toEqual(expected);
  // V8's own report reaches the stderr of the process that holds the sandbox, for operators.
  expect(run.stderr).toMatch(/invalid size error/);
});

test('idle sandbox processes do not keep their parent alive: it exits without closing the sandbox', () => {
  const run = runFixture('--leave-open');
  expect({ status: run.status, signal: run.signal }).toEqual({ status: 0, signal: null }); // a hang ends in SIGTERM
  expect(JSON.parse(run.stdout)).toEqual(expected);
});
