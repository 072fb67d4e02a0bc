import knex, { type Knex } from 'knex';
import { migrationSource } from './migrationSource';

export type Db = Knex;

interface DbLogger {
  warn(obj: object, msg: string): void;
}

export function createDb(url: string, poolMax = 10, logger?: DbLogger): Db {
  // Knex logs connection trouble to the console by default; route it to our logger (or drop it in tests).
  const forward = (message: unknown): void => logger?.warn({ detail: String(message) }, 'knex');
  return knex({
    log: { warn: forward, error: forward, deprecate: forward, debug: () => undefined },
    client: 'pg',
    connection: { connectionString: url, connectionTimeoutMillis: 5000 },
    pool: { min: 0, max: poolMax, idleTimeoutMillis: 30_000 },
    // A dead database must give a fast 503, not a request that hangs for a minute.
    acquireConnectionTimeout: 5000,
    migrations: { migrationSource, tableName: 'knex_migrations' },
  });
}

export async function migrateLatest(db: Db): Promise<string[]> {
  const [, applied] = (await db.migrate.latest()) as [number, string[]];
  return applied;
}

export async function migrateRollbackAll(db: Db): Promise<void> {
  await db.migrate.rollback(undefined, true);
}
