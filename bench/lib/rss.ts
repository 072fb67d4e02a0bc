import { readFileSync } from 'node:fs';
import { pidsMatching } from './cpu';
import { round } from './stats';

/**
 * Resident memory of the stack's processes over a long run (the soak), and whether it stays flat: each process (or
 * group of processes) is sampled every few seconds from /proc/<pid>/status, the first samples are dropped as
 * warm-up, and a least-squares line through the rest gives its slope in MB per minute.
 */

const MB = 1024 * 1024;

/** VmRSS and RssShmem (the shared-memory part of it) of a process in bytes; null when it is gone or unreadable. */
export function memoryOf(pid: number): { rss: number; shmem: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    const shmem = /RssShmem:\s+(\d+)\s+kB/.exec(status);
    if (!rss) return null;
    return { rss: Number(rss[1]) * 1024, shmem: shmem ? Number(shmem[1]) * 1024 : 0 };
  } catch {
    return null;
  }
}

/**
 * One line of the RSS report: a process, or a group summed (PostgreSQL backends come and go). `privateOnly` counts
 * VmRSS minus RssShmem: a PostgreSQL backend's VmRSS includes the pages of `shared_buffers` it has touched so far,
 * which climbs toward the size of the buffer pool as it reads more tables. That is the shared cache filling, owned by
 * the postmaster, not memory the backend holds, and summing it over backends would count the same pages many times.
 */
export interface RssTarget {
  name: string;
  pids: () => number[];
  privateOnly?: boolean;
  /**
   * A group whose members come and go (pool connections: knex opens one per concurrent query and closes it after
   * 30 s idle). Its sum steps by a whole process at each open or close, so its trend is fitted over the members
   * alive in every sample after warm-up instead: a leak shows in the connections that live long, and churn cannot.
   */
  churns?: boolean;
}

export interface RssSample {
  minute: number;
  mb: number;
  /** How many processes were summed (a group's count changes). */
  processes: number;
  /** For groups that churn: MB of each process in this sample. */
  byPid?: Record<number, number>;
}

export interface RssSeries {
  name: string;
  churns: boolean;
  samples: RssSample[];
}

/** Samples every target every `everyMs` until stopped, and never more than `maxSamples` times (a bounded timer). */
export function startRssSampler(targets: RssTarget[], everyMs: number, maxSamples: number) {
  const started = performance.now();
  const series: RssSeries[] = targets.map((t) => ({ name: t.name, churns: t.churns === true, samples: [] }));
  let taken = 0;
  const sample = () => {
    const minute = (performance.now() - started) / 60_000;
    targets.forEach((target, i) => {
      let bytes = 0;
      let seen = 0;
      const byPid: Record<number, number> = {};
      for (const pid of target.pids()) {
        const memory = memoryOf(pid);
        if (!memory) continue;
        const value = target.privateOnly ? memory.rss - memory.shmem : memory.rss;
        bytes += value;
        seen += 1;
        if (target.churns) byPid[pid] = value / MB;
      }
      // A target with no live process is left out of this round rather than recorded as 0 MB (a false drop).
      if (seen > 0) series[i]!.samples.push({ minute, mb: bytes / MB, processes: seen, ...(target.churns ? { byPid } : {}) });
    });
    taken += 1;
    if (taken >= maxSamples) clearInterval(timer);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop(): RssSeries[] {
      clearInterval(timer);
      return series;
    },
  };
}

/** Least-squares slope of y over x; NaN below two points or with no spread in x. */
export function leastSquaresSlope(points: { x: number; y: number }[]): number {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const p of points) {
    sxy += (p.x - mx) * (p.y - my);
    sxx += (p.x - mx) ** 2;
  }
  return sxx === 0 ? Number.NaN : sxy / sxx;
}

