import { existsSync, readFileSync } from 'node:fs';
import { DEFAULT_JSONATA_LIMITS } from '../../../lib/expressions';
import { removeBulkFolder, withBulkFiles, type BulkPaths } from '../../../lib/expressions/sandbox/bulkFiles';
import { createSandboxPool } from '../../../lib/expressions/sandbox/pool';

/**
 * A task of the data lane may carry work to do once a process takes it (writing its input file): tasks queued
 * behind others hold no files on disk while they wait, however many wait. Real child processes; compared by order.
 */
const limits = { ...DEFAULT_JSONATA_LIMITS, timeoutMs: 1500 };
const endless = { op: 'jsonata' as const, expression: '($f := function($x){ $f($x) }; $f(1))', data: null, bindings: {}, limits };
const quick = { op: 'jsonata' as const, expression: '1 + 1', data: null, bindings: {}, limits };

afterAll(() => removeBulkFolder());

test('a queued task is prepared when a process takes it, not while it waits', async () => {
  const pool = createSandboxPool(1);
  try {
    await pool.run(quick, 30_000, 'boot');
    const prepared: string[] = [];
    const first = pool.run(endless, limits.timeoutMs + 250, 'org-a', async () => void prepared.push('first')).catch((err: Error & { code?: string }) => err.code);
    const second = pool.run(quick, 30_000, 'org-b', async () => void prepared.push('second'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(prepared).toEqual(['first']); // the only process runs the first task: the second waits, unprepared
    expect(await first).toBe('EXPRESSION_TIMEOUT');
    expect(await second).toBe(2);
    expect(prepared).toEqual(['first', 'second']);
  } finally {
    await pool.close();
  }
});

test('a task whose preparation fails gets a clear error; the process serves the next task', async () => {
  const pool = createSandboxPool(1);
  try {
    const full = Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
    await expect(pool.run(quick, 30_000, 'org-a', () => Promise.reject(full))).rejects.toMatchObject({
      code: 'EXPRESSION_FAILED',
      message: "the expression's data could not be prepared for the sandbox (ENOSPC)",
    });
    expect(await pool.run(quick, 30_000, 'org-a')).toBe(2);
  } finally {
    await pool.close();
  }
});

test('a bulk input file exists only from its write to the end of the work', async () => {
  let seen: BulkPaths | null = null;
  await withBulkFiles(Buffer.from('a,b\n1,2\n'), async (paths, writeInput) => {
    seen = paths;
    expect(existsSync(paths.input)).toBe(false);
    await writeInput();
    expect(readFileSync(paths.input, 'utf8')).toBe('a,b\n1,2\n');
  });
  expect(seen).not.toBeNull();
  expect(existsSync(seen!.input)).toBe(false);
});
