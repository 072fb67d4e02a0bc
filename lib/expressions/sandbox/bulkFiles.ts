import { mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Large inputs and results of the data lane travel through files, not the IPC channel. Over the channel a 10 MB text
 * is serialized, framed and copied on the caller's event loop both ways (measured: stalls of 200–600 ms on the
 * worker's loop per 10 MB trip, in JSON and in V8's serialization alike), and that loop runs every tenant's
 * activities and workflow tasks. A file is written and read by libuv's thread pool; the loop only hands over a
 * Buffer. The folder is this process's own (mode 0700), each task's files are removed when it ends.
 */
let folder: Promise<string> | null = null;
let sequence = 0;

function bulkFolder(): Promise<string> {
  folder ??= mkdtemp(path.join(tmpdir(), 'loom-sandbox-'));
  return folder;
}

async function removeQuietly(file: string): Promise<void> {
  await unlink(file).catch(() => undefined);
}

export interface BulkPaths {
  input: string;
  output: string;
}

/** Writes `input` to a file, runs `work` with its path and the path of the result to write, then removes both. */
export async function withBulkFiles<T>(input: Buffer, work: (paths: BulkPaths) => Promise<T>): Promise<T> {
  const dir = await bulkFolder();
  sequence += 1;
  const paths = { input: path.join(dir, `${sequence}.in`), output: path.join(dir, `${sequence}.out`) };
  try {
    await writeFile(paths.input, input, { mode: 0o600 });
    return await work(paths);
  } finally {
    await Promise.all([removeQuietly(paths.input), removeQuietly(paths.output)]);
  }
}

/** The result a sandbox process wrote. */
export function readBulkResult(paths: BulkPaths): Promise<Buffer> {
  return readFile(paths.output);
}

/** Removes this process's folder (shutdown, tests). */
export async function removeBulkFolder(): Promise<void> {
  const current = folder;
  folder = null;
  if (current) await rm(await current, { recursive: true, force: true });
}
