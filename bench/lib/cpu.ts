import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of processes from /proc/<pid>/stat (user + system, in clock ticks of 1/100 s), to tell which process
 * of the stack is busy under load: the API, the workers, the Temporal server or PostgreSQL.
 */
const TICKS_PER_SECOND = 100;

function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(rest[11]) + Number(rest[12]);
  } catch {
    return 0;
  }
}

/** Pids whose command line matches, e.g. the Temporal dev server or PostgreSQL backends. */
export function pidsMatching(test: (cmdline: string, comm: string) => boolean): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (test(cmdline, comm)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

export type PidGroups = Record<string, () => number[]>;

/** Starts measuring; `stop()` answers each group's CPU use over the interval, in % of one core. */
export function cpuMeter(groups: PidGroups) {
  const started = performance.now();
  const before = new Map<number, number>();
  for (const pids of Object.values(groups)) for (const pid of pids()) before.set(pid, cpuTicks(pid));
  return {
    stop(): Record<string, number> {
      const seconds = (performance.now() - started) / 1000;
      const out: Record<string, number> = {};
      for (const [name, pids] of Object.entries(groups)) {
        let ticks = 0;
        // Processes that appeared meanwhile (new PostgreSQL backends) count from zero.
        for (const pid of pids()) ticks += cpuTicks(pid) - (before.get(pid) ?? 0);
        out[name] = Math.round((ticks / TICKS_PER_SECOND / seconds) * 1000) / 10;
      }
      return out;
    },
  };
}

export function stackCpuGroups(apiPid: () => number | undefined, workerPids: () => number[]): PidGroups {
  const temporal = pidsMatching((cmd) => cmd.includes('temporal') && cmd.includes('start-dev'));
  return {
    api: () => [apiPid()].filter((p): p is number => p !== undefined),
    workers: workerPids,
    temporal: () => temporal,
    postgres: () => pidsMatching((_cmd, comm) => comm === 'postgres'),
  };
}