export interface RssTrend {
  name: string;
  /** MB per minute over the samples after warm-up. */
  slope: number;
  /**
   * MB per minute over the second half of those samples: near 0 while `slope` is not, the series was still settling
   * (a runtime growing to the heap its load needs); near `slope`, it grows steadily (a leak). Reported, not judged.
   */
  secondHalfSlope: number;
  meanMb: number;
  firstMb: number;
  lastMb: number;
  maxMb: number;
  samples: number;
  /** Processes summed in the first and last kept sample: a group's sum moves when connections open or close. */
  processesFirst: number;
  processesLast: number;
  /** For a group that churns: how many of its processes were alive in every kept sample (the ones fitted). */
  processesThroughout: number | null;
  flat: boolean;
}

/**
 * The trend of one series: the first `warmupShare` of its samples are dropped (the JIT, pools and caches filling up
 * at the start of the load), the slope is fitted through the rest (for a group that churns, through its members
 * alive in all of them; NaN when none was). Flat means |slope| below `flatMbPerMinute`.
 */
export function rssTrend(series: RssSeries, flatMbPerMinute: number, warmupShare = 0.1): RssTrend {
  const kept = series.samples.slice(Math.floor(series.samples.length * warmupShare));
  let fitted = kept.map((s) => ({ x: s.minute, y: s.mb }));
  let processesThroughout: number | null = null;
  if (series.churns) {
    // The members alive in every kept sample; the fit follows their sum (the whole group's sum is still reported).
    const throughout = Object.keys(kept[0]?.byPid ?? {}).filter((pid) => kept.every((s) => s.byPid?.[Number(pid)] !== undefined));
    processesThroughout = throughout.length;
    fitted = throughout.length ? kept.map((s) => ({ x: s.minute, y: throughout.reduce((sum, pid) => sum + s.byPid![Number(pid)]!, 0) })) : [];
  }
  const slope = leastSquaresSlope(fitted);
  const secondHalfSlope = leastSquaresSlope(fitted.slice(Math.floor(fitted.length / 2)));
  const values = kept.map((s) => s.mb);
  return {
    name: series.name,
    slope: round(slope, 3),
    secondHalfSlope: round(secondHalfSlope, 3),
    meanMb: round(values.reduce((s, v) => s + v, 0) / Math.max(1, values.length), 1),
    firstMb: round(values[0] ?? Number.NaN, 1),
    lastMb: round(values[values.length - 1] ?? Number.NaN, 1),
    maxMb: round(values.length ? Math.max(...values) : Number.NaN, 1),
    samples: kept.length,
    processesFirst: kept[0]?.processes ?? 0,
    processesLast: kept[kept.length - 1]?.processes ?? 0,
    processesThroughout,
    flat: Number.isFinite(slope) && Math.abs(slope) < flatMbPerMinute,
  };
}

/**
 * The soak's verdict on its trends: the worst slope, and whether every judged process was flat. A group that churns
 * with no process alive through the whole soak (the API's sandbox children when no request needed one) has no slope
 * to judge; it is reported, not failed. Any other trend without a slope (no samples) fails the row.
 */
export function judgeRssTrends(trends: RssTrend[]): { worst: RssTrend | null; judged: number; met: boolean } {
  const judged = trends.filter((t) => t.processesThroughout !== 0);
  const finite = judged.filter((t) => Number.isFinite(t.slope));
  const worst = finite.reduce<RssTrend | null>((w, t) => (w === null || Math.abs(t.slope) > Math.abs(w.slope) ? t : w), null);
  return { worst, judged: judged.length, met: judged.length > 0 && finite.length === judged.length && judged.every((t) => t.flat) };
}

/** Every process in /proc whose command line contains all of `parts` (e.g. the Temporal dev server on our port). */
export function pidsWithCommandLine(...parts: string[]): number[] {
  return pidsMatching((cmdline) => parts.every((part) => cmdline.includes(part)));
}

/** The whole command line of a process, arguments split; empty when it is gone. */
export function commandLineOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}
