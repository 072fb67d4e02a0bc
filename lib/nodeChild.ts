import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { setPriority } from 'node:os';
import path from 'node:path';

/** util-linux's chrt, to start a child under SCHED_IDLE (absent: the child gets the lowest nice value instead). */
const CHRT = ['/usr/bin/chrt', '/bin/chrt'].find((candidate) => existsSync(candidate)) ?? null;

/**
 * Starts one of this code's modules as a Node child process that handles tenants' data (the expression sandbox,
 * the file readers): compiled JavaScript in production, TypeScript through tsx's CommonJS hook under tsx and jest,
 * chosen by the caller's own extension. The child gets an empty environment (no database URLs or secrets), a V8
 * heap cap, an IPC channel, and runs under `ulimit -c 0` (through sh, whose `exec` leaves Node itself as the child):
 * a tenant whose input makes V8 abort again and again must not fill the disk with core dumps of a capped heap.
 * `background`: the child runs under Linux's SCHED_IDLE policy (through chrt): it gets a core only when nothing
 * else wants it, so one tenant's file parse never delays the API, the worker, Temporal or PostgreSQL serving
 * another (issue 40); without chrt, at nice 19. `nice`: a lower priority without SCHED_IDLE's starvation, for work
 * that runs on a run's path under a deadline (the expression sandbox's data lane): on a saturated machine a
 * SCHED_IDLE process gets next to no CPU and would meet its deadline's wall-clock cap without having overrun it.
 */
export function spawnNodeChild(
  callerFile: string,
  moduleName: string,
  options: { heapMb: number; stderr: 'inherit' | 'pipe'; serialization: 'json' | 'advanced'; background?: boolean; nice?: number },
): ChildProcess {
  const typescript = path.extname(callerFile) === '.ts';
  const entry = path.join(path.dirname(callerFile), `${moduleName}${typescript ? '.ts' : '.js'}`);
  const node = [process.execPath, ...(typescript ? ['--require', require.resolve('tsx/cjs')] : []), `--max-old-space-size=${options.heapMb}`, entry];
  const stdio: StdioOptions = ['ignore', 'ignore', options.stderr, 'ipc'];
  const idle = options.background === true && CHRT !== null;
  const script = idle ? `ulimit -c 0; exec ${CHRT} --idle 0 "$@"` : 'ulimit -c 0; exec "$@"';
  const child = spawn('/bin/sh', ['-c', script, moduleName, ...node], { env: {}, stdio, serialization: options.serialization });
  const nice = options.background === true && !idle ? 19 : options.nice;
  if (nice !== undefined && child.pid !== undefined) {
    try {
      // The shell's pid is Node's: `exec` keeps it, and the priority with it.
      setPriority(child.pid, nice);
    } catch {
      // The child keeps the parent's priority: slower for others, never wrong.
    }
  }
  return child;
}
