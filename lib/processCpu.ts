import { readFileSync } from 'node:fs';

/** Linux reports a process's CPU times in clock ticks of USER_HZ, 100 per second on every architecture. */
const MS_PER_TICK = 10;

/**
 * CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat; null where there is no such file
 * (not Linux, or the process is gone). A synchronous read of a few hundred bytes from procfs: microseconds.
 */
export function processCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name (field 2) is in parentheses and may hold spaces: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) * MS_PER_TICK : null;
  } catch {
    return null;
  }
}
