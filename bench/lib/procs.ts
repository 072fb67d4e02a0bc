import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { build } from '../../scripts/build';
import { sleep } from './stats';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/**
 * The bench's own build (scripts/build.ts, as `npm run build` makes dist/ for production), in the scratch area, so a
 * bench never rewrites the dist/ a running deployment may still load files from.
 */
export const BUILD_DIR = path.join(REPO_ROOT, '.data', 'bench-build');

/** Compiles the children (API, workers, baselines) once per bench run: both sides of every row run as plain JavaScript. */
export function buildForBench(): void {
  build(BUILD_DIR);
}

/** A child process the bench started: a script of the compiled build (see buildForBench), its output in a log file. */
export interface Child {
  name: string;
  proc: ChildProcess;
  pid: number;
  logPath: string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

export interface SpawnOptions {
  name: string;
  /** The source path (`api/server.ts`); its compiled counterpart in BUILD_DIR runs. */
  script: string;
  env: Record<string, string>;
  logDir: string;
  /** Extra Node flags, e.g. --cpu-prof. */
  nodeFlags?: string[];
}

export function spawnNode({ name, script, env, logDir, nodeFlags = [] }: SpawnOptions): Child {
  const logPath = path.join(logDir, `${name}.log`);
  const out = openSync(logPath, 'a');
  const compiled = path.join(BUILD_DIR, script.replace(/\.ts$/, '.js'));
  if (!existsSync(compiled)) throw new Error(`${compiled} is missing: the bench builds before it starts children (buildForBench)`);
  const proc = spawn(process.execPath, [...nodeFlags, compiled], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', out, out],
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return {
    name,
    proc,
    pid: proc.pid!,
    logPath,
    async stop(graceMs = 15_000) {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Waits until the child's log shows `pattern`; fails fast when the child died. */
export async function waitForLog(child: Child, pattern: RegExp, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const text = existsSync(child.logPath) ? readFileSync(child.logPath, 'utf8') : '';
    if (pattern.test(text)) return;
    if (child.proc.exitCode !== null) throw new Error(`${child.name} exited (${child.proc.exitCode}); see ${child.logPath}:\n${text.slice(-2000)}`);
    await sleep(200);
  }
  throw new Error(`${child.name}: timed out waiting for ${pattern} in ${child.logPath}`);
}

/** Waits until an HTTP server answers anything at `url`. */
export async function waitForHttp(child: Child, url: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.proc.exitCode !== null) {
      throw new Error(`${child.name} exited (${child.proc.exitCode}); see ${child.logPath}:\n${readFileSync(child.logPath, 'utf8').slice(-2000)}`);
    }
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      await sleep(200);
    }
  }
  throw new Error(`${child.name}: no HTTP answer at ${url} within ${timeoutMs} ms`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Resident set size of a process in bytes, from /proc/<pid>/status (VmRSS); NaN when it cannot be read. */
export function rssBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Samples a process's RSS every `everyMs` until stopped: start, peak and last value in bytes. */
export function sampleRss(pid: number, everyMs = 100) {
  const start = rssBytes(pid);
  let peak = start;
  let last = start;
  const timer = setInterval(() => {
    const value = rssBytes(pid);
    if (Number.isFinite(value)) {
      last = value;
      if (!(value <= peak)) peak = value;
    }
  }, everyMs);
  return {
    stop(): { start: number; peak: number; last: number } {
      clearInterval(timer);
      return { start, peak, last };
    },
  };
}
