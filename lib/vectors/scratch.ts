import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

/**
 * Where LanceDB's temporary files go. Index builds (IVF shuffles) write folders of tens of MB to the system temp
 * folder and leave them behind; LanceDB (0.37) has no option for the location: its Rust code asks `$TMPDIR` each time.
 * So each process points `$TMPDIR` at a folder of its own in the scratch dir once, at start-up, before any LanceDB
 * work (worker/main.ts, api/server.ts), and the store removes what a build left there. Changing `$TMPDIR` around each
 * build instead would change it for everything else the process runs meanwhile.
 */

/** This process's temporary folder: per process, so processes sharing a scratch dir never clean each other's. */
export function processTempDir(scratchDir: string, pid: number = process.pid): string {
  return path.resolve(scratchDir, String(pid));
}

/** The folders Rust's `tempfile` crate creates (LanceDB's): `.tmp` and six random characters. */
export function isLanceTempEntry(name: string): boolean {
  return /^\.tmp[A-Za-z0-9]{6}$/.test(name);
}

function lanceTempEntries(dir: string): string[] {
  try {
    return readdirSync(dir).filter(isLanceTempEntry);
  } catch {
    return []; // no folder: the process did not point $TMPDIR here, nothing of ours to clean
  }
}

/**
 * Start-up only, before LanceDB runs: creates this process's temporary folder (removing what a process with the
 * same id left there) and makes it `TMPDIR` for the whole process. Returns the folder.
 */
export function useScratchDirForTempFiles(scratchDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = processTempDir(scratchDir);
  mkdirSync(dir, { recursive: true });
  for (const name of lanceTempEntries(dir)) rmSync(path.join(dir, name), { recursive: true, force: true });
  env.TMPDIR = dir;
  return dir;
}

/**
 * Runs `work` (an index build), then removes the LanceDB temporary folders that appeared in `dir` meanwhile and
 * tells `removed` their names. Callers run one build at a time per process, so what appears is the build's.
 */
export async function removingTempLeftovers<T>(dir: string, work: () => Promise<T>, removed?: (names: string[]) => void): Promise<T> {
  const before = new Set(lanceTempEntries(dir));
  try {
    return await work();
  } finally {
    const leftovers = lanceTempEntries(dir).filter((name) => !before.has(name));
    for (const name of leftovers) rmSync(path.join(dir, name), { recursive: true, force: true });
    if (leftovers.length) removed?.(leftovers);
  }
}
