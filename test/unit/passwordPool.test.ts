import { existsSync, readdirSync, readFileSync } from 'node:fs';
import bcrypt from 'bcrypt';
import { createPasswordPool } from '../../domain/auth/passwordPool';

/** Nice values of this process's threads (Linux), by thread id. */
function threadNices(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    } catch {
      return []; // the thread ended meanwhile
    }
  });
}

describe('password pool (bcrypt in low-priority worker threads)', () => {
  const pool = createPasswordPool(2);

  it('hashes and compares like bcrypt itself', async () => {
    const hash = await pool.hash('correct horse', 4);
    expect(bcrypt.getRounds(hash)).toBe(4);
    expect(await bcrypt.compare('correct horse', hash)).toBe(true);
    expect(await pool.compare('correct horse', hash)).toBe(true);
    expect(await pool.compare('wrong horse', hash)).toBe(false);
    expect(await pool.compare('correct horse', await bcrypt.hash('correct horse', 4))).toBe(true);
  });

  it('answers every one of many concurrent tasks with its own result', async () => {
    const hashes = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((p) => pool.hash(p, 4)));
    const results = await Promise.all(
      hashes.flatMap((hash, i) => [pool.compare('abcde'[i]!, hash), pool.compare('x', hash)]),
    );
    expect(results).toEqual([true, false, true, false, true, false, true, false, true, false]);
  });

  it('gives each of several tasks queued for one worker its own answer, failures included', async () => {
    const single = createPasswordPool(1);
    const hash = await single.hash('pw', 4);
    // A mix of matches, mismatches and a task that fails in the worker (an impossible cost): no answer may reach
    // another task, and a failure must not stop the worker from taking the next.
    const outcomes = await Promise.allSettled([
      single.compare('pw', hash),
      single.compare('nope', hash),
      single.hash('pw', 99),
      single.compare('pw', hash),
      single.compare('nope', hash),
    ]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'error'))).toEqual([true, false, 'error', true, false]);
  });

  it('treats a malformed hash as a mismatch, as bcrypt.compare does', async () => {
    expect(await pool.compare('pw', 'not-a-bcrypt-hash')).toBe(await bcrypt.compare('pw', 'not-a-bcrypt-hash'));
  });

  const linux = existsSync('/proc/thread-self');
  (linux ? it : it.skip)('runs its workers at nice 10, below the event loop', async () => {
    const main = readFileSync('/proc/self/stat', 'utf8');
    const mainNice = Number(main.slice(main.lastIndexOf(')') + 2).split(' ')[16]);
    await Promise.all([pool.compare('pw', await pool.hash('pw', 4)), pool.compare('pw', await pool.hash('pw', 4))]);
    expect(mainNice).toBeLessThan(10);
    expect(threadNices().filter((n) => n === 10).length).toBeGreaterThanOrEqual(1);
  });
});
