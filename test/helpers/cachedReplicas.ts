import type { Knex } from 'knex';
import { createDb } from '../../db/knex';
import { startApi, type TestApi } from './stack';

/** Two API instances sharing the database, as two replicas do, and `sql`: a third connection (an operator, the worker). */
export interface CachedReplicas {
  a: TestApi;
  b: TestApi;
  sql: Knex;
}

/**
 * The fixture of the cross-instance cache suites (session check, organization access check). The caches' TTL (60 s)
 * is far longer than any wait in a test, so a change an instance sees comes from an eviction, never from an entry
 * growing old. Registers the suite's beforeAll and afterAll; `take` receives the replicas once they are up.
 */
export function useCachedReplicas(take: (replicas: CachedReplicas) => void): void {
  let started: CachedReplicas | undefined;
  beforeAll(async () => {
    const ttl = { SERVICE_AUTH_SESSION_CACHE_TTL: '60s' };
    const [a, b] = await Promise.all([startApi(ttl), startApi(ttl)]);
    started = { a, b, sql: createDb(process.env.DATABASE_URL!, 2) };
    take(started);
  });
  afterAll(async () => {
    if (started) await Promise.all([started.a.close(), started.b.close(), started.sql.destroy()]);
  });
}

/**
 * A write through `db` that fires no trigger (`session_replication_role = replica`), so it sends no change notice:
 * it shows what a cache serves when nobody tells it.
 */
export async function writeUnnoticed(db: Knex, write: (trx: Knex.Transaction) => Promise<unknown>): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.raw('SET LOCAL session_replication_role = replica');
    await write(trx);
  });
}
