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

/**
 * Runs `work` with a task's file paths and `writeInput`, which writes `input` to its file: called when a process takes
 * the task (the pool's `prepare`), so that tasks queued for the lane hold no files. Both files are removed at the end,
 * after a write still under way.
 */
export async function withBulkFiles<T>(input: Buffer, work: (paths: BulkPaths, writeInput: () => Promise<void>) => Promise<T>): Promise<T> {
  const dir = await bulkFolder();
  sequence += 1;
  const paths = { input: path.join(dir, `${sequence}.in`), output: path.join(dir, `${sequence}.out`) };
  const written: { promise: Promise<void> | null } = { promise: null };
  const writeInput = (): Promise<void> => (written.promise ??= writeFile(paths.input, input, { mode: 0o600 }));
  try {
    return await work(paths, writeInput);
  } finally {
    await written.promise?.catch(() => undefined);
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
