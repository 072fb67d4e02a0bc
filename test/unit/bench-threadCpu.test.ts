import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { threadCpuMeter, withDescendants } from '../../bench/lib/cpu';
import { createPasswordPool } from '../../domain/auth/passwordPool';

/** The login row splits the API's CPU by kind of thread: the password threads are those at nice > 0. */
const linux = existsSync('/proc/self/task');

(linux ? describe : describe.skip)('threadCpuMeter', () => {
  it('puts a nice-10 worker thread under lowPriority and this thread under main', async () => {
    const pool = createPasswordPool(1);
    await pool.hash('warm-up', 4); // the worker exists, and has lowered its priority, before the meter starts
    const meter = threadCpuMeter(process.pid);
    await pool.hash('in the worker', 11);
    await pool.hash('in the worker', 11);
    const until = process.cpuUsage().user + 150_000;
    while (process.cpuUsage().user < until) Math.sqrt(Math.random()); // ~150 ms of CPU on this thread
    const cpu = meter.stop();
    // Clock ticks are 10 ms: each side did far more than a few ticks' worth of work.
    expect(cpu.lowPriority).toBeGreaterThanOrEqual(0.05);
    expect(cpu.main).toBeGreaterThanOrEqual(0.05);
  });

  it('answers zeros for a process that is gone', () => {
    const meter = threadCpuMeter(2 ** 22 + 12345);
    expect(meter.stop()).toEqual({ main: 0, lowPriority: 0, other: 0 });
  });
});

(linux ? describe : describe.skip)('withDescendants', () => {
  it('adds the children of a process (the sandbox processes of the API and the workers) and their children', async () => {
    // A child that starts a grandchild and reports its pid, both sleeping until killed.
    const child = spawn(process.execPath, ['-e', "const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1000);"], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      const grandchild = Number(await new Promise<string>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString()))));
      const pids = withDescendants([process.pid]);
      expect(pids).toEqual(expect.arrayContaining([process.pid, child.pid, grandchild]));
      expect(withDescendants([child.pid!]).sort()).toEqual([child.pid, grandchild].sort());
      process.kill(grandchild);
    } finally {
      child.kill();
    }
  });
});
