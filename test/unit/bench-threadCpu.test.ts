import { existsSync } from 'node:fs';
import { threadCpuMeter } from '../../bench/lib/cpu';
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
