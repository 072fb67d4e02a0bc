import { withDescendants } from '../../../bench/lib/cpu';
import { DEFAULT_JSONATA_LIMITS } from '../../../lib/expressions';
import { createSandboxPool } from '../../../lib/expressions/sandbox/pool';

/**
 * A sandbox task's deadline counts the CPU time it got. On a saturated machine the data lane (nice 10) gets a tenth
 * of a core: a task that needs a few hundred milliseconds must not be stopped at a deadline it never used. Starvation
 * is made certain here by stopping the process (SIGSTOP) in the middle of the task; compared by outcome, not time.
 */
/** JSONata's own between-steps deadline as in production (2 s), the pool's 250 ms later (lib/expressions/sandbox). */
const limits = DEFAULT_JSONATA_LIMITS;
const POOL_DEADLINE_MS = limits.timeoutMs + 250;
const jsonata = (expression: string) => ({ op: 'jsonata' as const, expression, data: null, bindings: {}, limits });
/** 100,000 steps: 0.3–0.9 s of CPU on this kind of machine, quiet or loaded. */
const BUSY = jsonata('$sum([1..100000].($ * 2))');
const ENDLESS = jsonata('($f := function($x){ $f($x) }; $f(1))');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('a task whose process gets no CPU past its deadline finishes once it runs again', async () => {
  const before = new Set(withDescendants([process.pid]));
  const pool = createSandboxPool(1);
  try {
    expect(await pool.run(jsonata('1 + 1'), 30_000)).toBe(2);
    const [pid] = withDescendants([process.pid]).filter((p) => !before.has(p));
    expect(pid).toBeDefined();
    const working = pool.run(BUSY, POOL_DEADLINE_MS).catch((err: Error & { code?: string }) => err.code);
    await sleep(100);
    process.kill(pid!, 'SIGSTOP');
    await sleep(3500); // past both deadlines, with under a second of CPU used
    process.kill(pid!, 'SIGCONT');
    expect(await working).toBe(10000100000);
  } finally {
    await pool.close();
  }
});

test('a task that uses its CPU time is stopped at its deadline', async () => {
  const pool = createSandboxPool(1);
  try {
    // JSONata's own check stops it (its message names its 2 s), the process stays for the next task
    await expect(pool.run(ENDLESS, POOL_DEADLINE_MS)).rejects.toMatchObject({ code: 'EXPRESSION_TIMEOUT', message: 'expression ran longer than 2000 ms and was stopped' });
    // a CEL comprehension has no check of its own: the pool stops it once it has had its CPU time
    const xs = Array.from({ length: 3000 }, (_, i) => i);
    await expect(pool.run({ op: 'cel', text: 'xs.map(a, xs.map(b, a + b)).size()', context: { xs } }, 1000)).rejects.toMatchObject({
      code: 'EXPRESSION_TIMEOUT',
      message: 'expression ran longer than 1000 ms and was stopped',
    });
  } finally {
    await pool.close();
  }
});
