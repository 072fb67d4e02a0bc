import { DEFAULT_JSONATA_LIMITS } from '../../../lib/expressions';
import { createSandboxPool } from '../../../lib/expressions/sandbox/pool';

/**
 * The sandbox lanes are shared by every organization of a process (real child processes here). One organization
 * whose expressions all run into their deadline must not hold another's behind them: compared by order of
 * completion, never by time.
 */
const ENDLESS = '($f := function($x){ $f($x) }; $f(1))';
// Deadlines long beside a quick expression's answer even on a loaded machine (a full test run's two files at a time).
const limits = { ...DEFAULT_JSONATA_LIMITS, timeoutMs: 1500 };
const endless = { op: 'jsonata' as const, expression: ENDLESS, data: null, bindings: {}, limits };
const quick = { op: 'jsonata' as const, expression: '1 + 1', data: null, bindings: {}, limits };

test("another organization's expression is served before one organization's queued deadline-long ones", async () => {
  const pool = createSandboxPool(3);
  try {
    // All three processes booted first: otherwise the order compares a process's boot (seconds on a loaded machine)
    // with the flood's 1.5 s deadlines, not the queue's turns.
    await Promise.all(['w1', 'w2', 'w3'].map((key) => pool.run(quick, 30_000, key)));
    const finished: string[] = [];
    const flood = Array.from({ length: 6 }, (_, i) =>
      pool.run(endless, limits.timeoutMs + 250, 'org-a').then(
        () => finished.push(`a${i}`),
        () => finished.push(`a${i}`),
      ),
    );
    const other = pool.run(quick, 5000, 'org-b').then((value) => {
      finished.push('b');
      return value;
    });
    expect(await other).toBe(2);
    await Promise.all(flood);
    // First come first served, b waited for a's tasks queued ahead of it (fourth or later on three processes). In
    // turn, with one process always left to others, it finishes while a's first ones still run.
    expect(finished.indexOf('b')).toBe(0);
  } finally {
    await pool.close();
  }
});
