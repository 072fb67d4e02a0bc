import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of processes from /proc/<pid>/stat (user + system, in clock ticks of 1/100 s), to tell which process
 * of the stack is busy under load: the API, the workers, the Temporal server or PostgreSQL.
 */
const TICKS_PER_SECOND = 100;

/** CPU ticks (user + system), nice value and parent pid from a `stat` file of /proc; null when it is gone. */
function readStat(path: string): { ticks: number; nice: number; parent: number } | null {
  try {
    const stat = readFileSync(path, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces: state is [0], utime [11].
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ticks: Number(rest[11]) + Number(rest[12]), nice: Number(rest[16]), parent: Number(rest[1]) };
  } catch {
    return null;
  }
}

function cpuTicks(pid: number): number {
  return readStat(`/proc/${pid}/stat`)?.ticks ?? 0;
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

/** The port of the Temporal cluster's own PostgreSQL (scripts/cluster, TEMPORAL_CLUSTER_PG_PORT). */
const CLUSTER_PG_PORT = process.env.TEMPORAL_CLUSTER_PG_PORT ?? '5442';

/**
 * The Temporal cluster's PostgreSQL (scripts/cluster): its postmaster, started with `-p <port>`, and every process
 * below it (backends, checkpointer, WAL writer). Empty when the cluster is down.
 */
export function clusterPostgresPids(): number[] {
  const flag = ` -p ${CLUSTER_PG_PORT} `;
  const postmasters = pidsMatching((cmd, comm) => comm === 'postgres' && `${cmd} `.includes(flag));
  return postmasters.length ? withDescendants(postmasters) : [];
}

/** Loom's PostgreSQL: the postmaster and every backend, without the Temporal cluster's own instance. */
export function postgresPids(): number[] {
  const cluster = new Set(clusterPostgresPids());
  return pidsMatching((_cmd, comm) => comm === 'postgres').filter((pid) => !cluster.has(pid));
}

/** The Temporal dev server (`temporal server start-dev`, scripts/services). */
export function devServerPids(): number[] {
  return pidsMatching((cmd) => cmd.includes('temporal') && cmd.includes('start-dev'));
}

/** The Temporal cluster's server processes (scripts/cluster: `temporal-server ... start --service NAME`), or one service's. */
export function clusterServerPids(service?: 'frontend' | 'history' | 'matching' | 'worker'): number[] {
  return pidsMatching(
    (cmd) => cmd.includes('temporal-server') && (service ? `${cmd} `.includes(` --service ${service} `) : cmd.includes(' --service ')),
  );
}

/**
 * The given processes and every process below them: the API's and the workers' expression sandbox processes
 * (lib/expressions/sandbox) do their JSONata and CEL work, which is part of what a run costs.
 */
export function withDescendants(pids: number[]): number[] {
  const out = new Set(pids);
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = readStat(`/proc/${entry}/stat`)?.parent;
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  for (const pid of out) for (const child of children.get(pid) ?? []) out.add(child);
  return [...out];
}

/**
 * A stack's processes by part: its API, its workers, the Temporal server it talks to and Loom's PostgreSQL. On the
 * dev server (`server` 'dev', the default) Temporal's persistence is SQLite inside `temporal`; on the cluster
 * (scripts/cluster) `temporal` is its six server processes and `temporal_db` its own PostgreSQL, which `postgres`
 * (Loom's database) leaves out.
 */
export function stackCpuGroups(apiPid: () => number | undefined, workerPids: () => number[], server: 'dev' | 'cluster' = 'dev'): PidGroups {
  const api = () => withDescendants([apiPid()].filter((p): p is number => p !== undefined));
  const workers = () => withDescendants(workerPids());
  if (server === 'cluster') {
    const temporal = clusterServerPids();
    return { api, workers, temporal: () => temporal, temporal_db: clusterPostgresPids, postgres: postgresPids };
  }
  const temporal = devServerPids();
  return { api, workers, temporal: () => temporal, postgres: postgresPids };
}

function threadStats(pid: number): Map<string, { ticks: number; nice: number }> {
  const out = new Map<string, { ticks: number; nice: number }>();
  let tids: string[] = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out; // the process ended
  }
  for (const tid of tids) {
    const stat = readStat(`/proc/${pid}/task/${tid}/stat`);
    if (stat) out.set(tid, stat);
  }
  return out;
}

/** A process's CPU over an interval by kind of thread, in seconds. */
export interface ThreadCpu {
  /** the thread whose id is the process id: Node's event loop */
  main: number;
  /** threads that lowered their own priority (nice > 0): the API's password workers */
  lowPriority: number;
  /** the rest: V8's helper threads (GC, compiler), libuv's pool, other worker threads */
  other: number;
}

/**
 * Starts measuring one process's threads; `stop()` answers their CPU by kind. Threads that start meanwhile count from
 * zero; a thread that ends meanwhile takes its time with it (Linux drops its /proc entry), so keep it to intervals
 * in which the threads of interest stay alive.
 */
export function threadCpuMeter(pid: number) {
  const before = threadStats(pid);
  return {
    stop(): ThreadCpu {
      const out: ThreadCpu = { main: 0, lowPriority: 0, other: 0 };
      for (const [tid, now] of threadStats(pid)) {
        const seconds = (now.ticks - (before.get(tid)?.ticks ?? 0)) / TICKS_PER_SECOND;
        if (tid === String(pid)) out.main += seconds;
        else if (now.nice > 0) out.lowPriority += seconds;
        else out.other += seconds;
      }
      return out;
    },
  };
}
