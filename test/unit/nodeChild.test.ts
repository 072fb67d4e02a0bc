import { readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import path from 'node:path';
import { spawnNodeChild } from '../../lib/nodeChild';

/**
 * Children that parse tenants' files run in the background (issue 40): under SCHED_IDLE, they get a core only when
 * nothing else wants it. Read from /proc: field 41 of `stat` is the scheduling policy (0 normal, 5 idle).
 */
const SANDBOX = path.join(__dirname, '../../lib/expressions/sandbox/pool.ts');

function policyOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name may hold spaces: the fields after it start at the last ')'.
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[41 - 3]);
}

async function schedulingOfChild(options: { background?: boolean; nice?: number }): Promise<{ policy: number; nice: number }> {
  const child = spawnNodeChild(SANDBOX, 'child', { heapMb: 64, stderr: 'inherit', serialization: 'advanced', ...options });
  try {
    // Past sh and chrt: the process is node once its command line says so.
    for (let i = 0; i < 200; i++) {
      const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8');
      if (cmdline.startsWith(process.execPath)) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    return { policy: policyOf(child.pid!), nice: getPriority(child.pid!) };
  } finally {
    child.kill('SIGKILL');
  }
}

test('a background child runs under SCHED_IDLE; others under the normal policy', async () => {
  expect((await schedulingOfChild({ background: true })).policy).toBe(5);
  expect(await schedulingOfChild({ background: false })).toEqual({ policy: 0, nice: getPriority() });
});

test('a child with a nice value runs at it, under the normal policy (the data lane: no starvation)', async () => {
  expect(await schedulingOfChild({ nice: 10 })).toEqual({ policy: 0, nice: 10 });
});
