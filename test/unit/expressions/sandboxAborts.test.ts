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
  expect(JSON.parse(run.stdout)).toEqual({ ...expected, jsonataHeap: tooComplex });
  // Each end is said in one line under the sandbox process's name. V8's own report never reaches the holding
  // process's stderr: verbatim it reads as that process's death (Jest's worker pool failed a suite over it).
  expect(run.stderr).toMatch(/^expression sandbox \d+: ended by V8: a task asked for a value past V8's maximum size$/m);
  expect(run.stderr).toMatch(/^expression sandbox \d+: ended by V8: a task needed more than the 1024 MB heap the sandbox allows$/m);
  expect(run.stderr).not.toMatch(/heap out of memory|allocation failure;|Last few GCs|Fatal JavaScript/);
});

test('idle sandbox processes do not keep their parent alive: it exits without closing the sandbox', () => {
  const run = runFixture('--leave-open');
  expect({ status: run.status, signal: run.signal }).toEqual({ status: 0, signal: null }); // a hang ends in SIGTERM
  expect(JSON.parse(run.stdout)).toEqual(expected);
});
