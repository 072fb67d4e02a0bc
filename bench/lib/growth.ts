import { statSync } from 'node:fs';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { REPO_ROOT } from './procs';
import { commandLineOf, pidsWithCommandLine } from './rss';

/**
 * What a long run leaves on disk: the scratch database's size as PostgreSQL counts it, and the Temporal dev
 * server's SQLite file (with its WAL and shared-memory index: in WAL mode, commits land in `-wal` until a
 * checkpoint copies them into the main file, so the main file alone would lag behind).
 */

const MB = 1024 * 1024;

export async function databaseBytes(dbUrl: string): Promise<number> {
  const pg = new PgClient({ connectionString: dbUrl });
  await pg.connect();
  try {
    const { rows } = await pg.query<{ bytes: string }>('SELECT pg_database_size(current_database())::text AS bytes');
    return Number(rows[0]!.bytes);
  } finally {
    await pg.end();
  }
}

/** Pids of the Temporal dev server listening on `address`'s port (scripts/services starts it with `--port`). */
export function temporalPids(address: string): number[] {
  const port = address.split(':').pop() ?? '7233';
  const onPort = pidsWithCommandLine('start-dev', `--port ${port}`);
  return onPort.length ? onPort : pidsWithCommandLine('temporal', 'start-dev');
}

/**
 * The SQLite file of the Temporal dev server on `address`: its `--db-filename` argument (scripts/services passes
 * `.data/temporal/temporal.db`); null when the server keeps its state in memory or cannot be found.
 */
export function temporalDbFile(address: string): string | null {
  for (const pid of temporalPids(address)) {
    const args = commandLineOf(pid);
    const i = args.findIndex((a) => a === '--db-filename' || a === '-f' || a.startsWith('--db-filename='));
    if (i < 0) continue;
    const value = args[i]!.includes('=') ? args[i]!.slice(args[i]!.indexOf('=') + 1) : args[i + 1];
    if (!value) continue;
    // A relative path is relative to the server's working directory: scripts/services runs from the repository.
    return path.isAbsolute(value) ? value : path.join(REPO_ROOT, value);
  }
  return null;
}

/** Bytes of an SQLite database on disk: the file plus its `-wal` and `-shm` companions when present. */
export function sqliteBytes(file: string): number {
  let total = 0;
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      total += statSync(f).size;
    } catch {
      // no such companion (rollback-journal mode, or not created yet)
    }
  }
  return total;
}

/** MB per 1,000 runs from two sizes in bytes; NaN when no run was counted. */
export function growthPer1000Runs(beforeBytes: number, afterBytes: number, runs: number): number {
  return runs > 0 ? ((afterBytes - beforeBytes) / MB / runs) * 1000 : Number.NaN;
}
