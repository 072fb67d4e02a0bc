import { Query, type Submittable } from 'pg';
import type { Db } from './knex';

interface PgConnection {
  query(query: Submittable): void;
}

/**
 * Runs a statement as a named (prepared) statement, parsed and planned once per connection, on a connection of the
 * same knex pool, skipping knex's builder and runner (about twice the CPU of a small query itself). For the queries
 * every request makes (the session check, the organization access check; docs/benchmarks.md, auth path).
 *
 * The statement is handed over as a pg `Query` whose name is set after construction: given a config object instead,
 * pg copies it property descriptor by descriptor (`cloneQueryConfig`), ~1.5% of an authenticated read's CPU.
 * Named statements need session pooling if a PgBouncer ever sits in front; a migration that changes the type of a
 * selected column needs the processes restarted (PostgreSQL refuses a cached plan whose result type changed).
 * Reads, and writes to tables no cache copies (a run's final write): knex does not announce these queries, and
 * domain/auth/authChangeListener.ts watches writes to sessions, users, organizations and memberships through it.
 * Given a transaction, the statement runs on the transaction's connection.
 */
export async function queryNamed<R>(db: Db, name: string, text: string, values: unknown[]): Promise<R[]> {
  const connection = (await db.client.acquireConnection()) as PgConnection;
  try {
    return await new Promise<R[]>((resolve, reject) => {
      const query = new Query<R & object>(text, values, (error, result) => (error ? reject(error) : resolve(result.rows)));
      (query as unknown as { name: string }).name = name;
      connection.query(query);
    });
  } finally {
    await db.client.releaseConnection(connection);
  }
}
